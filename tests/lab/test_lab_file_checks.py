"""Malformed ladder and suite files, and odd `--limit` values: one `Error:` line naming the file
and the field, exit status 2, never a traceback, and the file left as it was (checked before
anything is played)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

REPO = Path(__file__).resolve().parents[2]
LADDER = REPO / "benchmarks" / "results" / "ladder.json"
SUITE = REPO / "benchmarks" / "suites" / "suite.json"
DIGITS = "9" * 5000


def verdict(args: list[str]) -> str:
    """Run ekonos; it must refuse with exactly one `Error:` line and exit 2.  Its line."""
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert "Traceback" not in r.output
    return lines[0]


def small_ladder() -> dict:
    data = json.loads(LADDER.read_text(encoding="utf-8"))
    return {**data, "games": data["games"][:3]}


def seat(data: dict) -> dict:
    return data["games"][1]["seats"][0]


def _without(key):
    return lambda s: s.pop(key)


def _set(key, value):
    return lambda s: s.__setitem__(key, value)


LADDER_SEATS = [
    ("no think_median", _without("think_median"), "think_median"),
    ("decisions many", _set("decisions", "many"), "decisions"),
    ("think null", _set("think", None), "think"),
    ("think_median list", _set("think_median", [1, 2]), "think_median"),
    ("negative decisions", _set("decisions", -107), "decisions"),
    ("score huge", _set("score", 10**400), "score"),
    ("score Infinity", _set("score", float("inf")), "score"),
    ("spec a number", _set("spec", 3), "game 1"),
]


@pytest.mark.parametrize("change", [c[1] for c in LADDER_SEATS],
                         ids=[c[0] for c in LADDER_SEATS])
def test_a_malformed_ladder_seat_is_one_error_line(tmp_path, change):
    field = dict((id(c[1]), c[2]) for c in LADDER_SEATS)[id(change)]
    data = small_ladder()
    change(seat(data))
    path = tmp_path / "lad.json"
    path.write_text(json.dumps(data))          # Infinity is written as JSON allows it
    line = verdict(["ladder", "-f", str(path), "-n", "0"])
    assert str(path) in line and field in line


RAW_LADDERS = [
    ("not UTF-8", b'{"format": "ekonos-ladder", "version": 1, "games": [\xff\xfe]}',
     "not UTF-8"),
    ("200k-deep nesting", b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    ("5,000-digit integer", b'{"format": "ekonos-ladder", "version": ' + DIGITS.encode() + b"}",
     "too long"),
    ("5,000-digit score", json.dumps(small_ladder()).replace('"score": 83', '"score": '
                                                              + DIGITS).encode(), "too long"),
]


@pytest.mark.parametrize("raw,message", [c[1:] for c in RAW_LADDERS],
                         ids=[c[0] for c in RAW_LADDERS])
def test_a_damaged_ladder_file_is_one_error_line(tmp_path, raw, message):
    path = tmp_path / "lad.json"
    path.write_bytes(raw)
    line = verdict(["ladder", "-f", str(path), "-n", "0"])
    assert str(path) in line and message in line


def test_a_lone_surrogate_is_refused_before_any_game_is_played(tmp_path):
    data = small_ladder()
    seat(data)["resolved"] = "\udcff"
    path = tmp_path / "lad.json"
    path.write_text(json.dumps(data), encoding="ascii")     # written as the escape \udcff
    before = path.read_bytes()
    line = verdict(["ladder", "-f", str(path), "--spec", "random", "--spec", "greedy",
                    "-p", "2", "-n", "2", "-q"])
    assert "resolved" in line and "surrogate" in line
    assert path.read_bytes() == before and not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("limit", [f"random={DIGITS}", f"{DIGITS}p:random=1", "random=1e9",
                                   "random=-1", "random=\u0661", "random=1000000000"])
def test_an_odd_limit_is_one_error_line(tmp_path, limit):
    line = verdict(["ladder", "-f", str(tmp_path / "lad.json"), "--spec", "random",
                    "--spec", "greedy", "-n", "2", "--limit", limit])
    assert "limit" in line


def small_suite(tmp_path: Path, change) -> Path:
    data = json.loads(SUITE.read_text(encoding="utf-8"))
    data["positions"] = data["positions"][:3]
    change(data["positions"])
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data))
    return path


def _win(value):
    return lambda ps: ps[1]["reference"]["moves"][0].__setitem__("win", value)


def _partial(partial):
    def change(ps):
        ps[2]["reference"], ps[2]["partial"] = None, partial
    return change


SUITES = [
    ("win 10**400", _win(10**400), "positions[1].reference.moves[0].win"),
    ("win Infinity", _win(float("inf")), "positions[1].reference.moves[0].win"),
    ("win NaN", _win(float("nan")), "win"),
    ("win text", _win("1"), "win"),
    ("visits negative", lambda ps: ps[0]["reference"]["moves"][0].__setitem__("visits", -1),
     "visits"),
    ("floor missing", lambda ps: ps[0]["reference"].pop("floor"), "floor"),
    # found by `make fuzz`: a KeyError traceback once the file had loaded
    ("reference missing", lambda ps: ps[2].pop("reference"), 'positions[2]: no "reference"'),
    ("partial missing", lambda ps: ps[0].pop("partial"), 'positions[0]: no "partial"'),
]

PARTIALS = [
    ("partial not a list", _partial({"seed": 0}), "partial"),
    ("partial entry a number", _partial([1]), "partial[0]"),
    ("partial without moves", _partial([{"seed": 0}]), "partial[0]"),
    ("partial moves a list", _partial([{"seed": 0, "moves": [["b1", 3, 1.5]]}]), "partial[0]"),
    ("partial visits text", _partial([{"seed": 0, "moves": {"b1": ["3", 1.5]}}]), "visits"),
    ("partial win sum huge", _partial([{"seed": 0, "moves": {"b1": [3, 10**400]}}]), "win sum"),
    ("partial wrong seed", _partial([{"seed": 5, "moves": {"b1": [3, 1.5]}}]), "seed"),
    ("partial too many", _partial([{"seed": k, "moves": {"b1": [3, 1.5]}} for k in range(9)]),
     "at most"),
]


@pytest.mark.parametrize("change,field", [c[1:] for c in SUITES], ids=[c[0] for c in SUITES])
def test_a_malformed_suite_reference_is_one_error_line(tmp_path, change, field):
    path = small_suite(tmp_path, change)
    line = verdict(["suite", "run", "-f", str(path), "--bot", "random", "-q"])
    assert str(path) in line and field in line


@pytest.mark.parametrize("change,field", [c[1:] for c in PARTIALS], ids=[c[0] for c in PARTIALS])
def test_resuming_a_suite_with_a_malformed_partial_entry_is_one_error_line(tmp_path, change,
                                                                           field):
    path = small_suite(tmp_path, change)
    before = path.read_bytes()
    line = verdict(["suite", "build", "-o", str(path), "--resume", "-q"])
    assert str(path) in line and field in line
    assert path.read_bytes() == before


def test_the_repository_files_pass_their_checks():
    from search.lab.ladder_fit import Ladder
    from search.lab.suite import load_suite
    assert len(Ladder.load(LADDER).games) == 640
    assert len(load_suite(SUITE).positions) == 240
