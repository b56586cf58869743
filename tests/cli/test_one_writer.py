"""One writer per autosave, and a full disk that never costs a game: two real `ekonos play`
processes in one data folder, `play` beside a live game (watch, start beside, quit), `serve`
on a busy port or beside a live game, and every save of `play` failing with ENOSPC."""
from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli import storage
from cli.commands.play import make_game
from ekonos import State

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PLAY = [sys.executable, "-m", "cli.main", "play", "--ai", "1", "--level", "1"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("EKONOS_DATA_DIR", str(d))
    return d


def console() -> Console:
    return Console(width=120, record=True, force_terminal=False, color_system=None)


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def start_first_game(data_dir: Path, seed: int = 5) -> subprocess.Popen:
    """A real `ekonos play` that has made its first decision and waits at its prompt."""
    proc = subprocess.Popen([*PLAY, "--seed", str(seed)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**ENV, "EKONOS_DATA_DIR": str(data_dir)}, cwd=data_dir.parent)
    proc.stdin.write("1\n")
    proc.stdin.flush()
    auto = data_dir / "autosave.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if auto.exists() and json.loads(auto.read_text())["play"]["moves"]:
            return proc
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the first game did not start: {proc.stderr.read()}")


def finish(proc: subprocess.Popen) -> tuple[str, str]:
    out, err = proc.communicate("1\n" * 3000, timeout=240)
    assert proc.returncode == 0, err
    return out, err


def complete(record: dict) -> bool:
    """The record replays from its start to its final position, and the game is over."""
    st = State.from_dict(record["play"]["start"])
    for t in record["play"]["moves"]:
        st.push_text(t)
    return record["step"] == "over" and st.to_dict() == State.from_dict(record).to_dict()


def test_a_second_play_without_a_terminal_touches_nothing_and_the_first_game_is_whole(
        data_dir):
    first = start_first_game(data_dir)
    try:
        before = files(data_dir)
        second = subprocess.run([*PLAY, "--seed", "6"], input="1\n" * 50, capture_output=True,
                                text=True, env={**ENV, "EKONOS_DATA_DIR": str(data_dir)},
                                timeout=120)
        assert second.returncode == 2
        lines = second.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: a game is in progress in ")
        assert f"process {first.pid}" in lines[0] and "ekonos play" in lines[0]
        assert "nothing was changed" in lines[0]
        after = files(data_dir)
        assert after == before or set(after) == set(before)   # the first game's own writes
        finish(first)
    finally:
        if first.poll() is None:
            first.kill()
    record = json.loads((data_dir / "autosave.json").read_text())
    assert complete(record) and record["seed"] == 5
    assert not list(data_dir.glob("unfinished-*.json"))
    assert len(list((data_dir / "games").glob("*.json"))) == 1


def test_a_second_play_in_a_terminal_starts_beside_the_live_game(data_dir):
    first = start_first_game(data_dir)
    try:
        asked = []

        def answer(prompt: str) -> str:
            asked.append(prompt)
            return "n" if len(asked) == 1 else ("" if "review" in prompt else "1")
        game = make_game(ai=1, level=1, seed=6, console=console(), input_fn=answer)
        assert game.session.autosave == data_dir / "autosave-2.json"
        assert game.run() == 0
        game.session.close()
        text = " ".join(game.console.export_text().split())     # the path's length moves wraps
        assert f"process {first.pid}" in text and "start a new game beside it" in text
        finish(first)
    finally:
        if first.poll() is None:
            first.kill()
    mine, theirs = (json.loads((data_dir / n).read_text())
                    for n in ("autosave-2.json", "autosave.json"))
    assert complete(mine) and mine["seed"] == 6
    assert complete(theirs) and theirs["seed"] == 5
    assert not list(data_dir.glob("unfinished-*.json"))


def hold(path: Path) -> subprocess.Popen:
    """Another process owning the autosave `path` (as a running game does)."""
    code = ("import sys, time; from cli import storage; "
            "storage.claim_autosave(sys.argv[1], 'ekonos play'); print('held', flush=True); "
            "time.sleep(120)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                            text=True, env=ENV)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_quit_and_watch_leave_the_live_game_alone(data_dir, monkeypatch):
    import cli.busy
    from cli.commands import play as play_command
    data_dir.mkdir()
    auto = data_dir / "autosave.json"
    st = State.new(2, seed=3)
    st.push(list(st.legal_moves)[0])
    auto.write_text(json.dumps(st.to_dict()))
    holder = hold(auto)
    try:
        before = files(data_dir)
        assert make_game(ai=1, console=console(), input_fn=lambda p: "q") is None
        naps = []

        def nap(_seconds):                 # two refreshes, then Ctrl-C
            naps.append(1)
            if len(naps) == 2:
                raise KeyboardInterrupt
        monkeypatch.setattr(play_command, "busy_watch",
                            lambda path, con: cli.busy.watch(path, con, 0.0, nap))
        c = console()
        assert make_game(ai=1, console=c, input_fn=lambda p: "w") is None
        text = c.export_text()
        assert "Watching" in text and "Stopped watching" in text and len(naps) == 2
        assert files(data_dir) == before
    finally:
        holder.kill()
        holder.wait()
    c = console()                          # its player gone: the watcher says how to resume
    cli.busy.watch(auto, c, 0.0, lambda s: None)
    assert "has left the game" in c.export_text()


def test_serve_on_a_busy_port_moves_no_autosave(data_dir):
    pytest.importorskip("uvicorn")
    data_dir.mkdir()
    auto = data_dir / "autosave.json"
    st = State.new(3, seed=4)
    st.push(list(st.legal_moves)[0])
    auto.write_text(json.dumps(st.to_dict()))
    before = files(data_dir)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                            "--no-browser", "--ai", "2"], capture_output=True, text=True,
                           env={**ENV, "EKONOS_DATA_DIR": str(data_dir)}, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("Error: cannot listen"), r.stderr
    assert files(data_dir) == before


def test_serve_beside_a_live_game_without_a_terminal_is_refused(data_dir):
    pytest.importorskip("uvicorn")
    data_dir.mkdir()
    auto = data_dir / "autosave.json"
    holder = hold(auto)
    try:
        r = subprocess.run([sys.executable, "-m", "cli.main", "serve", "--port", "0",
                            "--no-browser"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL,
                           env={**ENV, "EKONOS_DATA_DIR": str(data_dir)}, timeout=60)
    finally:
        holder.kill()
        holder.wait()
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "a game is in progress" in r.stderr and "ekonos play" in r.stderr
    assert not auto.exists()


def test_serve_in_a_terminal_starts_beside_a_live_game(data_dir, monkeypatch):
    from cli.commands import serve
    data_dir.mkdir()
    holder = hold(data_dir / "autosave.json")
    try:
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
        monkeypatch.setattr("builtins.input", lambda prompt="": "n")
        session = serve._session(None, 1, None, None, None)
        assert session.autosave == data_dir / "autosave-2.json"
        session.close()
        monkeypatch.setattr("builtins.input", lambda prompt="": "q")
        with pytest.raises(SystemExit) as info:
            serve._session(None, 1, None, None, None)
        assert info.value.code == 0
    finally:
        holder.kill()
        holder.wait()


# ---------------------------------------------------------------------------------------------
# a full disk

def full_disk(monkeypatch, folder: Path) -> list[Path]:
    """Every atomic write into `folder` fails with ENOSPC; returns the paths tried."""
    tried = []
    real = storage.write_atomic

    def write(path, text):
        tried.append(Path(path))
        if Path(path).parent == folder or folder in Path(path).parents:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, text)
    monkeypatch.setattr(storage, "write_atomic", write)
    return tried


def test_a_full_disk_never_costs_a_game(data_dir, tmp_path, monkeypatch):
    """Every autosave and the record fail: the player is told once, and at the end asked for
    another file until a save works (a folder that does not exist first)."""
    full_disk(monkeypatch, data_dir)
    wanted = [str(tmp_path / "no" / "such" / "folder.json"), str(tmp_path / "kept.json")]

    def answer(prompt: str) -> str:
        if "Save it to" in prompt:
            return wanted.pop(0)
        return "" if "review" in prompt else "1"
    game = make_game(ai=1, level=1, seed=9, console=console(), input_fn=answer)
    assert game.run() == 0
    game.session.close()
    text = " ".join(game.console.export_text().split())
    assert text.count("Could not autosave") == 1 and "No space left on device" in text
    assert "The game is not saved anywhere yet" in text and "could not save to" in text
    assert not wanted
    kept = json.loads((tmp_path / "kept.json").read_text())
    assert complete(kept) and kept == game.session.record()


def test_a_full_disk_and_a_player_who_declines(data_dir, monkeypatch):
    full_disk(monkeypatch, data_dir)
    game = make_game(ai=1, level=1, seed=9, console=console(),
                     input_fn=lambda p: "" if ("Save it to" in p or "review" in p) else "1")
    assert game.run() == 0
    assert "Game not saved." in game.console.export_text()


def test_a_data_folder_that_is_a_device_says_so(monkeypatch):
    monkeypatch.setenv("EKONOS_DATA_DIR", "/dev/null")
    from cli.main import main
    r = CliRunner().invoke(main, ["play", "--ai", "1", "--level", "1", "--seed", "2"],
                           input="1\nquit\n\n")
    assert r.exit_code == 0
    assert "EKONOS_DATA_DIR=/dev/null is not a folder" in r.output.replace("\n", " ")
