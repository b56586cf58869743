"""Two families of input files beyond positions:

* **FIFOs and special files**: every command that reads a file, given a FIFO with no writer,
  a device, a directory, a socket, a symlink to one of them or a dangling symlink, refuses at
  once with one `Error:` line (an alarm turns a blocked command into a counted hang);
* **ladder and suite file mutations**: small real ladder and suite files (from benchmarks/)
  with fields dropped, wrong types, huge numbers, deep nesting, lone surrogates and damaged
  bytes; `ladder -f F -n 0`, `suite run -f F` and `suite build -o F --resume` exit 0 or 2 with
  one `Error:` line, and a refused file is left as it was.
"""
from __future__ import annotations

import copy
import json
import os
import signal
import socket
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import assert_unchanged, found, fuzz_settings, run_cli, snapshot

REPO = Path(__file__).resolve().parents[2]
ALARM = 30          # seconds: a command that takes longer has blocked (a hang)


@contextmanager
def no_hang(entry: str):
    def ring(signum, frame):
        found("hang")
        raise AssertionError(f"{entry}: blocked for {ALARM} s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(ALARM)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------------------------
# FIFOs and special files

READERS = {
    "show": ["show", "{f}"], "show --json": ["show", "--json", "{f}"],
    "hint": ["hint", "-i", "10", "{f}"], "apply": ["apply", "{f}", "b1"],
    "review": ["review", "{f}"], "play --load": ["play", "--load", "{f}"],
    "ladder -f": ["ladder", "-f", "{f}", "-n", "0"],
    "suite run -f": ["suite", "run", "-f", "{f}", "--bot", "random", "-q"],
    "suite build --resume": ["suite", "build", "-o", "{f}", "--resume", "-q"],
    "suite build --positions-from": ["suite", "build", "-o", "{d}/s.json", "--positions-from",
                                     "{f}", "-q"],
    "lab pool-sprt": ["lab", "pool-sprt", "{f}"],
    "lab suite-pairs": ["lab", "suite-pairs", "{f}", "--pair", "a", "b"],
    "learn fit": ["learn", "fit", "{f}", "-o", "{d}/m"],
    "learn check (model)": ["learn", "check", "{f}", "{f}"],
    "learn train (folder)": ["learn", "train", "{f}", "-o", "{d}", "-q"],
    "learn train-policy (folder)": ["learn", "train-policy", "{f}", "-o", "{d}", "-q"],
    "learn calibrate (network)": ["learn", "calibrate", "{f}", "{d}"],
    "learn calibration-map (folder)": ["learn", "calibration-map", "{f}", "-o", "{d}"],
    "learn calibration-map --check": ["learn", "calibration-map", "{d}", "--check", "{f}"],
    "arena model=": ["arena", "--bot", "random", "--bot",
                     "ismcts:iterations=10,horizon=1,model={f}", "-n", "2"],
    "arena pnet=": ["arena", "--bot", "random", "--bot", "ismcts:iterations=10,pnet={f}",
                    "-n", "2"],
}


def _special(kind: str, folder: Path) -> str:
    """A path of the given kind in `folder` (made fresh)."""
    if kind == "fifo":
        path = folder / "pipe"
        os.mkfifo(path)
    elif kind == "socket":
        path = folder / "sock"
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()                       # the socket file stays, no one listens
    elif kind == "directory":
        path = folder / "dir"
        path.mkdir()
    elif kind == "symlink to a fifo":
        os.mkfifo(folder / "pipe2")
        path = folder / "link"
        path.symlink_to(folder / "pipe2")
    elif kind == "dangling symlink":
        path = folder / "dangling"
        path.symlink_to(folder / "nowhere")
    else:                                  # a device
        return kind
    return str(path)


SPECIALS = ["fifo", "socket", "directory", "symlink to a fifo", "dangling symlink",
            "/dev/zero", "/dev/null", "/dev/urandom"]


@pytest.mark.parametrize("kind", SPECIALS)
@pytest.mark.parametrize("command", sorted(READERS))
def test_special_files_are_refused_at_once(command, kind):
    """Every pair, in every profile (a hundred quick runs)."""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        target = _special(kind, folder)
        args = [a.format(f=target, d=tmp) for a in READERS[command]]
        entry = f"special file: {command}"
        with no_hang(entry):
            r = run_cli(args, entry, env={"EKONOS_DATA_DIR": str(folder / "data")})
        assert r.exit_code == 2, (args, r.output)


# ---------------------------------------------------------------------------------------------
# Ladder and suite file mutations

def _small_ladder() -> dict:
    data = json.loads((REPO / "benchmarks/results/ladder.json").read_text(encoding="utf-8"))
    return {**data, "games": data["games"][:3]}


def _small_suite() -> dict:
    data = json.loads((REPO / "benchmarks/suites/suite.json").read_text(encoding="utf-8"))
    data["positions"] = data["positions"][:2]
    data["build"]["iterations"] = 10             # a resumed search stays quick
    data["complete"] = 2
    return data


LADDER, SUITE = _small_ladder(), _small_suite()

ODD = [None, True, False, 0, -1, 1.5, -0.0, "x", "", [], {}, [1, 2], {"a": 1}, 10**400,
       -(10**400), 2**63, 2**64, float("inf"), float("-inf"), float("nan"), 1e308, "\udcff",
       "\x00", "é" * 300, [[[[[]]]]]]


def _paths(doc, prefix=()):
    """Every (path, value) in a JSON document, objects and lists included."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


@st.composite
def mutated(draw, base: dict) -> bytes:
    """`base` with one to three changes, as file bytes."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p, _ in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["drop", "odd", "odd", "wrap", "duplicate"]))
        if op == "drop":
            del parent[path[-1]]
        elif op == "odd":
            parent[path[-1]] = draw(st.sampled_from(ODD))
        elif op == "wrap":
            parent[path[-1]] = [parent[path[-1]]]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    text = json.dumps(doc, allow_nan=True)
    raw = draw(st.sampled_from(["none", "none", "bytes", "cut", "nest", "digits"]))
    data = text.encode()
    if raw == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"])) \
            + data[at:]
    elif raw == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif raw == "nest":
        depth = draw(st.sampled_from([1000, 100_000]))
        data = data.replace(b'"games": [', b'"games": ' + b"[" * depth, 1) \
            .replace(b'"positions": [', b'"positions": ' + b"[" * depth, 1)
    elif raw == "digits":
        data = data.replace(b'"version": 1', b'"version": 1' + b"0" * 5000, 1)
    return data


LADDER_RUNS = {"ladder -f": ["ladder", "-f", "{f}", "-n", "0"],
               "ladder -f --json": ["ladder", "-f", "{f}", "-n", "0", "--json"]}
SUITE_RUNS = {"suite run -f": ["suite", "run", "-f", "{f}", "--bot", "random", "-q"],
              "suite build --resume": ["suite", "build", "-o", "{f}", "--resume", "-q"]}


def _run_on(data: bytes, runs: dict, command: str, family: str) -> None:
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        path = folder / "file.json"
        path.write_bytes(data)
        before = snapshot(folder)
        entry = f"{family}: {command}"
        with no_hang(entry):
            r = run_cli([a.format(f=path) for a in runs[command]], entry,
                        env={"EKONOS_DATA_DIR": str(folder / "data")})
        if r.exit_code == 2:
            assert_unchanged(entry, before, snapshot(folder), ["file.json"])


@fuzz_settings(ci=40, shrink=False)
@given(data=mutated(LADDER), command=st.sampled_from(sorted(LADDER_RUNS)))
def test_mutated_ladder_files(data, command):
    _run_on(data, LADDER_RUNS, command, "ladder file mutation")


@fuzz_settings(ci=30, shrink=False)
@given(data=mutated(SUITE), command=st.sampled_from(sorted(SUITE_RUNS)))
def test_mutated_suite_files(data, command):
    _run_on(data, SUITE_RUNS, command, "suite file mutation")
