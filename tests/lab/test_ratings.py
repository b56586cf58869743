"""Elo and its interval, Board Game Arena pairwise scoring, Plackett-Luce (search/ratings.py)."""
import math
import sys

import numpy as np
import pytest

from ekonos import EkonosError
from search.lab.ratings import (Z95, elo_between, elo_estimate, elo_from_pentanomial,
                                elo_from_score, elo_from_wdl, expected_score, head_to_head,
                                pairwise_results, plackett_luce)


def elo_of(p):
    """The textbook formula, written out here independently of the module."""
    return 400 * math.log10(p / (1 - p))


# -- Elo from a score ----------------------------------------------------------------------------

def test_known_values():
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.005)   # 400 log10 3
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.25) == pytest.approx(-190.85, abs=0.005)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)            # odds 10:1 = 400 Elo
    for elo in (-500, -37.5, 0, 12, 400):
        assert elo_from_score(expected_score(elo)) == pytest.approx(elo)


def test_clamped_at_zero_and_one():
    # half a result from the edge when the number of results is known
    assert elo_from_score(1.0, 100) == pytest.approx(elo_of(0.995))
    assert elo_from_score(0.0, 100) == pytest.approx(-elo_of(0.995))
    # fishtest's 0.001 otherwise: +-1200 Elo
    assert elo_from_score(1.0) == pytest.approx(elo_of(0.999))
    assert math.isfinite(elo_from_score(0.0, 1))
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(EkonosError):
            elo_from_score(bad)


def test_trinomial_interval_by_hand():
    # 60 wins, 20 draws, 20 losses: p = 0.7, per-game variance 0.6*0.3^2 + 0.2*0.2^2 + 0.2*0.7^2
    est = elo_from_wdl(60, 20, 20)
    se = math.sqrt((0.6 * 0.09 + 0.2 * 0.04 + 0.2 * 0.49) / 100)
    assert est.score == pytest.approx(0.7)
    assert est.elo == pytest.approx(elo_of(0.7))
    assert est.low == pytest.approx(elo_of(0.7 - Z95 * se))
    assert est.high == pytest.approx(elo_of(0.7 + Z95 * se))
    assert (est.results, est.units) == (100, 100)


@pytest.mark.parametrize("wdl", [(30, 20, 30), (1, 0, 1), (0, 7, 0), (250, 3, 250)])
def test_symmetric_results_give_zero_and_a_symmetric_interval(wdl):
    est = elo_from_wdl(*wdl)
    assert est.elo == 0.0
    assert est.low == pytest.approx(-est.high, abs=1e-9)
    assert est.low <= 0 <= est.high


def test_all_won_is_finite_with_a_lower_bound_only():
    est = elo_from_wdl(20, 0, 0)
    assert est.elo == pytest.approx(elo_of(1 - 1 / 40))
    assert est.high == est.elo            # the data give no upper bound: clamped at the estimate
    assert 0 < est.low < est.elo
    lost = elo_from_wdl(0, 0, 20)
    assert (lost.elo, lost.low, lost.high) == pytest.approx((-est.elo, -est.high, -est.low))


def test_pentanomial_uses_pairs_as_units():
    # every pair split 1-1 (seat luck, no skill difference): the pair scores have no variance,
    # while the same games read one by one (50 wins, 50 losses) have the largest
    pent = elo_from_pentanomial([0, 0, 50, 0, 0])
    tri = elo_from_wdl(50, 0, 50)
    assert pent.elo == tri.elo == 0.0
    assert pent.high - pent.low < 1e-9 < tri.high - tri.low
    # a hand computation: pair scores 0, 1/4, ... 1 with counts 1, 2, 3, 2, 2 (10 pairs)
    counts = [1, 2, 3, 2, 2]
    x = np.repeat([0, 0.25, 0.5, 0.75, 1], counts)
    se = x.std() / math.sqrt(len(x))
    est = elo_from_pentanomial(counts)
    assert est.score == pytest.approx(x.mean())
    assert (est.low, est.high) == pytest.approx((elo_of(x.mean() - Z95 * se),
                                                elo_of(x.mean() + Z95 * se)))
    assert est.units == 10 and est.results == 20
    with pytest.raises(EkonosError):
        elo_from_pentanomial([1, 2, 3])


def test_interval_covers_a_known_elo_about_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    true, draw, games, reps = 100.0, 0.2, 400, 300
    s = expected_score(true)
    wdl = rng.multinomial(games, [s - draw / 2, draw, 1 - s - draw / 2], size=reps)
    ests = [elo_from_wdl(*row) for row in wdl]
    covered = np.mean([e.low <= true <= e.high for e in ests])
    assert 0.91 <= covered <= 0.99
    assert np.mean([e.elo for e in ests]) == pytest.approx(true, abs=8)


def test_elo_estimate_refuses_bad_units():
    with pytest.raises(EkonosError):
        elo_estimate([], [])
    with pytest.raises(EkonosError):
        elo_estimate([3.0], [2.0])            # more points than results
    with pytest.raises(EkonosError):
        elo_estimate([1.0, 0.0], [1.0])


# -- Board Game Arena pairwise results ------------------------------------------------------------

def test_pairwise_results_of_a_four_player_game_with_a_tie():
    assert pairwise_results([10, 7, 10, 3]) == [
        (0, 1, 1.0), (0, 2, 0.5), (0, 3, 1.0), (1, 2, 0.0), (1, 3, 1.0), (2, 3, 1.0)]


def test_pairwise_results_counts_and_all_tied():
    assert pairwise_results([4, 4, 4]) == [(0, 1, 0.5), (0, 2, 0.5), (1, 2, 0.5)]
    assert pairwise_results([1, 2]) == [(0, 1, 0.0)]
    for p in range(2, 7):
        res = pairwise_results(list(range(p)))
        assert len(res) == p * (p - 1) // 2
        # points shared: each pair hands out exactly one point
        assert sum(x for _, _, x in res) + sum(1 - x for _, _, x in res) == len(res)


def test_head_to_head_counts_only_pairs_of_the_two_entrants():
    game = [("A", 5), ("B", 5), ("A", 3), ("B", 8)]
    # A(5)-B(5) tie, A(5)-B(8) loss, A(3)-B(5) loss, A(3)-B(8) loss; A-A and B-B pairs ignored
    assert head_to_head(game, "A", "B") == (0.5, 4)
    assert head_to_head(game, "B", "A") == (3.5, 4)
    assert head_to_head([("A", 1), ("C", 0), ("B", 2)], "A", "B") == (0.0, 1)
    assert head_to_head([("A", 1), ("C", 0)], "A", "B") == (0.0, 0)
    with pytest.raises(EkonosError):
        head_to_head(game, "A", "A")


def test_elo_between_takes_its_interval_from_games_not_pairs():
    # 4-player games seated A B A B; in 7 games A beats both Bs with both seats, in 3 it loses
    win = [("A", 9), ("B", 1), ("A", 8), ("B", 2)]
    loss = [("A", 1), ("B", 9), ("A", 2), ("B", 8)]
    est = elo_between([win] * 7 + [loss] * 3, "A", "B")
    assert est.score == pytest.approx(0.7) and est.results == 40 and est.units == 10
    se_games = math.sqrt(7 * (4 - 2.8) ** 2 + 3 * (0 - 2.8) ** 2) / 40
    assert (est.low, est.high) == pytest.approx((elo_of(0.7 - Z95 * se_games),
                                                elo_of(0.7 + Z95 * se_games)))
    se_pairs = math.sqrt(0.7 * 0.3 / 40)          # what treating pairs as games would claim
    assert est.high - est.low > 1.9 * (elo_of(0.7 + Z95 * se_pairs) - elo_of(0.7 - Z95 * se_pairs))


def test_elo_between_blocks_and_mixed_player_counts():
    two = [("A", 3), ("B", 1)]
    two_lost = [("B", 3), ("A", 1)]
    four = [("A", 5), ("B", 4), ("C", 9), ("B", 6)]
    games = [two, two_lost, four, two]
    est = elo_between(games, "A", "B")
    assert est.score == pytest.approx((1 + 0 + 1 + 1) / 5) and est.units == 4
    blocked = elo_between(games, "A", "B", block=2)
    assert blocked.score == est.score and blocked.units == 2
    # blocks (1 + 0) / 2 and (1 + 1) / 3 pooled: the variance is over the two blocks
    se = math.sqrt((1 - 0.6 * 2) ** 2 + (2 - 0.6 * 3) ** 2) / 5
    assert blocked.low == pytest.approx(elo_of(0.6 - Z95 * se))
    with pytest.raises(EkonosError):
        elo_between([[("A", 1), ("C", 2)]], "A", "B")
    with pytest.raises(EkonosError):
        elo_between(games, "A", "B", block=0)


# -- Plackett-Luce (openskill) --------------------------------------------------------------------

def gumbel_games(rng, strengths, n, players):
    names = list(strengths)
    games = []
    for _ in range(n):
        seats = rng.choice(names, size=players, replace=False)
        games.append([(str(s), float(strengths[s] + rng.gumbel())) for s in seats])
    return games


def test_plackett_luce_orders_known_strengths_and_is_deterministic():
    pytest.importorskip("openskill", reason="the optional extra 'ratings' (openskill) is missing")
    rng = np.random.default_rng(3)
    games = gumbel_games(rng, {"weak": 0.0, "mid": 1.0, "strong": 2.0, "top": 3.0}, 200, 3)
    r = plackett_luce(games)
    assert r["weak"].mu < r["mid"].mu < r["strong"].mu < r["top"].mu
    assert all(x.sigma < 25 / 3 for x in r.values())
    assert all(x.ordinal == pytest.approx(x.mu - 3 * x.sigma) for x in r.values())
    assert sum(x.games for x in r.values()) == 200 * 3
    assert plackett_luce(games) == r


def test_plackett_luce_ties_and_repeated_labels():
    pytest.importorskip("openskill", reason="the optional extra 'ratings' (openskill) is missing")
    tied = plackett_luce([[("A", 5), ("B", 5)]] * 10)
    assert tied["A"].mu == pytest.approx(tied["B"].mu)
    assert tied["A"].sigma < 25 / 3
    one = plackett_luce([[("A", 9), ("B", 1), ("C", 4)]])
    assert one["A"].mu > 25 > one["B"].mu and one["C"].mu == pytest.approx(25, abs=1.0)
    # A twice and B twice: A winning both seats moves further than from one seat
    double = plackett_luce([[("A", 9), ("B", 1), ("A", 8), ("B", 2)]])
    single = plackett_luce([[("A", 9), ("B", 1)]])
    assert double["A"].mu - 25 > single["A"].mu - 25 > 0
    assert double["A"].games == 1
    with pytest.raises(EkonosError):
        plackett_luce([[("A", 1)]])


def test_plackett_luce_names_the_missing_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(EkonosError, match="optional extra 'ratings'"):
        plackett_luce([[("A", 1), ("B", 2)]])
