"""Two families in real processes: Ctrl-C at a random point of `hint`, `review` and `arena`
runs with small budgets (exit 0, 130 or 2, no traceback, no hang), and random commands under
random output encodings (exit 0 or one `Error:` line, never a UnicodeEncodeError).

One hypothesis example is one process, so no shrinking: a failure names its case."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli.record import write_record
from ekonos import State, save_file
from fuzz_support import found, fuzz_settings, tried
from helpers import ctrl_c_held_until_start

ROOT = Path(__file__).resolve().parents[2]
HANG = 30              # seconds after Ctrl-C (or for a whole run) that count as a hang


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("sig")
    save_file(State.new(3, seed=42, names=["Ñandú", "日本", "Zoë"]), d / "g.json")
    rng = random.Random(3)
    start = State.new(2, seed=3)
    s, moves = start.copy(), []
    while not s.is_over():
        moves.append(rng.choice(list(s.legal_moves)))
        s.push(moves[-1])
    (d / "rec.json").write_text(json.dumps(write_record(s, start, moves, human=0, level=1,
                                                        ai_seed=1, ply0=0)))
    return {"g": d / "g.json", "rec": d / "rec.json", "dir": d}


COMMANDS = {
    "hint": ["hint", "{g}", "-i", "{n}", "-w", "{w}"],
    "hint --level 1": ["hint", "{g}", "-i", "{n}", "--level", "1", "-w", "{w}"],
    "review": ["review", "{rec}", "-i", "{n}"],
    "arena": ["arena", "-p", "2", "--bot", "level1", "--bot", "greedy", "-n", "{games}",
              "-w", "{w}"],
}


def _verdict(family: str, case: str, p: subprocess.Popen, allowed: tuple[int, ...]) -> None:
    try:
        _, err = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        found("hang")
        pytest.fail(f"{family}: hang: {case}")
    text = err.decode("utf-8", "replace")
    if p.returncode < 0:
        found("signal")
    if "Traceback" in text or "Exception ignored" in text:
        found("traceback")
    assert p.returncode in allowed and "Traceback" not in text and \
        "Exception ignored" not in text, f"{family}: {case}: exit {p.returncode}\n{text[-2000:]}"
    if p.returncode == 2:
        assert text.startswith("Error: ") and len(text.splitlines()) == 1, text


@fuzz_settings(ci=6, shrink=False)
@given(command=st.sampled_from(sorted(COMMANDS)), delay=st.floats(0.25, 2.5),
       n=st.sampled_from([200, 5000, 100000, 10**7]), w=st.integers(1, 3),
       games=st.integers(1, 20), twice=st.sampled_from([None, 0.0, 0.05, 0.4]))
def test_ctrl_c_at_a_random_point(files, command, delay, n, w, games, twice):
    args = [a.format(g=files["g"], rec=files["rec"], n=n, w=w, games=games)
            for a in COMMANDS[command]]
    case = f"{' '.join(args)}; SIGINT after {delay:.2f} s" + \
        ("" if twice is None else f", again {twice} s later")
    tried(f"signals: {command}")
    p = subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=files["dir"],
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=ctrl_c_held_until_start)
    time.sleep(delay)
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
        if twice is not None:
            time.sleep(twice)
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
    _verdict("signals", case, p, (0, 130, 2))


ENVIRONMENTS = [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                {"PYTHONIOENCODING": "cp1252"}, {"PYTHONIOENCODING": "utf-8"},
                {"PYTHONIOENCODING": "ascii:strict"}, {"LC_ALL": "C", "PYTHONUTF8": "0"},
                {"LC_ALL": "C", "PYTHONUTF8": "1"}]
ENCODED = {
    "show": ["show", "{g}"], "show --json": ["show", "{g}", "--json"], "rules": ["rules"],
    "hint": ["hint", "{g}", "-i", "100"], "review": ["review", "{rec}", "-i", "50"],
    "new --names": ["new", "-p", "3", "--names", "{names}", "-o", "new.json", "--force"],
    "apply": ["apply", "{g}", "nonsense"], "arena": ["arena", "-p", "2", "--bot", "random",
                                                     "--bot", "greedy", "-n", "2"],
}
name = st.text(st.characters(codec="utf-8", categories=["L", "N", "S", "Zs"]), min_size=1,
               max_size=8).filter(lambda s: s.strip() and "," not in s)


@fuzz_settings(ci=8, shrink=False)
@given(command=st.sampled_from(sorted(ENCODED)), env=st.sampled_from(ENVIRONMENTS),
       names=st.lists(name, min_size=3, max_size=3))
def test_commands_under_random_output_encodings(files, command, env, names):
    args = [a.format(g=files["g"], rec=files["rec"], names=",".join(names))
            for a in ENCODED[command]]
    case = f"{' '.join(f'{k}={v}' for k, v in env.items())} ekonos {' '.join(args)}"
    tried(f"encodings: {command}")
    e = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE",
                                                          "PYTHONIOENCODING")}
    e.update(PYTHONPATH=str(ROOT), **env)
    p = subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=files["dir"], env=e,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _verdict("encodings", case, p, (0, 2))
