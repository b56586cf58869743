"""The arena's think time per decision: per bot, the median, 95th percentile
and mean over every decision of the run, pooled across games (not a median of per-game
medians), in `summarize`, `ekonos arena --json` and the table for a person."""
import json
import random
import statistics

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab import arena


def seat(entrant, seat_no, times, score=100, win=0.0, rank=1.5):
    """A seat record as play_game writes it (think_times=None: one made before they were kept)."""
    r = {"entrant": entrant, "seat": seat_no, "score": score, "win": win, "rank": rank,
         "decisions": len(times or []), "think": sum(times or []),
         "think_median": statistics.median(times) if times else 0.0}
    if times is not None:
        r["think_times"] = list(times)
    return r


def synthetic_games(rng):
    """Six 2-player games of entrants A (0) and B (1), seats rotated, with per-decision times
    of uneven counts and spreads: a game of few slow decisions and games of many fast ones."""
    games, times = [], {0: [], 1: []}
    for g in range(6):
        seats = arena.seating(2, 2, g)
        results = []
        for q, e in enumerate(seats):
            n = rng.randint(3, 9) if g == 0 else rng.randint(40, 120)
            scale = 2.0 if g == 0 else (0.01 if e == 0 else 0.05)
            ts = [round(rng.expovariate(1 / scale), 6) for _ in range(n)]
            times[e] += ts
            results.append(seat(e, q, ts, score=100 + q, win=float(q == 1), rank=2 - q))
        games.append({"game": g, "results": results})
    return games, times


def test_summarize_pools_every_decision_and_matches_numpy():
    games, times = synthetic_games(random.Random(34))
    out = arena.summarize(games, ["A", "B"], 2)
    for b, e in zip(out["bots"], (0, 1)):
        t, ts = b["think"], np.array(times[e])
        assert t["decisions"] == len(ts) == sum(
            r["decisions"] for g in games for r in g["results"] if r["entrant"] == e)
        assert t["median"] == pytest.approx(np.percentile(ts, 50), abs=1e-9)
        assert t["p95"] == pytest.approx(np.percentile(ts, 95, method="linear"), abs=1e-9)
        assert t["mean"] == pytest.approx(ts.mean(), abs=1e-9)
        # pooled, not the median of the per-game medians (which the slow game would not move)
        per_game = statistics.median(r["think_median"] for g in games for r in g["results"]
                                     if r["entrant"] == e)
        assert t["median"] != pytest.approx(per_game, abs=1e-9)
        assert 0 < t["median"] <= t["p95"]
    assert out["bots"][0]["games"] == 6 and out["bots"][0]["win_share"] == 0.5


@pytest.mark.parametrize("n", [1, 2, 3, 19, 20, 21, 100, 101])
def test_quantile_is_numpys_linear_and_statistics_inclusive(n):
    rng = random.Random(n)
    xs = sorted(rng.random() for _ in range(n))
    for q in (0, 0.25, 0.5, 0.95, 1):
        assert arena.quantile(xs, q) == pytest.approx(np.percentile(xs, 100 * q), abs=1e-12)
    assert arena.quantile(xs, 0.5) == pytest.approx(statistics.median(xs), abs=1e-12)
    if n >= 2:
        assert arena.quantile(xs, 0.95) == pytest.approx(
            statistics.quantiles(xs, n=20, method="inclusive")[18], abs=1e-12)


def test_records_without_think_times_still_summarize():
    old = [{"game": g, "results": [seat(e, q, None) for q, e in enumerate(arena.seating(2, 2, g))]}
           for g in range(2)]
    out = arena.summarize(old, ["A", "B"], 2)
    for b in out["bots"]:
        assert b["games"] == 2
        assert b["think"] == {"decisions": 0, "median": None, "p95": None, "mean": None}
    # mixed with timed records: only the timed decisions count
    timed = {"game": 2, "results": [seat(0, 0, [0.1, 0.2, 0.3]), seat(1, 1, [0.5])]}
    out = arena.summarize(old + [timed], ["A", "B"], 2)
    assert out["bots"][0]["think"] == {"decisions": 3, "median": 0.2, "p95": 0.29, "mean": 0.2}
    assert out["bots"][1]["think"]["decisions"] == 1 and out["bots"][1]["think"]["p95"] == 0.5


def test_a_game_record_keeps_each_decisions_seconds():
    game = arena.play_game(["random", "ismcts:iterations=20"], 2, seed=3, game=0)
    for r in game["results"]:
        ts = r["think_times"]
        assert len(ts) == r["decisions"] > 0
        assert all(t == round(t, 6) and t >= 0 for t in ts)       # microseconds
        assert sum(ts) == pytest.approx(r["think"], abs=1e-6 * len(ts))
    json.dumps(game)                                                # plain JSON values


def test_untimed_drops_only_the_think_times():
    games, _ = synthetic_games(random.Random(1))
    out = {"players": 2, "games": 6, **arena.summarize(games, ["A", "B"], 2)}
    bare = arena.untimed(out)
    assert all("think" not in b for b in bare["bots"]) and "think" in out["bots"][0]
    assert [{k: v for k, v in b.items() if k != "think"} for b in out["bots"]] == bare["bots"]
    assert bare["ratings"] == out["ratings"]


def run(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)


def test_arena_json_reports_think_time_over_all_decisions():
    args = ["arena", "-p", 2, "--bot", "random", "--bot", "ismcts:iterations=50", "-n", 2,
            "--seed", 4, "--json", "--quiet"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    # the same games again, one by one: their decision counts are seeded, not timed
    entrants = ["random", "ismcts:iterations=50"]
    decisions = dict.fromkeys(entrants, 0)
    for g in range(2):
        for res in arena.play_game(entrants, 2, seed=4, game=g)["results"]:
            decisions[entrants[res["entrant"]]] += res["decisions"]
    for b in out["bots"]:
        t = b["think"]
        assert set(t) == {"decisions", "median", "p95", "mean"}
        assert t["decisions"] == decisions[b["bot"]] > 0
        assert t["p95"] >= t["median"] > 0 and t["mean"] > 0
    rnd, search = out["bots"]
    assert search["think"]["median"] > rnd["think"]["median"]    # 50 playouts cost something


def test_arena_table_shows_think_time_within_80_columns():
    for bots in (["random", "ismcts:iterations=50"], ["ismcts:iterations=30,horizon=1", "random"]):
        r = run("arena", "-p", 2, *[a for b in bots for a in ("--bot", b)], "-n", 2, "--quiet",
                env={"COLUMNS": "80"})
        assert r.exit_code == 0, r.output
        assert max(len(line) for line in r.output.splitlines()) <= 80
        lines = r.output.splitlines()
        lines = lines[:next(k for k, line in enumerate(lines) if line.startswith("└")) + 1]
        assert any("think ms" in line for line in lines)
        assert any("p50/p95" in line for line in lines)
        assert not any("…" in line for line in lines)          # the bots' table: nothing cut
        cells = [c.strip() for line in lines if line.startswith("│") for c in line.split("│")]
        assert sum(1 for c in cells if c.count("/") == 1 and
                   all(p.replace(".", "").isdigit() for p in c.split("/"))) == 2
