"""The SPRT by the win (search/lab/sprt.py, `by="win"`): Luce's model of who wins a game, its
LLR against an independent Bernoulli computation, its Elo, its error rates by simulation, and
the arena and `lab pool-sprt` reading it."""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import EkonosError
from search.lab import arena, pool_sprt
from search.lab.ratings import expected_score
from search.lab.sprt import Sprt, expected_share, seat_odds, win_value


def luce_share(elo: float, mine: int, theirs: int) -> float:
    """P(one of `mine` seats of strength 10^(elo/400) wins against `theirs` seats of strength 1),
    written out from the choice axiom."""
    s = 10.0 ** (elo / 400.0)
    return mine * s / (mine * s + theirs)


@pytest.mark.parametrize("elo", [-150.0, 0.0, 30.0, 400.0])
@pytest.mark.parametrize("mine, theirs", [(1, 1), (3, 2), (1, 3), (2, 1), (3, 3)])
def test_the_expected_share_is_luces(elo, mine, theirs):
    assert expected_share(elo, mine / theirs) == pytest.approx(luce_share(elo, mine, theirs))
    assert expected_share(elo) == pytest.approx(expected_score(elo))


def test_a_blocks_share_of_the_wins_splits_ties_and_leaves_other_bots_out():
    won = [("a", 1.0), ("b", 0.0), ("a", 0.0)]                  # (label, win) per seat
    lost = [("a", 0.0), ("b", 1.0), ("a", 0.0)]
    tied = [("a", 0.5), ("b", 0.5), ("a", 0.0)]                  # R20: the arena splits a tie
    assert win_value([won, lost], "a", "b") == (0.5, 2)
    assert win_value([won, won, lost, tied], "a", "b") == (pytest.approx(2.5 / 4), 4)
    other = [("a", 0.0), ("b", 0.0), ("c", 1.0)]             # a third bot's win counts for none
    assert win_value([won, other], "a", "b") == (1.0, 2)
    with pytest.raises(EkonosError, match="no game of the block was won"):
        win_value([other], "a", "b")
    assert seat_odds(won, "a", "b") == 2.0 and seat_odds(won, "b", "a") == 0.5
    with pytest.raises(EkonosError, match="does not seat both"):
        seat_odds(won, "a", "c")


def test_the_llr_of_single_games_is_the_bernoulli_one():
    """Units of one game each, won or lost: the GSPRT's LLR is then exactly the Bernoulli
    likelihood ratio of the two hypotheses' win probabilities."""
    odds, wins, losses = 1.5, 37, 21
    test = Sprt(0, 30, model="block", by="win", odds=odds)
    test.add_outcomes([(1.0, wins), (0.0, losses)], wins + losses)
    m0, m1 = luce_share(0, 3, 2), luce_share(30, 3, 2)
    want = wins * math.log(m1 / m0) + losses * math.log((1 - m1) / (1 - m0))
    assert test.llr == pytest.approx(want, rel=1e-9)


def test_the_elo_by_the_win_is_the_ratio_of_win_rates_per_seat():
    test = Sprt(0, 30, model="block", by="win", odds=1.5)
    test.add_outcomes([(1.0, 66), (0.0, 34)], 100)               # 66% of the games: 3 seats of 5
    per_seat = (0.66 / 3) / (0.34 / 2)
    assert test.elo().elo == pytest.approx(400 * math.log10(per_seat))
    low, high = test.elo().low, test.elo().high
    assert low < test.elo().elo < high
    score = Sprt(0, 30, model="block")                           # the same shares by score
    score.add_outcomes([(1.0, 66), (0.0, 34)], 100)
    assert score.elo().elo - test.elo().elo == pytest.approx(400 * math.log10(1.5))


def test_wrong_parameters_are_refused():
    with pytest.raises(EkonosError, match="scores by score or win"):
        Sprt(0, 30, by="rank")
    for odds in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(EkonosError, match="odds must be a positive number"):
            Sprt(0, 30, model="block", by="win", odds=odds)
    with pytest.raises(EkonosError, match="1 for a test by score"):
        Sprt(0, 30, model="block", odds=2.0)
    test = Sprt(0, 30, model="block", by="win", odds=2.0)
    with pytest.raises(EkonosError, match="seats 'a' and 'b' 0.5 to 1, not 2"):
        test.add_block([[("a", 0.0), ("b", 0.0), ("b", 1.0)]], "a", "b")


def simulate(elo: float, mine: int, theirs: int, runs: int, seed: int,
             limit: int = 3000) -> list[str]:
    """`runs` tests [0, 30] by the win on blocks of 5 games drawn from Luce's model."""
    rng = np.random.default_rng(seed)
    p = luce_share(elo, mine, theirs)
    states = []
    for _ in range(runs):
        test = Sprt(0, 30, model="block", by="win", odds=mine / theirs)
        while test.state == "continue" and test.units < limit:
            test.add(rng.binomial(5, p) / 5, 5)
        states.append(test.state)
    return states


def test_error_rates_by_simulation():
    """Equal bots are rarely called stronger; a bot 30 Elo stronger by the win rarely missed
    (alpha = beta = 0.05; Wald's bounds keep the rates at or below them, up to the noise of
    200 simulated tests each)."""
    h0 = simulate(0.0, 3, 2, 200, seed=1)
    h1 = simulate(30.0, 3, 2, 200, seed=2)
    assert h0.count("H1") / len(h0) <= 0.09
    assert h1.count("H0") / len(h1) <= 0.09
    assert h0.count("continue") + h1.count("continue") <= 4


def test_the_arena_runs_a_test_by_the_win_and_keeps_its_units_by_score_too():
    out = arena.run_arena(["greedy", "random"], 3, None, seed=3, sprt=(0, 100), sprt_by="win")
    t = out["sprt"]
    assert (t["by"], t["odds"], t["model"]) == ("win", 2.0, "block")   # A B A: 2 seats to 1
    assert t["state"] == "H1" and out["tally"]["units"] == t["units"]
    greedy, random = out["bots"]
    wins = [w for w, _ in greedy["blocks"]]
    shares = sorted(w / (w + r) for w, (r, _) in zip(wins, random["blocks"]))
    assert sum(c for _, c in t["outcomes"]) == len(shares) == t["units"]
    assert [v for v, c in t["outcomes"] for _ in range(c)] == pytest.approx(shares)
    again = pool_sprt.pool([out], by="win")[-1]
    assert again.llr == pytest.approx(t["llr"]) and again.state == "H1"
    by_score = pool_sprt.pool([out], bounds=(0, 100))[-1]         # its tally, by score
    assert by_score.units == t["units"] and by_score.llr != pytest.approx(t["llr"])


def shard(blocks_test, blocks_base, players=5, seed=1, sprt=None):
    """An arena --json result of two labels with these blocks ([wins, seat-games] each)."""
    run = {"players": players, "seed": seed,
           "bots": [{"bot": "a", "blocks": blocks_test}, {"bot": "b", "blocks": blocks_base}],
           "tally": {"test": "a", "base": "b", "model": "block", "games": 0, "units": 0,
                     "outcomes": []}}
    if sprt:
        run["sprt"] = sprt
    return run


def test_pool_sprt_reads_whole_blocks_by_the_win():
    whole = shard([[3, 15], [4, 15], [1, 15], [2, 9]], [[2, 10], [1, 10], [4, 10], [1, 6]])
    more = shard([[5, 15], [3, 15]], [[0, 10], [2, 10]], seed=2)
    steps = pool_sprt.pool([whole, more], bounds=(0, 30), by="win")
    fed = Sprt(0, 30, model="block", by="win", odds=1.5)
    fed.add_outcomes([(0.6, 1), (0.8, 1), (0.2, 1)], 15)          # the cut-short block left out
    assert steps[0].games == 15 and steps[0].llr == pytest.approx(fed.llr)
    fed.add_outcomes([(1.0, 1), (0.6, 1)], 10)
    assert steps[1].games == 25 and steps[1].llr == pytest.approx(fed.llr)
    assert steps[1].elo == pytest.approx(fed.elo().elo)


@pytest.mark.parametrize("run, words", [
    (shard([[3, 15]], [[2, 10]], players=7), "no player count from 2 to 6"),
    (shard([[3, 15], [1, 15]], [[2, 10]]), "blocks do not match"),
    (shard([[3, 9]], [[1, 6]]), "has no whole block"),
    (shard([[3, 15], [3, 20]], [[2, 10], [2, 5]]), "different numbers"),
    ({"players": 5, "tally": {"test": "a", "base": "b"}, "bots": []}, "keeps no blocks"),
])
def test_pool_sprt_by_the_win_refuses_what_it_cannot_read(run, words):
    with pytest.raises(ValueError, match=words):
        pool_sprt.pool([run], bounds=(0, 30), by="win")


def test_a_shards_own_bounds_count_by_the_win_only_when_its_test_was():
    by_score = {"test": "a", "base": "b", "model": "block", "by": "score", "elo0": 0.0,
                "elo1": 30.0, "alpha": 0.05, "beta": 0.05, "games": 5, "units": 1,
                "outcomes": [[0.5, 1]]}
    with pytest.raises(ValueError, match="say which test to pool them into"):
        pool_sprt.pool([shard([[3, 15]], [[2, 10]], sprt=by_score)], by="win")
    by_win = dict(by_score, by="win", odds=1.5, elo1=50.0)
    step = pool_sprt.pool([shard([[3, 15]], [[2, 10]], sprt=by_win)], by="win")[-1]
    assert step.upper == pytest.approx(math.log(0.95 / 0.05)) and step.units == 1


def test_the_commands_take_by_and_refuse_it_alone(tmp_path):
    f = tmp_path / "a.json"
    f.write_text(json.dumps(shard([[3, 15], [5, 15]], [[2, 10], [0, 10]])))
    r = CliRunner().invoke(main, ["lab", "pool-sprt", str(f), "--sprt", "0,30", "--by", "win"])
    assert r.exit_code == 0, r.output
    assert "by the win (Elo from the win rate per seat, 1.5 test seats to 1)" in r.output
    assert "10 games" in r.output
    r = CliRunner().invoke(main, ["lab", "pool-sprt", str(f), "--by", "rank"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["arena", "-p", "3", "--bot", "random", "--bot", "random@1",
                                  "-n", "3", "--sprt-by", "win"])
    assert r.exit_code == 2 and "give --sprt too" in r.output
