"""Run a batch of risky fuzz cases in a child process, so a segfault or a hang fails the test
instead of killing pytest.

The child (`python fuzz_runner.py CASES RESULTS [MEMORY_BYTES]`) reads the cases (JSON), and
for each writes a `start` line then a result line to RESULTS, unbuffered, so after a crash the
parent knows which case was running.  `run_batch` (the parent side) starts the child with a
timeout, turns a signal, a hang or a lost case into an AssertionError naming the case, and
returns the results.

Case kinds:

* `api`: call a State method on a position (`pos`, or a new game of `players` and `seed`);
  the result `error` is the exception type name (None when it returned);
* `bot`: `make_bot(spec)` and, when `choose`, one decision on the view of the seat to move;
  `action` is the chosen action and `legal` whether it was legal;
* `cli`: `ekonos ARGS` through click's CliRunner (exit code, stdout tail, stderr, and the
  uncaught exception if any);
* `load`: `State.from_json` of the file at `path` (error type name).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


# ---------------------------------------------------------------------------------------------
# Parent side

def run_batch(cases: list[dict], timeout: float, memory: int | None = None,
              env: dict[str, str] | None = None) -> list[dict]:
    """Run `cases` in one child; AssertionError on a signal, a hang or a crash, naming the
    case that was running.  Returns one result dict per case."""
    from fuzz_support import found, python
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-run-") as tmp:
        cases_path = Path(tmp) / "cases.json"
        results_path = Path(tmp) / "results.jsonl"
        cases_path.write_text(json.dumps(cases), encoding="utf-8")
        args = [python(), str(HERE / "fuzz_runner.py"), str(cases_path), str(results_path)]
        if memory:
            args.append(str(memory))
        full_env = dict(os.environ, PYTHONFAULTHANDLER="1", **(env or {}))
        try:
            proc = subprocess.run(args, cwd=REPO, env=full_env, capture_output=True,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
            hung = False
        except subprocess.TimeoutExpired as e:
            proc, hung = e, True
        lines = results_path.read_text(encoding="utf-8").splitlines() \
            if results_path.exists() else []
        results = {}
        running = None
        for line in lines:
            r = json.loads(line)
            if "start" in r:
                running = r["start"]
            else:
                results[r["i"]] = r
                running = None
        stderr = (proc.stderr or b"").decode("utf-8", "replace")
        if hung:
            found("hang")
            case = cases[running] if running is not None else "(before the first case)"
            raise AssertionError(f"hang: no answer within {timeout} s, running case "
                                 f"{_show(case)}\nstderr: {stderr[-1500:]}")
        if proc.returncode != 0 or len(results) != len(cases):
            found("signal" if proc.returncode < 0 else "crash")
            case = cases[running] if running is not None else "(none)"
            raise AssertionError(f"child exited with status {proc.returncode} "
                                 f"({'signal ' + str(-proc.returncode) if proc.returncode < 0 else 'crash'}) "
                                 f"in case {_show(case)}\nstderr: {stderr[-2500:]}")
        return [results[i] for i in range(len(cases))]


def _show(case) -> str:
    return describe(case) if isinstance(case, dict) else str(case)


def describe(case: dict) -> str:
    """One line naming a case: its call and, for a position, its step and player count."""
    where = ""
    if case.get("pool") is not None:
        from fuzz_positions import pool
        d = pool()[case["pool"]]
        where = f" on pool position {case['pool']} ({d['step']}, {len(d['players'])} players)"
    elif case.get("pos") is not None:
        where = " on a given position"
    elif case.get("players") is not None:
        where = f" on State.new({case['players']}, seed={case.get('seed')})"
    if case["kind"] == "api":
        args = ", ".join(repr(a) for a in case["args"])
        return f"State.{case['method']}({args}){where}"
    if case["kind"] == "bot":
        return f"make_bot({case['spec']!r}).choose(view){where}"
    if case["kind"] == "cli":
        return "ekonos " + " ".join(a if len(a) < 80 else a[:80] + "..." for a in case["args"])
    return f"{case['kind']} {case.get('path')}"


# ---------------------------------------------------------------------------------------------
# Child side

def _state(case: dict):
    from ekonos import State
    if case.get("pool") is not None:              # a position of fuzz_positions.pool()
        from fuzz_positions import pool
        return State.from_dict(pool()[case["pool"]])
    if case.get("pos") is not None:
        return State.from_dict(case["pos"])
    return State.new(case.get("players", 3), seed=case.get("seed", 5))


def _api(case: dict, out: dict) -> None:
    st = _state(case)
    method = case["method"]
    args = case.get("args", [])
    fn = getattr(st, method)
    result = fn(*args) if callable(fn) else fn
    if method in ("view", "copy"):
        result.to_dict()               # the result must be a usable state
    out["value"] = repr(result)[:200]


def _bot(case: dict, out: dict) -> None:
    from search.bots import make_bot
    bot = make_bot(case["spec"], seed=case.get("seed", 0))
    out["made"] = True
    if case.get("choose"):
        st = _state(case)
        view = st.view(st.to_move)
        action = bot.choose(view)
        out["action"] = action
        out["legal"] = st.is_legal(action) if isinstance(action, int) else False


def _cli(case: dict, out: dict) -> None:
    from click.testing import CliRunner
    from cli.main import main
    import traceback
    result = CliRunner().invoke(main, case["args"], input=case.get("input"),
                                env=case.get("env"), catch_exceptions=True)
    out["code"] = result.exit_code
    out["stdout"] = result.stdout[-3000:]
    out["stderr"] = result.stderr[-3000:]
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        out["uncaught"] = type(exc).__name__
        out["traceback"] = "".join(traceback.format_exception(*result.exc_info))[-1500:]


def _load(case: dict, out: dict) -> None:
    from ekonos import State, load_file
    if case.get("file"):
        load_file(State, case["path"])
    else:
        with open(case["path"], "rb") as fh:
            State.from_json(fh.read().decode("utf-8", "surrogateescape"))


def child(cases_path: str, results_path: str, memory: str | None) -> int:
    import faulthandler
    import threading
    faulthandler.enable()
    if memory:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(HERE))
    from ekonos.errors import EkonosError
    allowed = (EkonosError, ValueError, IndexError)
    thread_errors: list[str] = []
    threading.excepthook = lambda a: thread_errors.append(f"{a.exc_type.__name__}: "
                                                          f"{a.exc_value}")
    cases = json.loads(Path(cases_path).read_text(encoding="utf-8"))
    handlers = {"api": _api, "bot": _bot, "cli": _cli, "load": _load}
    with open(results_path, "w", encoding="utf-8", buffering=1) as res:
        for i, case in enumerate(cases):
            res.write(json.dumps({"start": i}) + "\n")
            res.flush()
            out: dict = {"i": i, "error": None, "allowed": True}
            del thread_errors[:]
            try:
                handlers[case["kind"]](case, out)
            except BaseException as e:          # noqa: BLE001 (the verdict is the parent's)
                out["error"] = type(e).__name__
                out["message"] = str(e)[:500]
                extra = (TypeError,) if case.get("wrong_type") else ()
                out["allowed"] = isinstance(e, allowed + extra)
                if not isinstance(e, Exception):
                    out["allowed"] = False
            out["thread_errors"] = list(thread_errors)
            res.write(json.dumps(out, default=repr) + "\n")
            res.flush()
    return 0


if __name__ == "__main__":
    sys.exit(child(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
