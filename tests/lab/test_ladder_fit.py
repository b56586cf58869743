"""The ladder fit (search/ladder_fit.py): maximum-likelihood Elo of many specs, and its file."""
import json
import math

import numpy as np
import pytest

from ekonos import EkonosError
from search.lab.ladder_fit import (ELO_PER_NAT, FORMAT, VERSION, Ladder, append_games, fit,
                                   fit_file, game_record)
from search.lab.ratings import Z95, elo_from_score

TRUE = {"random": 0.0, "greedy": 150.0, "level1": 300.0, "level3": 450.0}


def simulated_games(seed, two_player=600, four_player=300):
    """Plackett-Luce finishing orders from Gumbel performances: in any game, spec i finishes
    above spec j with probability 1 / (1 + 10^((elo_j - elo_i) / 400)), the model's own."""
    rng = np.random.default_rng(seed)
    specs = list(TRUE)
    games = []
    for players, count in ((2, two_player), (4, four_player)):
        for _ in range(count):
            seats = [str(s) for s in rng.choice(specs, size=players, replace=False)]
            games.append([(s, float(TRUE[s] / ELO_PER_NAT + rng.gumbel())) for s in seats])
    order = rng.permutation(len(games))
    return [games[k] for k in order]


def test_recovers_the_order_and_gaps_of_known_specs():
    games = simulated_games(1)
    r = fit(games)
    assert list(r) == ["level3", "level1", "greedy", "random"]
    for spec, elo in TRUE.items():
        assert abs(r[spec].elo - elo) < 50, (spec, r[spec])
        assert r[spec].low <= elo <= r[spec].high, (spec, r[spec])
    # every spec sat in 2/4 of the 2-player games and in every 4-player game
    assert sum(x.games for x in r.values()) == 600 * 2 + 300 * 4
    assert all(x.games > 500 for x in r.values())


def test_anchor_is_zero_exactly_and_a_named_anchor_shifts_the_scale():
    games = simulated_games(2, 300, 100)
    r = fit(games)
    assert (r["random"].elo, r["random"].low, r["random"].high) == (0.0, 0.0, 0.0)
    g = fit(games, anchor="greedy")
    assert (g["greedy"].elo, g["greedy"].low, g["greedy"].high) == (0.0, 0.0, 0.0)
    for spec in TRUE:      # the prior and the likelihood only see differences
        assert g[spec].elo == pytest.approx(r[spec].elo - r["greedy"].elo, abs=1e-6)
    assert g["random"].high - g["random"].low > 0


def test_two_specs_match_the_closed_form():
    """One pair: the MLE is the Elo of the score fraction (with the virtual draw) and its
    Fisher interval is 1.96 / sqrt(n p (1 - p)) on the natural-log scale."""
    games = [[("random", 0), ("greedy", 1)]] * 70 + [[("greedy", 0), ("random", 1)]] * 25 \
        + [[("random", 3), ("greedy", 3)]] * 5
    r = fit(games, prior_draws=2)
    p = (70 + 2.5 + 1) / 102
    assert r["greedy"].elo == pytest.approx(elo_from_score(p), abs=1e-6)
    half = Z95 / math.sqrt(102 * p * (1 - p)) * ELO_PER_NAT
    assert (r["greedy"].low, r["greedy"].high) == pytest.approx(
        (r["greedy"].elo - half, r["greedy"].elo + half), abs=1e-6)
    assert r["greedy"].games == r["random"].games == 100


def test_ties_count_half_and_same_spec_pairs_count_nothing():
    tied = [[("random", 5), ("greedy", 5), ("random", 1)]] * 10 + \
           [[("greedy", 5), ("random", 5), ("greedy", 9)]] * 10
    # game 1: random-greedy tie, greedy beats the second random; game 2: tie, greedy(9) beats
    # random: greedy 10 x (0.5 + 1) + 10 x (0.5 + 1) = 30 of 40 pairwise points
    r = fit(tied, prior_draws=1e-9)
    assert r["greedy"].elo == pytest.approx(elo_from_score(0.75), abs=1e-4)
    draws = fit([[("random", 1), ("greedy", 1)]] * 20)
    assert draws["greedy"].elo == pytest.approx(0.0, abs=1e-9)


def test_a_spec_that_never_lost_stays_finite():
    games = [[("random", 0), ("greedy", 1)]] * 50 + [[("greedy", 1), ("level1", 2)]] * 50
    r = fit(games)
    assert all(math.isfinite(x.elo) and math.isfinite(x.high) for x in r.values())
    assert r["level1"].elo > r["greedy"].elo > 0
    # with one virtual draw a 50-0 record reads as 50.5 / 51
    assert r["greedy"].elo == pytest.approx(elo_from_score(50.5 / 51), abs=1e-6)
    with pytest.raises(EkonosError, match="prior_draws"):
        fit(games, prior_draws=0)


def test_deterministic_and_independent_of_game_order():
    games = simulated_games(3, 200, 50)
    a, b = fit(games), fit(games)
    assert a == b
    c = fit(list(reversed(games)))
    for spec in a:
        assert c[spec].elo == pytest.approx(a[spec].elo, abs=1e-9)
        assert c[spec].high == pytest.approx(a[spec].high, abs=1e-9)


def test_intervals_fisher_and_game_clustered():
    two = simulated_games(4, 400, 0)
    assert fit(two) == fit(two, intervals="fisher")            # auto: 2-player games only
    four = simulated_games(4, 0, 300)
    auto, fisher = fit(four), fit(four, intervals="fisher")
    assert auto == fit(four, intervals="robust")
    for spec in ("greedy", "level1", "level3"):
        assert auto[spec].elo == pytest.approx(fisher[spec].elo)
        # one finishing order decides all 6 pairs of a game: the honest interval is wider
        assert auto[spec].high - auto[spec].low > fisher[spec].high - fisher[spec].low
    with pytest.raises(EkonosError):
        fit(two, intervals="bootstrap")


def test_bad_inputs():
    with pytest.raises(EkonosError, match="anchor 'random' played no game"):
        fit([[("greedy", 1), ("level1", 2)]])
    with pytest.raises(EkonosError, match="level3"):
        fit([[("random", 1), ("greedy", 2)], [("level1", 1), ("level3", 2)]])
    with pytest.raises(EkonosError):
        fit([[("random", 1)]])
    with pytest.raises(EkonosError):
        fit([[("random", "1"), ("greedy", 2)]])
    with pytest.raises(EkonosError):
        fit([[("random", float("nan")), ("greedy", 2)]])


# -- the ladder file -------------------------------------------------------------------------------

def test_appending_equals_fitting_everything_at_once(tmp_path):
    games = simulated_games(5, 300, 100)
    path = tmp_path / "ladder.json"
    append_games(path, games[:150])
    ladder = append_games(path, games[150:])
    assert len(ladder.games) == len(games)
    assert fit_file(path) == fit(games)
    data = json.loads(path.read_text())
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert data["games"][0] == game_record(games[0])
    assert not (tmp_path / "ladder.json.tmp").exists()


def test_extra_fields_survive_a_round_trip(tmp_path):
    ladder = Ladder()
    ladder.add([("random", 3), ("greedy", 7)], [{"think_ms": 0.1}, {"think_ms": 12.5}],
               seed=11, players=2)
    path = tmp_path / "l.json"
    ladder.save(path)
    again = Ladder.load(path)
    assert again.games == ladder.games
    assert again.games[0]["seed"] == 11 and again.games[0]["seats"][1]["think_ms"] == 12.5
    assert again.seat_scores() == [[("random", 3), ("greedy", 7)]]
    with pytest.raises(EkonosError):
        game_record([("random", 3), ("greedy", 7)], [{}])


@pytest.mark.parametrize("content,message", [
    ("not json", "not valid JSON"),
    ('{"format": "something", "version": 1, "games": []}', "not a ladder file"),
    ('{"format": "ekonos-ladder", "version": 99, "games": []}', "version 99"),
    ('{"format": "ekonos-ladder", "version": 1, "games": {}}', "must be a list"),
    ('{"format": "ekonos-ladder", "version": 1, "games": [{"seats": [{"spec": "a", "score": 1}]}]}',
     "game 0"),
    ('{"format": "ekonos-ladder", "version": 1, "games": [{"seats": [{"spec": "a", "score": 1},'
     ' {"spec": 3, "score": 1}]}]}', "game 0"),
])
def test_a_bad_file_is_refused_and_left_alone(tmp_path, content, message):
    path = tmp_path / "l.json"
    path.write_text(content)
    with pytest.raises(EkonosError, match=message):
        append_games(path, [[("random", 1), ("greedy", 2)]])
    assert path.read_text() == content


def test_missing_file(tmp_path):
    with pytest.raises(EkonosError, match="no such file"):
        Ladder.load(tmp_path / "nope.json")
    assert Ladder.load(tmp_path / "nope.json", missing_ok=True).games == []
    with pytest.raises(EkonosError):
        Ladder().add([("random", 1)])


# -- a name that changes meaning (a level redefined) never pools two bots' games -------------

def test_a_seat_is_rated_under_its_name_while_the_name_means_what_it_played():
    from search.lab.ladder_fit import seat_label
    from search.bots import LEVELS
    assert seat_label({"spec": "level2", "score": 1}) == "level2"
    assert seat_label({"spec": "level2", "score": 1, "resolved": LEVELS[2]}) == "level2"
    assert seat_label({"spec": "level2@1", "score": 1, "resolved": LEVELS[2]}) == "level2@1"
    assert seat_label({"spec": "baseline", "score": 1,
                       "resolved": "ismcts:iterations=10000"}) == "baseline"


def test_a_seat_whose_name_now_means_another_bot_is_rated_apart():
    from search.lab.ladder_fit import seat_label
    then = {"spec": "level2", "score": 100, "resolved": "ismcts:iterations=777"}
    was = "level2 = ismcts:iterations=777,c=0.7,horizon=0,plain=0,root=uct"   # as it meant then
    assert seat_label(then) == was
    ladder = Ladder(games=[{"seats": [{"spec": "random", "score": 80},
                                      {"spec": "level2", "score": 120}]},
                           {"seats": [{"spec": "random", "score": 80}, then]}])
    assert set(ladder.fit()) == {"random", "level2", was}


def test_two_records_of_one_former_level_share_its_name():
    """A level recorded before specs named their model, and the same level recorded with the
    model it then read (eval-5ec0e708e0a8), are one bot, rated under one name; a level of
    another model is another."""
    from search.lab.ladder_fit import seat_label
    old = "ismcts:iterations=777,c=0.3,horizon=1,plain=1,root=halving"
    named = {"spec": "level3", "score": 1, "resolved": old + ",model=eval-5ec0e708e0a8"}
    bare = {"spec": "level3", "score": 1, "resolved": old}
    other = {"spec": "level3", "score": 1, "resolved": old + ",model=eval-0678b3d9c83c"}
    assert seat_label(named) == seat_label(bare) == f"level3 = {old},model=eval-5ec0e708e0a8"
    assert seat_label(other) not in (seat_label(named), "level3")


def test_the_ladder_records_what_each_seat_played():
    from search.bots import BASELINE, LEVELS, parse_params
    from search.lab.ladder import resolved
    assert parse_params(resolved("level3")) == parse_params(LEVELS[3])
    assert parse_params(resolved("level2@4")) == parse_params(LEVELS[2])
    assert parse_params(resolved("baseline")) == parse_params(BASELINE)
    assert resolved("random") == "random"
