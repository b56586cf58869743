"""The sequential test (search/sprt.py): LLR values, the test object, and its error rates checked
by simulation with synthetic results (no games are played)."""
import math

import numpy as np
import pytest

from ekonos import EkonosError
from search.lab.ratings import expected_score
from search.lab.sprt import (PENTANOMIAL, REGULARIZATION, TRINOMIAL, Sprt, block_score, bounds, llr,
                             model_for_players, sprt)

# -- the LLR ---------------------------------------------------------------------------------------


def test_wald_bounds():
    lo, hi = bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439, abs=1e-6) and hi == pytest.approx(2.944439, abs=1e-6)
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    for a, b in [(0, 0.05), (0.05, 1), (0.6, 0.5)]:
        with pytest.raises(EkonosError):
            bounds(a, b)


def constrained_loglik_trinomial(counts, s):
    """max over (loss, draw, win) probabilities with mean s of sum counts * log p: the draw
    probability d is the only free parameter and the log-likelihood is concave in it, so a
    golden-section search finds it, independently of the module's secular-equation solver."""
    c = np.where(np.asarray(counts, float) > 0, counts, REGULARIZATION)

    def ll(d):
        p = np.array([1 - s - d / 2, d, s - d / 2])
        return float((c * np.log(p)).sum()) if (p > 0).all() else -np.inf

    a, b = 0.0, 2 * min(s, 1 - s)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        x1, x2 = b - g * (b - a), a + g * (b - a)
        a, b = (a, x2) if ll(x1) > ll(x2) else (x1, b)
    return ll((a + b) / 2)


@pytest.mark.parametrize("counts", [[30, 40, 30], [10, 0, 25], [0, 3, 0], [101, 57, 140]])
@pytest.mark.parametrize("elo0,elo1", [(0, 10), (-3, 1), (0, 60)])
def test_trinomial_llr_is_the_generalized_likelihood_ratio(counts, elo0, elo1):
    want = (constrained_loglik_trinomial(counts, expected_score(elo1))
            - constrained_loglik_trinomial(counts, expected_score(elo0)))
    assert llr(counts, TRINOMIAL, elo0, elo1) == pytest.approx(want, abs=1e-7)


def test_pentanomial_llr_solves_the_secular_equation():
    """The MLE under each hypothesis is phat_i / (1 + x d_i): check it is a distribution with
    the hypothesis' mean, and that the LLR is the log-likelihood ratio of those two."""
    counts = np.array([3, 40, 100, 52, 5])
    p = counts / counts.sum()
    v = np.array(PENTANOMIAL)
    lls = []
    for elo in (-3, 1):
        s = expected_score(elo)
        d = v - s
        # x maximises the concave sum p log(1 + x d): a fine scan then bisection on its slope
        lo, hi = -1 / d.max() + 1e-12, -1 / d.min() - 1e-12
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if (p * d / (1 + mid * d)).sum() > 0 else (lo, mid)
        q = p / (1 + lo * d)
        assert q.sum() == pytest.approx(1) and (q * v).sum() == pytest.approx(s)
        lls.append((counts * np.log(q)).sum())
    assert llr(counts, PENTANOMIAL, -3, 1) == pytest.approx(lls[1] - lls[0], abs=1e-8)


def test_llr_properties():
    c = [10, 20, 45, 30, 12]
    assert llr(c, PENTANOMIAL, 0, 10) == pytest.approx(-llr(c, PENTANOMIAL, 10, 0))
    assert llr(c, PENTANOMIAL, 5, 5) == pytest.approx(0, abs=1e-12)
    # grows with the evidence: the same frequencies over 10 times the pairs, 10 times the LLR
    assert llr(np.array(c) * 10, PENTANOMIAL, 0, 10) == pytest.approx(
        10 * llr(c, PENTANOMIAL, 0, 10), rel=1e-3)
    # vectorised over leading axes
    many = np.array([[1, 2, 3, 4, 5], c, [0, 0, 7, 0, 0]])
    one_by_one = [llr(r, PENTANOMIAL, 0, 10) for r in many]
    assert llr(many, PENTANOMIAL, 0, 10) == pytest.approx(one_by_one)
    with pytest.raises(EkonosError):
        llr([1, 2], TRINOMIAL, 0, 10)
    with pytest.raises(EkonosError):
        llr([1, 2, 3], (0.25, 0.5, 0.75), 0, 10)


def test_llr_agrees_with_the_normal_approximation_for_many_games():
    # fishtest's GSPRT_approximation: N (s1 - s0) (2 mean - s0 - s1) / (2 var)
    c = np.array([1000, 4100, 10000, 4300, 1050])
    x = np.repeat(PENTANOMIAL, c)
    s0, s1 = expected_score(0), expected_score(5)
    approx = len(x) * (s1 - s0) * (2 * x.mean() - s0 - s1) / (2 * x.var())
    assert llr(c, PENTANOMIAL, 0, 5) == pytest.approx(approx, rel=0.02)


# -- the test object -------------------------------------------------------------------------------

def test_object_follows_the_llr_and_stops_at_the_first_crossing():
    rng = np.random.default_rng(5)
    t = sprt(0, 10)
    assert (t.model, t.state, t.llr, t.games) == ("pentanomial", "continue", 0.0, 0)
    assert t.elo() is None
    counts = np.zeros(5)
    while t.state == "continue":
        k = int(rng.choice(5, p=[0.05, 0.15, 0.4, 0.25, 0.15]))
        counts[k] += 1
        t.add_pair(k / 2)
        assert t.llr == pytest.approx(llr(counts, PENTANOMIAL, 0, 10))
    assert t.state == ("H1" if t.llr >= t.upper else "H0")
    assert t.games == 2 * t.units == 2 * counts.sum()
    r = t.result()
    assert (r["state"], r["games"], r["llr"]) == (t.state, t.games, t.llr)
    assert (r["lower"], r["upper"]) == pytest.approx(bounds(0.05, 0.05))
    assert sum(c for _, c in r["outcomes"]) == t.units
    assert r["elo"]["score"] == pytest.approx((counts * PENTANOMIAL).sum() / counts.sum())
    with pytest.raises(EkonosError, match="already accepted"):
        t.add_pair(1)


def test_object_models_and_bad_input():
    assert model_for_players(2) == "pentanomial" and model_for_players(4) == "block"
    t = sprt(0, 20, model="trinomial")
    t.add_game(1)
    t.add_game(0.5)
    assert t.units == t.games == 2
    with pytest.raises(EkonosError):
        t.add_game(0.25)                       # not a trinomial outcome
    with pytest.raises(EkonosError):
        t.add_pair(1)                          # wrong model
    with pytest.raises(EkonosError):
        Sprt(10, 0)
    with pytest.raises(EkonosError):
        Sprt(0, 10, model="heptanomial")
    with pytest.raises(EkonosError):
        sprt(0, 10).add_pair(2.5)


def test_block_of_two_players_is_the_pentanomial_pair():
    g1 = [("new", 30), ("old", 20)]          # new wins with seat 0
    g2 = [("old", 25), ("new", 25)]          # seats swapped: a tie
    assert block_score([g1, g2], "new", "old") == (0.75, 2)
    t = sprt(0, 10, players=2)
    t.add_block([g1, g2], "new", "old")
    assert t.outcomes()[1] == [0, 0, 0, 1, 0] and t.games == 2
    with pytest.raises(EkonosError):
        t.add_block([[("new", 1), ("old", 2), ("new", 3)]] * 3, "new", "old")


def test_block_of_four_players_uses_the_mean_pairwise_score():
    # seats A B A B rotated over a block of 4 games; each game has 4 A-B pairs
    block = [[("A", 5), ("B", 4), ("A", 3), ("B", 2)],      # A: 1 + 1 + 0 + 1 = 3
             [("B", 5), ("A", 5), ("B", 1), ("A", 0)],      # A: .5 + 1 + 0 + 0 = 1.5
             [("A", 9), ("B", 8), ("A", 7), ("B", 6)],      # A: 1 + 1 + 0 + 1 = 3
             [("B", 1), ("A", 2), ("B", 3), ("A", 4)]]      # A: 1 + 0 + 1 + 1 = 3
    assert block_score(block, "A", "B") == (10.5 / 16, 4)
    t = sprt(0, 10, players=4)
    t.add_block(block, "A", "B")
    values, counts = t.outcomes()
    assert values == [0.0, 10.5 / 16, 1.0] and counts == [0, 1, 0]
    assert t.llr == pytest.approx(llr([0, 1, 0], values, 0, 10))
    assert t.games == 4 and t.units == 1
    with pytest.raises(EkonosError):
        block_score([[("A", 1), ("C", 2)]], "A", "B")


# -- error rates by simulation ---------------------------------------------------------------------

def simulate(draw, tests, values, elo0, elo1, fill=REGULARIZATION, chunk=16):
    """Run `tests` SPRTs in lockstep with the module's vectorised `llr`: every unit is tested
    (as the object does), the LLR computed for `chunk` units at a time.  `draw(n, chunk)` gives
    outcome indices.  Returns per test whether H1 was accepted and the units it took."""
    lo, hi = bounds(0.05, 0.05)
    k = len(values)
    counts = np.zeros((tests, k))
    active = np.arange(tests)
    h1 = np.zeros(tests, dtype=bool)
    units = np.zeros(tests, dtype=int)
    while active.size:
        cum = counts[active][:, None, :] + np.cumsum(np.eye(k)[draw(active.size, chunk)], axis=1)
        stat = llr(cum, values, elo0, elo1, fill)
        hit = (stat >= hi) | (stat <= lo)
        stop, first = hit.any(1), hit.argmax(1)
        h1[active[stop]] = stat[stop, first[stop]] >= hi
        units[active] += np.where(stop, first + 1, chunk)
        counts[active] = cum[:, -1]
        active = active[~stop]
    return h1, units


def pair_probs(elo, draw=0.2, seat=0.15):
    """Pentanomial outcome probabilities of a pair of games on one deal: the deal favours one
    seat by +-`seat` in win probability (so the two games are correlated), mean score s."""
    s = expected_score(elo)
    out = np.zeros(5)
    for delta in (-seat, 0.0, seat):
        g1 = np.array([1 - s - delta - draw / 2, draw, s + delta - draw / 2])
        g2 = np.array([1 - s + delta - draw / 2, draw, s - delta - draw / 2])
        out += np.convolve(g1, g2) / 3
    return out


def game_probs(elo, draw=0.2):
    s = expected_score(elo)
    return np.array([1 - s - draw / 2, draw, s - draw / 2])


def drawer(rng, probs):
    return lambda n, chunk: rng.choice(len(probs), size=(n, chunk), p=probs)


@pytest.mark.parametrize("model,values,probs", [("pentanomial", PENTANOMIAL, pair_probs),
                                                ("trinomial", TRINOMIAL, game_probs)])
def test_false_positives_and_power_by_simulation(model, values, probs):
    """2,000 tests of H0 = 0 against H1 = +40 Elo: at the truth elo0, H1 is accepted at most
    alpha = 5% of the time (plus Monte-Carlo slack: sd 0.5%); at elo1, at least 1 - beta."""
    rng = np.random.default_rng(2024)
    fp, fp_units = simulate(drawer(rng, probs(0)), 2000, values, 0, 40)
    power, _ = simulate(drawer(rng, probs(40)), 2000, values, 0, 40)
    assert fp.mean() <= 0.07
    assert power.mean() >= 0.93
    assert fp.mean() > 0.01 and power.mean() < 0.995      # the test is not trivially strict
    assert fp_units.mean() < 400


def test_clearly_better_accepts_h1_in_few_games():
    """+200 Elo tested as [0, 10] (a small-gain test): every run accepts H1 within ~100 pairs."""
    rng = np.random.default_rng(11)
    h1, pairs = simulate(drawer(rng, pair_probs(200)), 300, PENTANOMIAL, 0, 10)
    assert h1.all()
    assert 2 * pairs.mean() < 300 and 2 * pairs.max() < 500


def four_player_blocks(rng, elo):
    """Blocks of 4 games, seats A B A B, Plackett-Luce finishing orders (Gumbel performances:
    every A-B pair is won by A with probability expected_score(elo)): the test bot's points per
    block out of its 16 A-B pairs."""
    gap = elo * math.log(10) / 400

    def draw(n, chunk):
        perf = rng.gumbel(size=(n, chunk, 4, 4)) + np.array([gap, 0, gap, 0])
        a, b = perf[..., [0, 2]], perf[..., [1, 3]]
        return (a[..., :, None] > b[..., None, :]).sum(axis=(2, 3, 4))
    return draw


def test_block_model_false_positives_and_power_by_simulation():
    values = np.arange(17) / 16
    fill = np.zeros(17)
    fill[[0, -1]] = REGULARIZATION       # the object's support: observed values plus 0 and 1
    rng = np.random.default_rng(99)
    fp, _ = simulate(four_player_blocks(rng, 0), 1000, values, 0, 40, fill)
    power, _ = simulate(four_player_blocks(rng, 40), 1000, values, 0, 40, fill)
    assert fp.mean() <= 0.075 and power.mean() >= 0.925


def replayer(seq):
    """A `draw` for one simulated test that replays a fixed outcome sequence."""
    pos = [0]

    def draw(n, chunk):
        assert n == 1 and pos[0] + chunk <= len(seq), "sequence too short for the test"
        pos[0] += chunk
        return seq[None, pos[0] - chunk:pos[0]]
    return draw


def test_the_simulation_is_the_objects_procedure():
    """The vectorised simulation and the Sprt object reach the same decision after the same
    number of units on the same outcomes (pentanomial pairs and 4-player blocks)."""
    rng = np.random.default_rng(4)
    seqs = rng.choice(5, size=(20, 4000), p=pair_probs(20))
    for seq in seqs:
        h1, units = simulate(replayer(seq), 1, PENTANOMIAL, 0, 40)
        t = sprt(0, 40)
        for k in seq:
            if t.add_pair(k / 2) != "continue":
                break
        assert (t.state == "H1", t.units) == (bool(h1[0]), int(units[0]))

    values = np.arange(17) / 16
    fill = np.where((values == 0) | (values == 1), REGULARIZATION, 0.0)
    blocks = four_player_blocks(np.random.default_rng(8), 20)(10, 2000)
    for seq in blocks:
        h1, units = simulate(replayer(seq), 1, values, 0, 40, fill)
        t = sprt(0, 40, players=4)
        for k in seq:
            if t.add(k / 16, 4) != "continue":
                break
        assert (t.state == "H1", t.units) == (bool(h1[0]), int(units[0]))
