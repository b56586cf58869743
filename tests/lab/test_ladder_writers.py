"""The ladder file shared and on a bad disk: two real `ekonos ladder` runs at once keep both
runs' games (run numbers taken under the file's lock), a full disk keeps the games in memory
and says how many were not saved, a folder that cannot be written is refused before playing,
Ctrl-C before the first game writes nothing; and atomic writes on failure and through links."""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import search.lab.ladder_fit as ladder_fit
from ekonos.files import write_atomic
from search.lab.ladder_fit import Ladder

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--spec", "random", "--spec", "greedy", "-p", "2", "-n", "6"]


def ladder(args, **kw):
    from cli.main import main
    return CliRunner().invoke(main, ["ladder", *args], **kw)


def test_two_runs_at_once_keep_both_runs_games(tmp_path):
    path = tmp_path / "shared.json"
    cmd = [sys.executable, "-m", "cli.main", "ladder", "-f", str(path), *SMALL[:-1], "40",
           "--quiet", "--json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=240) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
    played = [json.loads(out)["played"] for out, _ in outs]
    lad = Ladder.load(path)
    assert played == [40, 40] and len(lad.games) == 80
    assert sorted(lad.runs) == [0, 1]
    assert {g["run"] for g in lad.games} == {0, 1}
    seeds = {g["run"]: g["seed"] for g in lad.games}
    assert seeds[0] != seeds[1]                     # new deals for the second run
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.json"]   # no lock, no tmp


def failing_writes(monkeypatch, fail_from: int, fail_to: int | None = None) -> list[int]:
    """Writes of the ladder file number fail_from..fail_to (1-based; None: to the end) fail
    with ENOSPC, as on a full disk."""
    count = [0]
    real = ladder_fit.write_atomic

    def write(path, text):
        count[0] += 1
        if count[0] >= fail_from and (fail_to is None or count[0] <= fail_to):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, text)
    monkeypatch.setattr(ladder_fit, "write_atomic", write)
    return count


def test_a_full_disk_keeps_the_games_and_names_the_file(tmp_path, monkeypatch):
    path = tmp_path / "lad.json"
    failing_writes(monkeypatch, 2)                 # the run's number is written, then full
    r = ladder(["-f", str(path), *SMALL, "--quiet"])
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        f"Error: cannot write {path}: No space left on device; the 6 games of this run are "
        "not saved"]
    assert "Elo" in r.stdout                       # the ratings of the games played are shown
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lad.json"]
    assert Ladder.load(path).games == []


def test_a_disk_that_fills_then_frees_loses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "lad.json"
    failing_writes(monkeypatch, 2, 2)
    r = ladder(["-f", str(path), *SMALL])
    assert r.exit_code == 0, r.output
    assert "Warning: cannot write" in r.stderr and "tried again" in r.stderr
    assert len(Ladder.load(path).games) == 6


def test_a_folder_that_cannot_be_written_is_refused_before_playing(tmp_path, monkeypatch):
    import cli.commands.ladder as command
    import ekonos.locks

    def read_only(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(tmp_path / ".lad.json.lock"))
    monkeypatch.setattr(ekonos.locks.FileLock, "acquire", read_only)
    monkeypatch.setattr(command, "run_ladder", lambda *a, **k: pytest.fail("played"))
    r = ladder(["-f", str(tmp_path / "lad.json"), *SMALL])
    assert r.exit_code == 2
    assert r.stderr == f"Error: cannot write {tmp_path / 'lad.json'}: Read-only file system\n"


@pytest.mark.parametrize("existed", [False, True])
def test_ctrl_c_before_the_first_game_writes_nothing(tmp_path, monkeypatch, existed):
    import cli.commands.ladder as command
    path = tmp_path / "lad.json"
    if existed:
        ladder(["-f", str(path), *SMALL, "--quiet"])
    before = path.read_bytes() if existed else None
    monkeypatch.setattr(command, "run_ladder",
                        lambda *a, **k: {"played": 0, "stopped": "interrupted"})
    r = ladder(["-f", str(path), *SMALL[:-1], "400"])
    assert r.exit_code == 130
    assert "stopped before the first game; nothing written" in r.stderr
    assert "no games to fit" not in r.stderr
    assert (path.read_bytes() if path.exists() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == (["lad.json"] if existed else [])


# ---------------------------------------------------------------------------------------------
# atomic writes

@pytest.mark.parametrize("where", ["os.fsync", "os.replace", "os.fchmod"])
def test_a_failed_atomic_write_leaves_no_temporary_file_and_names_the_file(tmp_path,
                                                                           monkeypatch, where):
    path = tmp_path / "x.json"
    path.write_text("old")
    module, name = where.split(".")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, name, full)
    with pytest.raises(OSError) as info:
        write_atomic(path, "new")
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_an_atomic_write_through_a_link_replaces_its_regular_target(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_an_atomic_write_never_replaces_a_device_even_through_a_link(tmp_path):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(OSError) as info:
        write_atomic(link, "x")
    assert "not a regular file" in str(info.value) and info.value.filename == str(link)
    assert stat.S_ISCHR(os.stat("/dev/zero").st_mode) and link.is_symlink()
    assert [p.name for p in tmp_path.iterdir()] == ["zero.json"]


def test_a_new_file_gets_the_umasks_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
