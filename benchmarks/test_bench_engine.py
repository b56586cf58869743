"""Engine speed: full uniformly random games from the opening, C-level loop, one core.

Floor: 20,000 four-player games per second.  games/s = GAMES / median seconds;
decisions/s is printed in `extra_info` from the decisions the kernel reports.
"""
import pytest

from ekonos._core import CoreState, random_playouts

GAMES = 2000


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games(benchmark, players):
    start = CoreState.new_game(players, 12345)
    decisions = benchmark(random_playouts, start, GAMES, 7)
    median = benchmark.stats.stats.median
    benchmark.extra_info["games_per_second"] = round(GAMES / median)
    benchmark.extra_info["decisions_per_second"] = round(decisions / median)
    benchmark.extra_info["decisions_per_game"] = round(decisions / GAMES, 1)
    assert decisions > GAMES * 50  # every game ran to the end (~200 decisions each)
