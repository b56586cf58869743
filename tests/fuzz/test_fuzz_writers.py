"""Writers under stress: concurrent writers (real processes on one file) and ENOSPC (a full disk,
injected into the writer), so that nothing written is ever lost.

Families (counted per family in the summary):

* `concurrent writers: locked counter` — K processes each add 1 to a JSON file M times, each a
  read-merge-write under `ekonos.locks.locked`: the file ends at K x M;
* `concurrent writers: autosave` — K processes claim one autosave at the same moment: exactly
  one owns it;
* `concurrent writers: ladder` — K real `ekonos ladder` runs on one file: every run's games
  end in it, each run under its own number;
* `ENOSPC: atomic write` — `write_atomic` failing at any step with ENOSPC, EDQUOT, EIO or EROFS:
  the target unchanged, no temporary file, the error naming the target;
* `ENOSPC: autosave` — a session whose autosave fails for a while: told once per outage, the
  game whole in memory, the autosave whole once the disk frees;
* `ENOSPC: ladder` — the ladder file's writes failing in a window: exit 0 with every game when
  the disk frees before the end, else one `Error:` line naming the file; never a stray file.

A lost write is counted as the finding "lost write".
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import check_verdict, found, fuzz_settings, run_cli, tried

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS)


def lost(what: str) -> AssertionError:
    found("lost write")
    return AssertionError(what)


# ---------------------------------------------------------------------------------------------
# concurrent writers

COUNTER = """
import json, sys
from ekonos.files import write_atomic
from ekonos.locks import locked
path, times = sys.argv[1], int(sys.argv[2])
for _ in range(times):
    with locked(path):
        try:
            n = json.load(open(path))["n"]
        except FileNotFoundError:
            n = 0
        write_atomic(path, json.dumps({"n": n + 1}))
"""


@fuzz_settings(ci=3, shrink=False)
@given(k=st.integers(2, 4), m=st.integers(1, 40))
def test_locked_read_merge_writes_lose_nothing(k, m):
    tried("concurrent writers: locked counter")
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "count.json"
        procs = [subprocess.Popen([sys.executable, "-c", COUNTER, str(path), str(m)], env=ENV)
                 for _ in range(k)]
        assert all(p.wait(timeout=120) == 0 for p in procs)
        n = json.loads(path.read_text())["n"]
        if n != k * m:
            raise lost(f"{k} processes x {m} writes: the file counts {n}")
        assert sorted(os.listdir(tmp)) == ["count.json"]


CLAIM = """
import sys
from cli import storage
try:
    storage.claim_autosave(sys.argv[1], "fuzz")
    print("held", flush=True)
except storage.AutosaveBusy as e:
    print("busy", flush=True)
sys.stdin.read()
"""


@fuzz_settings(ci=3, shrink=False)
@given(k=st.integers(2, 5))
def test_one_autosave_has_one_owner(k):
    tried("concurrent writers: autosave")
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "autosave.json"
        procs = [subprocess.Popen([sys.executable, "-c", CLAIM, str(path)], env=ENV,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for _ in range(k)]
        answers = [p.stdout.readline().strip() for p in procs]
        for p in procs:
            p.communicate("", timeout=60)
        if answers.count("held") != 1 or answers.count("busy") != k - 1:
            raise lost(f"{k} processes claimed one autosave: {answers}")


@fuzz_settings(ci=2, shrink=False)
@given(k=st.integers(2, 3), games=st.sampled_from([2, 4, 6]))
def test_ladder_runs_at_once_keep_every_game(k, games):
    from search.lab.ladder_fit import Ladder
    tried("concurrent writers: ladder")
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "shared.json"
        args = ["ladder", "-f", str(path), "--spec", "random", "--spec", "greedy", "-p", "2",
                "-n", str(games), "--quiet", "--json"]
        procs = [subprocess.Popen([sys.executable, "-m", "cli.main", *args], env=ENV, cwd=tmp,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(k)]
        for p in procs:
            out, err = p.communicate(timeout=240)
            check_verdict("ladder", args, p.returncode, out, err)
            assert p.returncode == 0
        lad = Ladder.load(path)
        if len(lad.games) != k * games or len({g["run"] for g in lad.games}) != k:
            raise lost(f"{k} runs of {games} games: the file holds {len(lad.games)} games of "
                       f"runs {sorted({g['run'] for g in lad.games})}")


# ---------------------------------------------------------------------------------------------
# ENOSPC

STEPS = ("mkstemp", "fchmod", "fsync", "replace")


@fuzz_settings(ci=40)
@given(step=st.sampled_from(STEPS), code=st.sampled_from(ERRNOS), existed=st.booleans(),
       text=st.text(max_size=200))
def test_a_failed_atomic_write_changes_nothing(step, code, existed, text):
    from ekonos.files import write_atomic
    tried("ENOSPC: atomic write")
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "f.json"
        if existed:
            path.write_text("before")
        target = ("tempfile.mkstemp" if step == "mkstemp" else f"os.{step}")
        error = OSError(code, os.strerror(code))
        with mock.patch(target, side_effect=error):
            try:
                write_atomic(path, text)
                raise AssertionError(f"{step} failed but write_atomic did not raise")
            except OSError as e:
                assert e.errno == code and e.filename == str(path), e
        if (path.read_text() if path.exists() else None) != ("before" if existed else None):
            raise lost(f"{step} failed with {errno.errorcode[code]}: the file changed")
        assert os.listdir(tmp) == (["f.json"] if existed else []), os.listdir(tmp)


@fuzz_settings(ci=5, shrink=False)
@given(seed=st.integers(0, 2**16), first=st.integers(0, 8), length=st.integers(0, 8),
       decisions=st.integers(4, 16))
def test_an_autosave_outage_never_costs_a_decision(seed, first, length, decisions):
    from cli import storage
    from cli.events import AutosaveFailed
    from cli.session import GameSession
    tried("ENOSPC: autosave")
    real = storage.write_atomic
    count = [0]

    def write(path, text):
        count[0] += 1
        if first < count[0] <= first + length:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, text)
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp, \
            mock.patch.object(storage, "write_atomic", write):
        s = GameSession.new(ai=1, level=1, seed=seed, autosave=Path(tmp) / "autosave.json")
        events = []
        s.subscribe(events.append)
        while len(s.decisions) < decisions and not s.state.is_over():
            if s.human_to_move():
                s.decide("1")
            else:
                s.play_ai()
        told = sum(isinstance(e, AutosaveFailed) for e in events)
        assert told <= 1, f"told {told} times in one outage"
        s.autosave_now()
        s.close()
        if count[0] > first + length and \
                json.loads((Path(tmp) / "autosave.json").read_text()) != s.record():
            raise lost("the autosave lost decisions after the disk freed")
        if len(s.record()["play"]["moves"]) != len(s.decisions):
            raise lost("the record in memory lost decisions")


@fuzz_settings(ci=4, shrink=False)
@given(first=st.integers(2, 5), length=st.integers(1, 6), code=st.sampled_from(ERRNOS))
def test_a_ladder_on_a_full_disk_keeps_or_names(first, length, code):
    import search.lab.ladder_fit as ladder_fit
    from search.lab.ladder_fit import Ladder
    real = ladder_fit.write_atomic
    count = [0]

    def write(path, text):
        count[0] += 1
        if first <= count[0] < first + length:
            raise OSError(code, os.strerror(code), str(path))
        return real(path, text)
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp, \
            mock.patch.object(ladder_fit, "write_atomic", write):
        path = Path(tmp) / "lad.json"
        r = run_cli(["ladder", "-f", str(path), "--spec", "random", "--spec", "greedy", "-p",
                     "2", "-n", "4", "--quiet"], "ENOSPC: ladder")
        saved = Ladder.load(path).games if path.exists() else []
        if r.exit_code == 0 and len(saved) != 4:
            raise lost(f"exit 0 but the file holds {len(saved)} of 4 games")
        if r.exit_code == 2:
            assert str(path) in r.stderr and os.strerror(code) in r.stderr, r.stderr
        assert set(os.listdir(tmp)) <= {"lad.json"}, os.listdir(tmp)
