"""The risky families, in a child process (fuzz_runner.py) so that a segfault, an abort or a
hang fails the test instead of killing pytest: State methods with huge or negative seats,
spaces, companies, cards and actions; bot specs that reach the C search; `hint` with more
workers than iterations or NaN/infinite time; `arena` with searching bots; huge files
(/dev/zero, /dev/urandom, a sparse 3 GB file) under a memory limit; 100,000-character names.

Many cases run per child (one hypothesis example = one batch); the child reports each case, so
a failure names the one case that crashed, hung or raised what it must not.  No shrinking here
(a hanging case would time out at every step).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fuzz_docs import dumps
from fuzz_inputs import BAD_SECONDS, runnable_specs
from fuzz_positions import fresh, pool
from fuzz_runner import describe, run_batch
from fuzz_support import assert_unchanged, check_verdict, found, fuzz_settings, snapshot, tried

GIB = 2**30
TIMEOUT = 120          # a whole batch; generous: the machine may be busy (this is no timing)


class Batch(list):
    """A list of cases that prints short: a failure names its case itself."""

    def __repr__(self) -> str:
        return f"<batch of {len(self)} cases>"

    def _repr_pretty_(self, printer, cycle) -> None:     # hypothesis' pretty printer
        printer.text(repr(self))


def batches(case: st.SearchStrategy, size: int) -> st.SearchStrategy[Batch]:
    return st.lists(case, min_size=size, max_size=size).map(Batch)

# ---------------------------------------------------------------------------------------------
# State methods with odd arguments

SEAT = ["coins", "tokens", "score", "hand_known", "hand", "hand_size", "view", "_hide",
        "set_start_player"]
COMPANY = ["tiles", "protected_tiles", "value", "growth", "president", "column", "decider"]
SPACE = ["owner", "is_protected"]
ACTION = ["apply_unchecked", "is_legal", "why_code", "why_illegal", "push", "push_unchecked",
          "nth_legal", "move_text", "card_actions"]
SEED = ["reseed_chance", "random_playout"]
HUGE = [-1, -2, 6, 7, 36, 37, 2758, 2759, 2**31 - 1, 2**31, -2**31, 2**32, 2**63 - 1, 2**63,
        -2**63, 2**64, -2**64, 10**9, -10**9, 10**30, -10**30]
WRONG = [1.0, -0.5, "1", None, True, [1], {"1": 1}, float("nan")]

odd_index = st.one_of(st.sampled_from(HUGE), st.integers(-10, 45))


@st.composite
def api_cases(draw) -> dict:
    """One State method call with odd arguments, on a pool position or a new game."""
    method = draw(st.sampled_from(SEAT + COMPANY + SPACE + ACTION + SEED + ["shares",
                                                                           "determinize",
                                                                           "set_hand"]))
    wrong = draw(st.integers(0, 5)) == 0
    arg = (lambda: draw(st.sampled_from(WRONG))) if wrong else (lambda: draw(odd_index))
    if method in ("shares", "determinize"):
        args = [arg(), arg()]
    elif method == "set_hand":
        args = [arg(), draw(st.one_of(st.none(), st.lists(odd_index, max_size=8)))]
    else:
        args = [arg()]
    case = {"kind": "api", "method": method, "args": args, "wrong_type": wrong}
    if draw(st.booleans()):
        case["pool"] = draw(st.integers(0, len(pool()) - 1))
    else:
        case["players"], case["seed"] = draw(st.integers(2, 6)), draw(st.integers(0, 99))
    return case


class Failures:
    """The distinct failures of one batch (by what failed and how), reported together so that
    one defect does not hide another."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def add(self, kind: str, key: str, message: str) -> None:
        found(kind)
        self.seen.setdefault(key, message)

    def check(self) -> None:
        if self.seen:
            raise AssertionError(f"{len(self.seen)} distinct failure(s):\n  "
                                 + "\n  ".join(self.seen.values()))


def _check_api(cases: list[dict], results: list[dict], failures: Failures) -> None:
    for case, r in zip(cases, results):
        tried("api State methods (subprocess)")
        if not r["allowed"] or r["thread_errors"]:
            allowed = "EkonosError/ValueError/IndexError" + ("/TypeError" if case["wrong_type"]
                                                             else "")
            failures.add("traceback", f"{case['method']} {r['error']}",
                         f"{describe(case)} raised {r['error']}: {r.get('message')} "
                         f"(allowed: {allowed})")


@fuzz_settings(ci=3, shrink=False)
@given(cases=batches(api_cases(), 60))
@example(cases=Batch([{"kind": "api", "players": 3, "seed": 5, "method": m, "args": a,
                 "wrong_type": False}
                for m, a in [("score", [10**9]), ("score", [-10**9]), ("tokens", [10**9]),
                             ("column", [10**9]), ("determinize", [10**9, 1]),
                             ("hand_known", [10**9]), ("apply_unchecked", [-10**9])]]))
def test_state_methods_out_of_range(cases):
    """Every State method not named `..._unchecked` checks its arguments (IndexError or
    ValueError); none reads or writes outside the state."""
    results = run_batch(cases, TIMEOUT, memory=2 * GIB)
    failures = Failures()
    for case, r in zip(cases, results):
        if case["method"] == "hand_known" and r["error"] is None and not _seat_ok(case):
            failures.add("wrong result", "hand_known", f"{describe(case)} answered {r['value']}")
    _check_api(cases, results, failures)
    failures.check()


def _seat_ok(case: dict) -> bool:
    n = len(pool()[case["pool"]]["players"]) if "pool" in case else case["players"]
    seat = case["args"][0]
    return isinstance(seat, int) and 0 <= seat < n


# ---------------------------------------------------------------------------------------------
# Bot specs that reach the C search

def _searchable() -> list[int]:
    """Pool indices of positions where the seat to move can decide (not over, hand known)."""
    out = []
    for i, d in enumerate(pool()):
        if d["step"] == "over":
            continue
        if d["step"] == "card" and d["players"][d["to_move"]]["hand"] is None:
            continue
        out.append(i)
    return out


@st.composite
def bot_cases(draw) -> dict:
    return {"kind": "bot", "spec": draw(runnable_specs()), "seed": draw(st.integers(0, 99)),
            "choose": True, "pool": draw(st.sampled_from(_searchable()))}


@fuzz_settings(ci=3, shrink=False)
@given(cases=batches(bot_cases(), 30))
@example(cases=Batch([{"kind": "bot", "spec": s, "seed": 0, "choose": True,
                 "pool": _searchable()[0]}
                for s in ["ismcts:c=nan,iterations=100", "ismcts:iterations=3,workers=4",
                          "ismcts:iterations=1,workers=2", "ismcts:iterations=5,workers=6",
                          "ismcts:iterations=99999999999999999999", "ismcts:time=nan",
                          "ismcts:time=inf", "flat:iterations=0", "flat:iterations=-3"]]))
def test_bot_specs_reaching_the_search(cases):
    """make_bot(spec) refuses the spec (SpecError/ValueError), or the bot it makes answers a
    legal decision: no signal, no thread traceback, no hang."""
    results = run_batch(cases, TIMEOUT, memory=2 * GIB)
    failures = Failures()
    for case, r in zip(cases, results):
        tried("api make_bot + choose (subprocess)")
        where = describe(case)
        if r["thread_errors"]:
            failures.add("traceback", f"thread {r['thread_errors'][0][:40]}",
                         f"{where}: a search thread raised {r['thread_errors'][0]}")
        elif r["error"] is None:
            if not r.get("legal"):
                failures.add("wrong result", "illegal",
                             f"{where}: chose {r.get('action')}, not a legal action")
        elif not r["allowed"]:
            failures.add("traceback", f"raised {r['error']}",
                         f"{where}: {r['error']}: {r.get('message')}")
        elif r.get("made"):
            failures.add("wrong result", f"accepted then {r['error']}",
                         f"{where}: make_bot accepted the spec, then choose raised "
                         f"{r['error']}: {r.get('message')}")
    failures.check()


# ---------------------------------------------------------------------------------------------
# hint and arena with searching budgets

def _write_positions(folder: Path, docs: list[dict]) -> list[Path]:
    paths = []
    for i, doc in enumerate(docs):
        p = folder / f"p{i}.json"
        p.write_text(dumps(doc), encoding="utf-8")
        paths.append(p)
    return paths


def _check_cli_results(cases: list[dict], results: list[dict], entry: str) -> None:
    failures = Failures()
    for case, r in zip(cases, results):
        tried(entry)
        if r["thread_errors"]:
            failures.add("traceback", f"thread {r['thread_errors'][0][:40]}",
                         f"{describe(case)}: a thread raised {r['thread_errors'][0]}")
        elif r["error"] is not None:
            failures.add("traceback", f"runner {r['error']}",
                         f"{describe(case)}: the runner failed: {r['error']} {r['message']}")
        else:
            try:
                check_verdict(entry, case["args"], r["code"], r["stdout"], r["stderr"],
                              r.get("traceback"))
            except AssertionError as e:
                last = str(e).strip().splitlines()[-1]
                failures.seen.setdefault(f"{case['args'][0]} {r['code']} {last[:60]}", str(e))
    failures.check()


@st.composite
def hint_args(draw) -> list[str]:
    budget = draw(st.sampled_from(["iterations", "iterations", "time", "huge"]))
    if budget == "iterations":
        args = ["-i", str(draw(st.integers(1, 8)))]
    elif budget == "time":
        args = ["-t", draw(st.sampled_from(BAD_SECONDS))]
    else:
        args = ["-i", draw(st.sampled_from(["99999999999999999999", str(2**63), str(2**64)]))]
    args += ["-w", str(draw(st.integers(1, 8)))]
    return args + draw(st.sampled_from([[], ["--json"], ["-k", "1"]]))


@fuzz_settings(ci=2, shrink=False)
@given(args=batches(hint_args(), 16), docs=batches(st.sampled_from(_searchable()), 16))
@example(args=Batch([["-i", "1", "-w", "4"], ["-i", "5", "-w", "6"], ["-i", "1", "-w", "2"],
               ["-t", "nan"], ["-t", "inf"], ["-i", "99999999999999999999"]] * 2),
         docs=Batch([_searchable()[0]] * 12))
def test_hint_workers_and_budgets(args, docs):
    """`hint FILE -i N -w W` with more workers than iterations, `-t nan|inf|...`, `-i` beyond
    any C integer: exit 0 with advice, or exit 2 with one `Error:` line."""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        paths = _write_positions(folder, [pool()[i] for i in docs])
        before = snapshot(folder)
        cases = [{"kind": "cli", "args": ["hint", str(p), *a]} for p, a in zip(paths, args)]
        results = run_batch(cases, TIMEOUT, memory=2 * GIB)
        after = snapshot(folder)
    _check_cli_results(cases, results, "cli hint (subprocess)")
    assert_unchanged("hint", before, after, list(before))


@fuzz_settings(ci=1, shrink=False)
@given(specs=batches(st.lists(runnable_specs(), min_size=1, max_size=3), 6),
       players=batches(st.sampled_from(["2", "3"]), 6))
@example(specs=Batch([["ismcts:iterations=3,workers=4", "random"], ["ismcts:c=nan,iterations=20"],
                ["ismcts:time=nan", "random"], ["flat:iterations=0", "greedy"]]),
         players=Batch(["2", "2", "2", "2"]))
def test_arena_with_searching_bots(specs, players):
    """`arena -p 2|3 -n 1 --bot SPEC...` with specs that reach the C search."""
    cases = []
    for spec_list, p in zip(specs, players):
        args = ["arena", "-p", p, "-n", "1", "--json"]
        for s in spec_list[:int(p)]:
            args += ["--bot", s]
        cases.append({"kind": "cli", "args": args})
    results = run_batch(cases, TIMEOUT, memory=2 * GIB)
    _check_cli_results(cases, results, "cli arena (subprocess)")


# ---------------------------------------------------------------------------------------------
# Huge files and huge names

def _huge_inputs(folder: Path) -> list[str]:
    sparse = folder / "sparse.json"
    with open(sparse, "wb") as fh:          # 3 GB of zero bytes, never written: a sparse file
        fh.truncate(3 * GIB)
    spaces = folder / "spaces.json"
    with open(spaces, "wb") as fh:          # 20 MB of spaces, then a position
        fh.write(b" " * (20 * 2**20))
        fh.write(dumps(pool()[0]).encode())
    return ["/dev/zero", "/dev/urandom", str(sparse), str(spaces)]


def test_huge_files():
    """show, show --json, hint, apply, play --load and the API on /dev/zero, /dev/urandom, a
    sparse 3 GB file and a 20 MB file, with 1 GB of memory: a refusal, never a MemoryError
    The file size must be capped before it is read."""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        files = _huge_inputs(folder)
        data = folder / "data"
        cases = []
        for f in files:
            for args in (["show", f], ["show", "--json", f], ["hint", f, "-i", "10"],
                         ["apply", f, "pass"], ["play", "--load", f, "--level", "1"]):
                cases.append({"kind": "cli", "args": args, "input": "quit\n",
                              "env": {"EKONOS_DATA_DIR": str(data)}})
        api = [{"kind": "load", "path": f, "file": True} for f in files]
        results = run_batch(cases + api, TIMEOUT, memory=1 * GIB)
        sizes = {f: os.stat(f).st_size for f in files[2:]}
    failures = Failures()
    for case, r in zip(api, results[len(cases):]):
        tried("api load_file huge (subprocess)")
        if not r["allowed"]:
            failures.add("traceback", case["path"],
                         f"load_file({case['path']}): {r['error']}: {r.get('message')}")
    assert sizes[files[2]] == 3 * GIB
    try:
        _check_cli_results(cases, results[:len(cases)], "cli huge file (subprocess)")
    except AssertionError as e:
        failures.seen["cli"] = str(e)
    failures.check()


@pytest.mark.parametrize("length", [100_000])
def test_huge_names(length):
    """A 100,000-character name in a file: show, hint, play --load refuse it or finish at
    once; never minutes of rendering."""
    docs = [fresh(d) for d in pool("card")
            if d["players"][d["to_move"]]["hand"] is not None][:2]
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        for i, d in enumerate(docs):
            d["players"][d["to_move"]]["name"] = "x" * length
            d["players"][(d["to_move"] + 1) % len(d["players"])]["name"] = "[b]" * (length // 3)
        paths = _write_positions(folder, docs)
        before = snapshot(folder)
        cases = [{"kind": "cli", "args": args, "input": "quit\n",
                  "env": {"EKONOS_DATA_DIR": str(folder / "data")}}
                 for p in paths for args in (["show", str(p)], ["hint", str(p), "-i", "10"],
                                             ["play", "--load", str(p), "--level", "1"])]
        results = run_batch(cases, timeout=60, memory=2 * GIB)
        after = snapshot(folder)
    _check_cli_results(cases, results, "cli huge name (subprocess)")
    assert_unchanged("huge names", before, after, [p.name for p in paths])
