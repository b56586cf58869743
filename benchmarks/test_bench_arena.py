"""The arena's own overhead per game, the bots' thinking excluded: target < 1 ms.

Every game record carries each seat's think time, measured around `choose` in the game loop.
The overhead of a game is its wall time minus that think time: dealing, building the bots from
their specs, a view per decision, the checked push, the timing itself and the result.  The run
case adds the machinery around the games: the tasks, the ordered window, the summary, the Elo and
the Plackett-Luce ratings.  `random` bots keep the think time tiny, so the subtraction is of a
small number.
"""
import statistics
import time

from search.lab.arena import play_game, run_arena

TARGET = 1e-3   # seconds per game


def think(game: dict) -> float:
    return sum(r["think"] for r in game["results"])


def test_game_loop_overhead(benchmark):
    overheads: list[float] = []
    games = iter(range(10**9))

    def one_game():
        g = next(games)
        t0 = time.perf_counter()
        record = play_game(["random", "random@1", "random@2", "random@3"], 4, 7, g)
        overheads.append(time.perf_counter() - t0 - think(record))

    benchmark.pedantic(one_game, rounds=300, iterations=1, warmup_rounds=10)
    median = statistics.median(overheads)
    benchmark.extra_info["overhead_per_game_ms"] = round(median * 1e3, 3)
    benchmark.extra_info["decisions_per_game"] = 215
    assert median < TARGET


def test_run_overhead_per_game(benchmark):
    """run_arena over 100 games (2 players): everything but the bots, per game."""
    records: list[dict] = []
    per_game: list[float] = []

    def one_run():
        records.clear()
        t0 = time.perf_counter()
        run_arena(["random", "random@1"], 2, 100, seed=3,
                  progress=lambda snap: records.__setitem__(slice(None), snap.games))
        wall = time.perf_counter() - t0
        per_game.append((wall - sum(think(g) for g in records)) / len(records))

    benchmark.pedantic(one_run, rounds=10, iterations=1, warmup_rounds=1)
    median = statistics.median(per_game)
    benchmark.extra_info["overhead_per_game_ms"] = round(median * 1e3, 3)
    assert median < TARGET
