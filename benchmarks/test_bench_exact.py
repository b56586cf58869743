"""The exact end of a game (search/exact.py): every solvable last decision of 20 seeded random
games of 2-6 players (4 each) solved, against the judge's ordinary search of the same positions
(level 3's 25 000 iterations), which the exact answer replaces there.
Run alone: `.venv/bin/python -m pytest benchmarks/test_bench_exact.py --benchmark-only`.
"""
import random

import pytest

from ekonos import State
from search import exact
from search.analysis import DEFAULT_ITERATIONS, judge_bot, level_params


def last_decisions() -> list[State]:
    out = []
    for players in (2, 3, 4, 5, 6):
        for seed in range(4):
            rng = random.Random(seed)
            st = State.new(players, seed=seed)
            while not st.is_over():
                view = st.view(st.to_move)
                if exact.solvable(view):
                    out.append(view)
                st.push(rng.choice(st.legal_actions()))
    return out


@pytest.fixture(scope="module")
def positions():
    return last_decisions()


def test_solve_every_last_decision(benchmark, positions):
    solved = benchmark(lambda: [exact.solve(v) for v in positions])
    nodes = [s.nodes for s in solved if s is not None]
    median = benchmark.stats.stats.median
    benchmark.extra_info["positions"] = len(positions)
    benchmark.extra_info["solved"] = len(nodes)
    benchmark.extra_info["nodes"] = sum(nodes)
    benchmark.extra_info["nodes_per_second"] = round(sum(nodes) / median)
    benchmark.extra_info["largest"] = max(nodes)
    assert len(nodes) == len(positions)


def test_search_every_last_decision(benchmark, positions):
    bot = judge_bot(level_params(3), DEFAULT_ITERATIONS)
    benchmark.pedantic(lambda: [bot.analyse(v, seed=1, line_length=0) for v in positions],
                       rounds=1, iterations=1)
    benchmark.extra_info["positions"] = len(positions)
