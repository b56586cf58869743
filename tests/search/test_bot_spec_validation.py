"""Every numeric bot setting is checked where specs are parsed (finite, in
range), and `analyse` checks its budget the same way; the refusal names the parameter."""
import subprocess
import sys
from pathlib import Path

import pytest

from ekonos import State
from ekonos.errors import EkonosError
from search._flat import flat_search
from search._ismcts import Searcher
from search.analysis import analyse
from search.bots import ISMCTSBot, SpecError, make_bot, parse_spec
from search.registry import MAX_ITERATIONS, MAX_SECONDS, MAX_WORKERS

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter on this checkout: a segfault or a hang fails the test
    instead of killing pytest."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("spec, param", [
    ("flat:iterations=0", "iterations"), ("flat:iterations=-3", "iterations"),
    (f"flat:iterations={MAX_ITERATIONS + 1}", "iterations"),
    ("ismcts:iterations=99999999999999999999", "iterations"),
    ("ismcts:iterations=0", "iterations"), ("ismcts:iterations=" + "9" * 5000, "iterations"),
    ("ismcts:c=nan", "c"), ("ismcts:c=nan,iterations=100", "c"), ("ismcts:c=inf", "c"),
    ("ismcts:c=-0.1", "c"), ("ismcts:c=1e400", "c"),
    ("ismcts:time=nan", "time"), ("ismcts:time=inf", "time"), ("ismcts:time=-inf", "time"),
    ("ismcts:time=0", "time"), ("ismcts:time=-1", "time"),
    (f"ismcts:time={MAX_SECONDS + 1}", "time"),
    ("ismcts:workers=0", "workers"), (f"ismcts:workers={MAX_WORKERS + 1}", "workers"),
    ("ismcts:workers=1.5", "workers"),
    ("ismcts:horizon=-1", "horizon"), ("ismcts:horizon=99", "horizon"), ("ismcts:plain=2", "plain"),
    ("ismcts:root=best", "root"), ("ismcts:eps=-0.1", "eps"), ("ismcts:eps=1.5", "eps"),
    ("ismcts:eps=nan", "eps"), ("ismcts:epsfor=7", "epsfor"), ("ismcts:epsfor=44", "epsfor"),
    ("ismcts:epsfor=x", "epsfor"), ("ismcts:epsfor=1", "epsfor"),
    ("ismcts:cfor=7", "cfor"), ("ismcts:cfor=55", "cfor"), ("ismcts:cfor=5x", "cfor"),
    ("ismcts:iterfor=7:500", "iterfor"), ("ismcts:iterfor=3500", "iterfor"),
    ("ismcts:iterfor=3:500/34:20", "iterfor"), ("ismcts:iterfor=3:0", "iterfor"),
    ("ismcts:iterfor=3:5/", "iterfor"), ("ismcts:iterfor=:5", "iterfor"),
    ("ismcts:iterfor=3:" + "9" * 5000, "iterfor"), ("ismcts:iterfor=3:\u0663", "iterfor"),
    (f"ismcts:iterfor=3:{MAX_ITERATIONS + 1}", "iterfor"),
    ("ismcts:iterations=\u0663", "iterations"), ("ismcts:iterations=1_000", "iterations"),
    ("ismcts:c=\uff11", "c"), ("ismcts:iterations=5,iterations=6", "iterations"),
    ("flat:policy=heavy", "policy"), ("flat:policy=", "policy"),
])
def test_out_of_range_or_unreadable_settings_are_refused_naming_parameter_and_spec(spec, param):
    for attempt in (parse_spec, make_bot):
        with pytest.raises(SpecError) as e:
            attempt(spec)
        message = str(e.value)
        assert message.startswith(f"bot spec {spec[:40]!r}"[:-1]), message
        assert f": {param}" in message
        assert "\n" not in message and len(message) < 250
    assert isinstance(e.value, EkonosError)


@pytest.mark.parametrize("spec", [
    "flat:iterations=1", f"flat:iterations={MAX_ITERATIONS}", "ismcts:c=0", "ismcts:c=100",
    f"ismcts:time={MAX_SECONDS}", "ismcts:time=0.001", f"ismcts:workers={MAX_WORKERS}",
    "ismcts:horizon=0", "ismcts:plain=0", "ismcts:root=uct", "ismcts:iterations=+7",
])
def test_settings_at_the_bounds_are_accepted(spec):
    make_bot(spec)


def test_api_construction_checks_like_the_spec_parser():
    for kwargs in [dict(iterations=0), dict(c=float("nan")), dict(time=float("inf")),
                   dict(workers=0), dict(iterations=True), dict(iterations=2.0), dict(c="0.7")]:
        with pytest.raises(SpecError, match=next(iter(kwargs))):
            ISMCTSBot(**kwargs)


def test_nan_exploration_no_longer_crashes_a_game():
    """`--bot "ismcts:c=nan,iterations=100"` segfaulted; now the spec is refused, and the search
    itself refuses a NaN constant."""
    r = run_python(
        "from search.bots import make_bot, SpecError\n"
        "from search._ismcts import Searcher\n"
        "try:\n    make_bot('ismcts:c=nan,iterations=100')\n"
        "except SpecError as e:\n    print('refused:', e)\n"
        "try:\n    Searcher(c=float('nan'))\n"
        "except ValueError as e:\n    print('searcher:', e)\n")
    assert r.returncode == 0, r.stderr
    assert "refused: bot spec 'ismcts:c=nan,iterations=100': c must be a finite number" in r.stdout
    assert "searcher: c must be a finite number" in r.stdout
    assert r.stderr == ""


@pytest.mark.parametrize("kwargs", [
    dict(c=float("inf")), dict(c=-1.0), dict(c=float("nan")),
])
def test_searcher_refuses_what_would_break_selection(kwargs):
    params = dict(c=0.7) | kwargs
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        Searcher(**params)


def test_searcher_and_flat_search_refuse_bad_budgets_and_seats():
    st = State.new(3, seed=5)
    s = Searcher(c=0.7)
    for kwargs in [dict(iterations=0), dict(seconds=float("nan")), dict(seconds=float("inf")),
                   dict(seconds=-1.0)]:
        with pytest.raises(ValueError):
            s.run(st.view(0), 0, **kwargs)
    with pytest.raises(IndexError):
        s.run(st.view(0), 3, iterations=5)
    with pytest.raises(ValueError, match="playouts"):
        flat_search(st.view(0), 0, 0, 1, "light")
    with pytest.raises(IndexError):
        flat_search(st.view(0), -1, 10, 1, "light")
    with pytest.raises(ValueError, match="policy"):
        flat_search(st.view(0), 0, 10, 1, "heavy")


@pytest.mark.parametrize("kwargs, param", [
    (dict(iterations=0), "iterations"), (dict(iterations=-5), "iterations"),
    (dict(iterations=MAX_ITERATIONS + 1), "iterations"), (dict(iterations=10**30), "iterations"),
    (dict(iterations=True), "iterations"), (dict(iterations=1.5), "iterations"),
    (dict(seconds=float("nan")), "time"), (dict(seconds=float("inf")), "time"),
    (dict(seconds=0.0), "time"), (dict(seconds=-1.0), "time"),
    (dict(seconds=MAX_SECONDS * 10.0), "time"),
    (dict(workers=0), "workers"), (dict(workers=MAX_WORKERS + 1), "workers"),
    (dict(workers=float("nan")), "workers"), (dict(top=0), "top"), (dict(top=1.5), "top"),
    (dict(line_length=-1), "line_length"), (dict(line_length=10**20), "line_length"),
])
def test_analyse_refuses_absurd_budgets(kwargs, param):
    with pytest.raises(EkonosError, match=f"^{param} must"):
        analyse(State.new(3, seed=42), **kwargs)


def test_analyse_with_a_nan_time_returns_at_once_in_a_fresh_process():
    """`ekonos hint g.json -t nan` and `ismcts:time=inf` never returned."""
    r = run_python(
        "from ekonos import State\n"
        "from ekonos.errors import EkonosError\n"
        "from search.analysis import analyse\n"
        "from search.bots import make_bot, SpecError\n"
        "for t in (float('nan'), float('inf')):\n"
        "    try:\n        analyse(State.new(3, seed=42), seconds=t)\n"
        "    except EkonosError as e:\n        print('refused:', e)\n"
        "for spec in ('ismcts:time=nan', 'ismcts:time=inf'):\n"
        "    try:\n        make_bot(spec)\n"
        "    except SpecError as e:\n        print('refused:', e)\n", timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("refused:") == 4 and "time must be a finite number" in r.stdout


def test_think_time_script_refuses_a_bad_spec_in_one_line():
    """`ekonos lab think-time`: a mistyped spec is a usage error (exit 2), not a traceback."""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-m", "cli.main", "lab", "think-time", "--positions",
                          "1", "level3", "levle3"], capture_output=True, text=True, cwd=root)
    assert out.returncode == 2
    assert "unknown bot 'levle3'" in out.stderr and "Traceback" not in out.stderr
