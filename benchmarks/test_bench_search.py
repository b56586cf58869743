"""Search speed: ismcts iterations/s and simulated decisions/s from the 4-player opening.

Floor: 10,000 iterations per second on one core.  The all-cores case runs one tree
per core (root parallelism, the search releases the GIL).
"""
import os

import pytest

from ekonos import State
from search.bots import ISMCTSBot

ITERATIONS = 20000


@pytest.fixture(scope="module")
def opening():
    s = State.new(4, seed=2024)
    return s.view(s.to_move)


#: The plain search (playouts to the end, as the floor was set on) and the default one (the learned
#: evaluation after one round); the random playout policy left the search with its other losers.
SEARCHES = {"plain": dict(c=0.7, horizon=0, plain=0), "default": {}}


@pytest.mark.parametrize("search", sorted(SEARCHES))
def test_ismcts_one_core(benchmark, opening, search):
    searcher = ISMCTSBot(**SEARCHES[search]).searcher()
    benchmark(searcher.run, opening, opening.to_move, iterations=ITERATIONS, seed=1)
    median = benchmark.stats.stats.median
    benchmark.extra_info["iterations_per_second"] = round(ITERATIONS / median)
    benchmark.extra_info["decisions_per_second"] = round(searcher.decisions_simulated / median)
    assert searcher.iterations_done == ITERATIONS


def test_ismcts_all_cores(benchmark, opening):
    workers = os.cpu_count() or 1
    bot = ISMCTSBot(iterations=ITERATIONS * workers, workers=workers)
    analysis = benchmark(bot.analyse, opening, 1)
    median = benchmark.stats.stats.median
    benchmark.extra_info["workers"] = workers
    benchmark.extra_info["iterations_per_second"] = round(analysis.iterations / median)
    benchmark.extra_info["decisions_per_second"] = round(analysis.decisions / median)
    assert analysis.iterations == ITERATIONS * workers
