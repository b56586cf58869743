"""What every fuzz property shares: the hypothesis profile, the case counters, the CLI verdict
(exit 0, or exit 2 with one `Error:` line), the file guard and the allowed API exceptions.

Profiles (environment variable EKONOS_FUZZ, read once at import):

* `ci` (default, `make test`): small example counts, derandomized, so CI is reproducible and
  the whole fuzz suite stays around 30 s on two cores;
* `fuzz` (`make fuzz`): many more examples, a fresh random stream each run, for before a
  release; the terminal summary prints the cases tried per entry point;
* `debug` (`.ci/run`, against the checked `make debug` build): fewer examples than `ci`.

Counts are kept per entry point (`tried("cli show")`) and findings per kind (`found("signal")`)
so the summary can say "N cases, 0 signals, 0 tracebacks, 0 hangs, 0 modified files".
"""
from __future__ import annotations

import os
import sys
import traceback
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, settings

from ekonos.errors import EkonosError

PROFILE = os.environ.get("EKONOS_FUZZ", "ci")
if PROFILE not in ("ci", "fuzz", "debug"):
    raise RuntimeError(f"EKONOS_FUZZ must be ci, fuzz or debug, got {PROFILE!r}")

#: Examples per property, relative to the `ci` counts written at each test.
SCALE = {"ci": 1.0, "debug": 0.5, "fuzz": 25.0}[PROFILE]

#: No `explain` phase: it reruns a failing case hundreds of times to comment on it.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
_COMMON = dict(deadline=None, print_blob=False, phases=PHASES,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much,
                                      HealthCheck.function_scoped_fixture])
settings.register_profile("ekonos-ci", derandomize=True, database=None, **_COMMON)
settings.register_profile("ekonos-debug", derandomize=True, database=None, **_COMMON)
settings.register_profile("ekonos-fuzz", derandomize=False, **_COMMON)
BASE = settings.get_profile(f"ekonos-{PROFILE}")

#: Phases of properties that run a subprocess: no shrinking (a case that hangs would time out
#: at every shrink step); the runner names the one case of a batch that failed instead.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def fuzz_settings(ci: int, shrink: bool = True) -> settings:
    """Settings of one property: `ci` examples in the ci profile, scaled in the others."""
    n = max(1, round(ci * SCALE))
    if shrink:
        return settings(BASE, max_examples=n)
    return settings(BASE, max_examples=n, phases=NO_SHRINK)


# ---------------------------------------------------------------------------------------------
# Counters (printed by conftest.pytest_terminal_summary)

CASES: Counter = Counter()       # entry point -> cases tried
FINDINGS: Counter = Counter()    # signal / traceback / hang / modified file / wrong result


def tried(entry: str, n: int = 1) -> None:
    CASES[entry] += n


def found(kind: str) -> None:
    FINDINGS[kind] += 1


# ---------------------------------------------------------------------------------------------
# The API: which exceptions a caller may get

#: Bad input to the API: ValueError (EkonosError subclasses it) or IndexError, nothing else.
API_ERRORS: tuple[type[BaseException], ...] = (EkonosError, ValueError, IndexError)


def api_call(entry: str, fn, *args, allowed: tuple = API_ERRORS, **kwargs):
    """Call `fn`; return (True, result) or (False, exception) when it raised an allowed error.
    Any other exception fails the property (counted as a traceback)."""
    tried(entry)
    try:
        return True, fn(*args, **kwargs)
    except allowed as e:
        return False, e
    except Exception as e:
        found("traceback")
        raise AssertionError(f"{entry}: unexpected {type(e).__name__}: {str(e)[:300]}") from e


# ---------------------------------------------------------------------------------------------
# The CLI in-process

_RUNNER = CliRunner()


def run_cli(args: Sequence[str], entry: str, input: str | None = None,
            env: dict[str, str] | None = None) -> Result:
    """Run `ekonos ARGS` in-process and check the verdict: exit 0 without a traceback, or exit 2
    with exactly one line on stderr, starting `Error:`.  Returns the click Result."""
    from cli.main import main
    tried(entry)
    result = _RUNNER.invoke(main, list(args), input=input, env=env, catch_exceptions=True)
    uncaught = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        uncaught = "".join(traceback.format_exception(*result.exc_info)[-2:])
    check_verdict(entry, args, result.exit_code, result.stdout, result.stderr, uncaught)
    return result


TRACEBACK = "Traceback (most recent call last)"


def check_verdict(entry: str, args: Sequence[str], code: int, stdout: str, stderr: str,
                  uncaught: str | None = None) -> None:
    """The CLI property on one finished run (in-process or in a subprocess); `uncaught` is the
    end of the traceback of an exception that escaped the command."""
    shown = " ".join(_short(a) for a in args)
    if uncaught is not None:
        found("traceback")
        raise AssertionError(f"ekonos {shown}: uncaught exception (exit {code}):\n"
                             f"{uncaught[-800:]}")
    if TRACEBACK in stderr or TRACEBACK in stdout:
        found("traceback")
        raise AssertionError(f"ekonos {shown}: a traceback (exit {code}):\n{stderr[-800:]}")
    if code == 0:
        return
    if code == 2:
        lines = stderr.splitlines()
        if len(lines) == 1 and lines[0].startswith("Error: "):
            return
        found("bad error message")
        raise AssertionError(f"ekonos {shown}: exit 2 but stderr is not one `Error:` line:\n"
                             f"{stderr[-800:]!r}")
    found("signal" if code < 0 else "bad exit status")
    raise AssertionError(f"ekonos {shown}: exit status {code}, expected 0 or 2\n"
                         f"stderr: {stderr[-800:]!r}")


def _short(arg: str, limit: int = 120) -> str:
    text = repr(arg) if (not arg or any(c.isspace() or not c.isprintable() for c in arg)) \
        else arg
    return text if len(text) <= limit else text[:limit] + f"...({len(arg)} chars)"


# ---------------------------------------------------------------------------------------------
# Files: an input file and an existing -o target are never changed

def snapshot(folder: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every file directly in `folder`: name -> (bytes, mtime in ns)."""
    out: dict[str, tuple[bytes, int] | None] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file():
            out[p.name] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def assert_unchanged(entry: str, before: dict, after: dict, names: Sequence[str]) -> None:
    """The files `names` are exactly as they were (bytes and mtime), or still absent."""
    for name in names:
        if before.get(name) != after.get(name):
            found("modified file")
            what = ("created" if name not in before else "deleted" if name not in after
                    else "changed")
            raise AssertionError(f"{entry}: {name} was {what}")


def assert_no_strays(entry: str, before: dict, after: dict, allowed: Sequence[str] = ()) -> None:
    """No new file in the folder but `allowed` (a failed save leaves no temporary file)."""
    new = set(after) - set(before) - set(allowed)
    if new:
        found("modified file")
        raise AssertionError(f"{entry}: left new files {sorted(new)}")


def python() -> str:
    return sys.executable
