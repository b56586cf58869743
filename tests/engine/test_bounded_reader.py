"""Every file the program reads is a regular file of bounded size: a FIFO with no writer, a
device, a socket or a directory is refused at once (nothing blocks), a file over its cap is
refused without reading it all, and the message is one sentence naming the file."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ekonos.files import FileError, read_bounded, read_json_file

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def test_a_fifo_with_no_writer_is_refused_at_once(fifo):
    start = time.monotonic()
    with pytest.raises(FileError, match=r"pipe\.json: a FIFO \(named pipe\), not a ladder file"):
        read_bounded(fifo, 100, "ladder file")
    assert time.monotonic() - start < 1


@pytest.mark.parametrize("path,kind", [("/dev/zero", "a device"), ("/dev/null", "a device"),
                                       ("/", "a directory")])
def test_devices_and_directories_are_refused(path, kind):
    with pytest.raises(FileError, match=f"{path}: {kind}, not a suite file"):
        read_bounded(path, 100, "suite file")


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(FileError, match="a socket"):
            read_bounded(path, 100, "model file")


def test_the_cap_is_exact_and_text_is_utf8(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"\xef\xbb\xbf" + b"x" * 97)
    assert read_bounded(path, 100, "record") == b"\xef\xbb\xbf" + b"x" * 97
    assert read_bounded(path, 100, "record", text=True) == "x" * 97     # the BOM dropped
    with pytest.raises(FileError, match="larger than 99 bytes, too large for a record"):
        read_bounded(path, 99, "record")
    path.write_bytes(b"\xff")
    with pytest.raises(FileError, match="not UTF-8 text"):
        read_bounded(path, 99, "record", text=True)


@pytest.mark.parametrize("name,message", [("missing.json", "no such file"),
                                          ("bad\0name", "not a usable file name")])
def test_missing_and_unusable_names(tmp_path, name, message):
    with pytest.raises(FileError, match=message):
        read_bounded(str(tmp_path / name), 10, "position file")


@pytest.mark.parametrize("text,message", [("[" * 100_000, "nested too deeply"),
                                          ("1" * 5000, "a number is too long"),
                                          ("{", "not valid JSON")])
def test_json_that_python_refuses_is_a_file_error(tmp_path, text, message):
    path = tmp_path / "f.json"
    path.write_text(text)
    with pytest.raises(FileError, match=message):
        read_json_file(path, 1 << 20, "ladder file")


COMMANDS = [
    ["show", "{f}"], ["hint", "{f}"], ["apply", "{f}", "b1"], ["review", "{f}"],
    ["play", "--load", "{f}"], ["ladder", "-f", "{f}", "-n", "0"],
    ["suite", "run", "-f", "{f}", "--bot", "random"],
    ["suite", "build", "-o", "{f}", "--resume"],
    ["lab", "pool-sprt", "{f}"], ["lab", "suite-pairs", "{f}", "--pair", "a", "b"],
    ["learn", "fit", "{f}", "-o", "{d}"],
    ["learn", "check", "{f}", "{f}"],
    ["arena", "--bot", "random", "--bot", "ismcts:iterations=10,horizon=1,model={f}", "-n", "2"],
]


def _one_error_line(code: int, stderr: str) -> str:
    lines = stderr.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), stderr
    return lines[0]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_every_command_refuses_a_fifo_at_once(tmp_path, fifo, args):
    """In a child process, so a regression that blocks fails on the time-out, not hangs."""
    argv = [a.format(f=fifo, d=tmp_path / "out") for a in args]
    env = {**os.environ, "PYTHONPATH": str(REPO), "EKONOS_DATA_DIR": str(tmp_path / "data")}
    r = subprocess.run([sys.executable, "-m", "cli.main", *argv], capture_output=True,
                       text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    line = _one_error_line(r.returncode, r.stderr)
    assert str(fifo) in line and "FIFO" in line


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
@pytest.mark.parametrize("special", ["/dev/zero", "dir"])
def test_every_command_refuses_devices_and_directories(tmp_path, monkeypatch, args, special):
    from click.testing import CliRunner

    from cli.main import main
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path / "data"))
    target = "/dev/zero" if special == "/dev/zero" else str(tmp_path)
    r = CliRunner().invoke(main, [a.format(f=target, d=tmp_path / "out") for a in args])
    line = _one_error_line(r.exit_code, r.stderr)
    assert target in line and ("device" if special == "/dev/zero" else "directory") in line
