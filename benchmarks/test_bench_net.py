"""The value network's cost: microseconds per evaluation (the C loop the search runs at a leaf)
and the search's iterations per second with it, beside the default search (linear model after a
round), from the 4-player opening.

The network has random weights of the widths given here (what an evaluation costs depends on
the widths, not on the values; zero weights would skip half the second layer, so random ones,
seeded).  `rollout=0`: the network scores the leaf the tree just expanded, no playout;
`rollout=1`: a playout runs to the next round's start and the network scores it there.
"""
import numpy as np
import pytest

from ekonos import State
from search._net import NET_INPUT_COUNT, NET_OUTPUT_COUNT, Net
from search.bots import ISMCTSBot

ITERATIONS = 20000
EVALUATIONS = 100000
WIDTHS = [(64, 32), (128, 32), (256, 32)]


def random_net(h1, h2, seed=0):
    rng = np.random.default_rng(seed)
    shapes = [(NET_INPUT_COUNT, h1), (h1,), (h1, h2), (h2,), (h2, NET_OUTPUT_COUNT),
              (NET_OUTPUT_COUNT,)]
    return Net(*[rng.normal(0, 0.1, s).astype(np.float32) for s in shapes])


@pytest.fixture(scope="module")
def opening():
    s = State.new(4, seed=2024)
    return s.view(s.to_move)


@pytest.mark.parametrize("h1,h2", WIDTHS)
def test_net_evaluation(benchmark, opening, h1, h2):
    net = random_net(h1, h2)
    benchmark(net.evaluate_many, opening, EVALUATIONS)
    benchmark.extra_info["us_per_evaluation"] = round(
        benchmark.stats.stats.median / EVALUATIONS * 1e6, 3)


@pytest.mark.parametrize("rollout", [0, 1])
def test_ismcts_with_net(benchmark, opening, rollout):
    searcher = ISMCTSBot(c=0.3, horizon=1, plain=1, root="halving").searcher()
    searcher.net = random_net(128, 32)
    searcher.rollout = rollout
    benchmark(searcher.run, opening, opening.to_move, iterations=ITERATIONS, seed=1)
    benchmark.extra_info["iterations_per_second"] = round(ITERATIONS / benchmark.stats.stats.median)
    assert searcher.iterations_done == ITERATIONS


# -- the policy network's prior (search/policy.py): one forward pass per decision --------------

@pytest.fixture(scope="module")
def card_root():
    """A 4-player card step of many legal moves (the prior's work is at such roots)."""
    import random
    s = State.new(4, seed=2024)
    rng = random.Random(7)
    while s.count_legal() < 120:
        s.push(rng.choice(s.legal_actions()))
    return s.view(s.to_move)


def random_policy(h1=256, h2=256, seed=0):
    from search.network import POLICY_KIND, shapes
    from search.policy import Policy
    rng = np.random.default_rng(seed)
    return Policy("random", {k: rng.normal(0, 0.05, s).astype(np.float32)
                             for k, s in shapes(h1, h2, POLICY_KIND).items()})


def test_policy_prior_top16(benchmark, card_root):
    """The prior's pass at a card step's root, the shipped widths 256,256: microseconds a
    decision (the search then runs its 2 000 iterations, about 10 ms, with 4 players)."""
    policy, actions = random_policy(), card_root.legal_actions()
    kept = benchmark(policy.top, card_root, card_root.to_move, actions, 16)
    benchmark.extra_info["us_per_decision"] = round(benchmark.stats.stats.median * 1e6, 1)
    assert len(kept) == 16
