"""Any output encoding: the real commands under an ASCII or Latin-1 terminal (or the C locale)
print with ASCII stand-ins and escaped names, never a UnicodeEncodeError."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.output import STAND_INS
from ekonos import State, save_file

ROOT = Path(__file__).resolve().parents[2]
ENCODINGS = {"ascii": {"PYTHONIOENCODING": "ascii"}, "latin-1": {"PYTHONIOENCODING": "latin-1"},
             "C locale": {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}}
NAMES = "Ñandú,日本"


def _run(args, env, stdin=None, tmp=None):
    e = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE")}
    e.update(PYTHONPATH=str(ROOT), EKONOS_DATA_DIR=str(tmp / "data"), **env)
    if not e["PYTHONIOENCODING"]:
        del e["PYTHONIOENCODING"]
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=e, cwd=tmp, input=stdin,
                          capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def named(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("enc") / "named.json"
    save_file(State.new(2, seed=4, names=NAMES.split(",")), path)
    return path


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("args", [["show", "{f}"], ["rules"], ["hint", "{f}", "-i", "200"],
                                  ["show", "{f}", "--json"]])
def test_commands_print_in_any_encoding(tmp_path, named, encoding, args):
    r = _run([a.format(f=named) for a in args], ENCODINGS[encoding], tmp=tmp_path)
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr.decode()[-2000:]
    assert r.stdout.isascii() or encoding == "latin-1"
    if args[0] == "show" and "--json" not in args:
        want = "Ñandú".encode("latin-1") if encoding == "latin-1" else rb"\xd1and\xfa"
        assert want in r.stdout and rb"\u65e5\u672c" in r.stdout


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_new_with_names_the_terminal_cannot_show(tmp_path, encoding):
    r = _run(["new", "-p", "2", "--names", NAMES, "-o", "g.json"], ENCODINGS[encoding],
             tmp=tmp_path)
    assert b"Traceback" not in r.stderr
    if encoding == "C locale":     # the arguments themselves cannot be read as text there
        assert r.returncode == 2 and r.stderr.startswith(b"Error: ")
        assert not (tmp_path / "g.json").exists()
    else:
        assert r.returncode == 0, r.stderr
        assert State.from_json((tmp_path / "g.json").read_text("utf-8")).names == \
            NAMES.split(",")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_play_in_any_encoding(tmp_path, encoding):
    r = _run(["play", "--name", "Ñandú" if encoding != "C locale" else "Nandu", "--seed", "3",
              "--level", "1"], ENCODINGS[encoding], stdin=b"pass\nquit\ny\n", tmp=tmp_path)
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr.decode()[-2000:]


def test_every_stand_in_is_ascii():
    assert all(v.isascii() and not k.isascii() for k, v in STAND_INS.items())
