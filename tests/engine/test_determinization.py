"""Determinization (CoreState.determinize) and State.view (docs/rules.md R21).

A determinization re-deals the hands the observer cannot see.  It must never change what the
observer sees, must not depend on the hidden truth, and must deal the unseen cards uniformly:
checked with a chi-square test per card (fixed seeds, so the test is deterministic).
"""
from __future__ import annotations

import math
import random

import pytest
from helpers import load, position

from ekonos import State


def hands_of(st: State) -> list[list[int] | None]:
    return [st.hand(q) for q in range(st.nplayers)]


def public(st: State) -> dict:
    """The position file without the hands and the chance stream (what determinize may change)."""
    d = st.to_dict()
    for p in d["players"]:
        del p["hand"]
    del d["rng"], d["seed"]
    return d


def mid_game(n: int, seed: int, decisions: int) -> State:
    rng = random.Random(seed)
    st = State.new(n, seed=seed)
    for _ in range(decisions):
        if st.is_over():
            break
        st.push(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_determinize_keeps_everything_the_observer_sees(n):
    for k in range(20):
        st = mid_game(n, seed=100 * n + k, decisions=7 * k + 3)
        if st.is_over():
            continue
        for observer in range(n):
            d = st.copy()
            d.determinize(observer, 1000 + k)
            # public information, own hand, discard and hand sizes: the observer's view is equal
            assert d.view(observer) == st.view(observer)
            assert d.hand(observer) == st.hand(observer)
            assert public(d) == public(st)           # map, market, turn, discard, hand sizes
            # a possible deal: sizes kept, every card in one place, nothing from the discard
            seen = set(d.discard)
            for q, h in enumerate(hands_of(d)):
                assert len(h) == d.hand_size(q)
                assert not set(h) & seen
                seen |= set(h)
            assert d.hand_known(observer) and all(d.hand_known(q) for q in range(n))


def test_determinize_does_not_depend_on_hidden_hands():
    for n in (3, 4, 6):
        for k in range(10):
            st = mid_game(n, seed=7 * n + k, decisions=5 + 11 * k)
            if st.is_over():
                continue
            observer = st.to_move
            truth = st.copy()
            truth.determinize(observer, 555 + k)
            seen = st.view(observer)         # the observer's information set: other hands unknown
            assert all(seen.hand(q) is None for q in range(n) if q != observer)
            seen.determinize(observer, 555 + k)
            assert hands_of(truth) == hands_of(seen)
            assert truth.rng_state == seen.rng_state   # future deals too


def test_determinize_changes_the_future_deals():
    st = State.new(3, seed=4)
    outcomes = set()
    for seed in range(5):
        d = st.copy()
        d.determinize(0, seed)
        outcomes.add(d.rng_state)
    assert len(outcomes) == 5
    assert st.rng_state not in outcomes


def test_determinize_observer_minus_one_redeals_every_hand():
    st = State.new(4, seed=12)
    d = st.copy()
    d.determinize(-1, 3)
    assert all(len(h) == 6 for h in hands_of(d))
    assert hands_of(d) != hands_of(st)
    assert len(set().union(*hands_of(d))) == 24


def test_view_then_determinize_gives_a_playable_state():
    st = mid_game(4, seed=9, decisions=40)
    v = st.view(st.to_move)
    v.determinize(st.to_move, 1)
    rng = random.Random(1)
    while not v.is_over():
        v.push(rng.choice(v.legal_actions()))
    assert v.is_over()


# ---------------------------------------------------------------------------------------------
# The statistical test

def chi2_sf_even(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with an even number of degrees of freedom:
    exp(-x/2) * sum_{i < df/2} (x/2)^i / i!  (exact)."""
    assert df % 2 == 0
    h = x / 2
    return math.exp(-h) * sum(h ** i / math.factorial(i) for i in range(df // 2))


def chi2_critical_even(alpha: float, df: int) -> float:
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf_even(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def test_chi2_helpers():
    # textbook values: chi2(0.95; 2) = 5.991, chi2(0.999; 4) = 18.467
    assert abs(chi2_critical_even(0.05, 2) - 5.991) < 1e-3
    assert abs(chi2_critical_even(0.001, 4) - 18.467) < 1e-3


def run_deal_frequencies(d: dict, observer: int, samples: int):
    st = load(d)
    n = st.nplayers
    unseen = sorted(set(range(1, 37)) - set(st.hand(observer)) - set(st.discard))
    others = [q for q in range(n) if q != observer]
    places = others + ["stock"]
    counts = {c: dict.fromkeys(places, 0) for c in unseen}
    for k in range(samples):
        s = st.copy()
        s.determinize(observer, 10_000_019 * k + 17)
        hands = hands_of(s)
        assert hands[observer] == st.hand(observer)
        dealt = set()
        for q in others:
            for c in hands[q]:
                counts[c][q] += 1
                dealt.add(c)
        for c in unseen:
            if c not in dealt:
                counts[c]["stock"] += 1
    sizes = {q: st.hand_size(q) for q in others}
    sizes["stock"] = len(unseen) - sum(sizes[q] for q in others)
    probs = {p: sizes[p] / len(unseen) for p in places}
    return unseen, places, counts, probs


def per_card_statistics(unseen, places, counts, probs, samples):
    stats = []
    for c in unseen:
        assert sum(counts[c].values()) == samples
        stats.append(sum((counts[c][p] - samples * probs[p]) ** 2 / (samples * probs[p])
                         for p in places))
    return stats


@pytest.mark.parametrize("case", ["3p", "5p"])
def test_determinize_deals_each_unseen_card_uniformly(case):
    if case == "3p":
        # 3 players, 4 cards played from start 0: hands 4 (observer 0), 5, 5.
        # Unseen: 36 - 4 - 4 = 28 cards -> seat 1: 5/28, seat 2: 5/28, undealt stock: 18/28.
        d = position(3, hands={0: [1, 2, 3, 4], 1: [5, 6, 7, 8, 9], 2: [10, 11, 12, 13, 14]},
                     discard=[31, 32, 33, 34], seed=1)
        observer = 0
    else:
        # 5 players, 7 cards played from start 0: seats 0, 1 hold 3, seats 2, 3, 4 hold 4.
        # Observer 2.  Unseen: 36 - 7 - 4 = 25 -> 3/25, 3/25, 4/25, 4/25 and stock 11/25.
        d = position(5, hands={0: [1, 2, 3], 1: [4, 5, 6], 2: [7, 8, 9, 10],
                               3: [11, 12, 13, 14], 4: [15, 16, 17, 18]},
                     discard=[30, 31, 32, 33, 34, 35, 36], seed=1)
        observer = 2
    samples = 4000
    unseen, places, counts, probs = run_deal_frequencies(d, observer, samples)
    df = len(places) - 1                       # 2 for "3p", 4 for "5p"
    # Each card's location over independent determinizations is multinomial: Pearson's
    # statistic is chi-square with df degrees of freedom.  One test per unseen card, family
    # error 0.001 (Bonferroni): alpha = 0.001 / 28 or / 25 per card.
    # Critical values: 3p df=2 alpha=3.571e-5 -> 20.48 (= -2 ln alpha); 5p df=4 alpha=4e-5 ->
    # 25.49 (solves exp(-x/2) (1 + x/2) = alpha).
    alpha = 0.001 / len(unseen)
    critical = chi2_critical_even(alpha, df)
    assert abs(critical - {2: 20.48, 4: 25.49}[df]) < 0.01
    stats = per_card_statistics(unseen, places, counts, probs, samples)
    assert max(stats) < critical, (max(stats), critical)
    # the statistics also average to about df (their exact expectation), not near 0
    mean = sum(stats) / len(stats)
    assert 0.5 * df < mean < 1.6 * df, mean
    # and the true location of a card is not favoured: cards of seat 1's real hand land in
    # seat 1's hand with frequency close to its share
    truth = d["players"][1]["hand"]
    freq = sum(counts[c][1] for c in truth) / (samples * len(truth))
    assert abs(freq - probs[1]) < 0.02


def test_chi2_statistic_detects_a_biased_deal():
    """The same statistic on a dealer that puts seat 1's true cards in seat 1's hand 10% more
    often than chance exceeds the critical value: the test above has the power to fail."""
    rng = random.Random(3)
    unseen = list(range(28))
    places = [1, 2, "stock"]
    probs = {1: 5 / 28, 2: 5 / 28, "stock": 18 / 28}
    samples = 4000
    counts = {c: dict.fromkeys(places, 0) for c in unseen}
    for _ in range(samples):
        order = unseen[:]
        rng.shuffle(order)
        if rng.random() < 0.1:                  # leak: card 0 goes to seat 1
            order.remove(0)
            order.insert(0, 0)
        for i, c in enumerate(order):
            counts[c][1 if i < 5 else 2 if i < 10 else "stock"] += 1
    stats = per_card_statistics(unseen, places, counts, probs, samples)
    assert stats[0] > chi2_critical_even(0.001 / 28, 2)
