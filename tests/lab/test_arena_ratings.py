"""Ratings in the arena: Elo with its interval and Plackett-Luce, in the JSON
and the table; the game records carry each seat's think time."""
import json

import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab import arena, ratings


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_two_players_elo_is_the_win_share_on_the_logistic_scale():
    r = arena.run_arena(["greedy", "random"], 2, 10, seed=4)
    greedy, rnd = r["bots"]
    (elo,) = r["ratings"]["elo"]
    assert (elo["bot"], elo["against"]) == ("greedy", "random")
    # 2 players: one pairwise result per game, a tie counts 1/2 as in the win share
    assert elo["score"] == pytest.approx(greedy["win_share"])
    assert elo["results"] == 10 and elo["units"] == 5          # 5 blocks (deals) of 2 games
    low, high = elo["ci95"]
    assert low <= elo["elo"] <= high
    assert elo["elo"] > 200                                     # greedy beats random


def test_a_tied_match_is_zero_elo_with_an_interval_around_it():
    games = [{"results": [{"entrant": 0, "score": s0}, {"entrant": 1, "score": s1}]}
             for s0, s1 in [(10, 5), (5, 10), (7, 7), (3, 9), (9, 3), (4, 4)]]
    out = arena.ratings(games, ["a", "b"], 2)
    (elo,) = out["elo"]
    assert elo["score"] == pytest.approx(0.5) and elo["elo"] == pytest.approx(0.0, abs=1e-9)
    assert elo["ci95"][0] < 0 < elo["ci95"][1]


def test_four_players_count_every_pair_of_seats_of_the_two_bots():
    r = arena.run_arena(["greedy", "random"], 4, 4, seed=2)     # seated A B A B
    (elo,) = r["ratings"]["elo"]
    assert elo["results"] == 4 * 4       # 4 A-B seat pairs per game
    assert elo["units"] == 1             # one block: the games of one deal are one unit
    greedy, rnd = r["bots"]
    assert greedy["games"] == rnd["games"] == 8


def test_more_bots_give_the_first_against_each_and_a_skill_for_every_one():
    r = arena.run_arena(["greedy", "random", "random@1"], 3, 6, seed=8)
    assert [(e["bot"], e["against"]) for e in r["ratings"]["elo"]] == \
        [("greedy", "random"), ("greedy", "random@1")]
    skill = {s["bot"]: s for s in r["ratings"]["plackett_luce"]}
    assert set(skill) == {"greedy", "random", "random@1"}
    for s in skill.values():
        assert s["ordinal"] == pytest.approx(s["mu"] - 3 * s["sigma"]) and s["games"] == 6
    assert skill["greedy"]["mu"] > max(skill["random"]["mu"], skill["random@1"]["mu"])


def test_json_keeps_its_keys_and_adds_the_ratings():
    out = json.loads(run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "-n", 4,
                         "--seed", 1, "--json").output)
    assert {"players", "games", "seed", "variant", "bots"} <= set(out)
    assert set(out["ratings"]) == {"elo", "plackett_luce"} and out["stopped"] is None
    assert "sprt" not in out
    assert set(out["ratings"]["elo"][0]) == {"bot", "against", "elo", "ci95", "score",
                                             "results", "units"}


def test_the_table_shows_elo_and_plackett_luce():
    r = run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "-n", 4)
    assert r.exit_code == 0
    assert "Elo against greedy" in r.output and "(reference)" in r.output
    assert "PL mu" in r.output and "±" in r.output


def test_without_openskill_the_rest_still_shows(monkeypatch):
    def missing():
        raise ratings.EkonosError("the Plackett-Luce rating needs the optional extra 'ratings'")
    monkeypatch.setattr(ratings, "_plackett_luce_model", missing)
    r = run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "-n", 2)
    assert r.exit_code == 0 and "optional extra 'ratings'" in r.output
    out = json.loads(run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "-n", 2,
                         "--json").output)
    assert out["ratings"]["plackett_luce"] is None and out["ratings"]["elo"]


def test_game_records_carry_each_seats_think_time():
    game = arena.play_game(["random", "ismcts:iterations=30"], 2, seed=3, game=1)
    decisions = [r["decisions"] for r in game["results"]]
    assert all(d > 20 for d in decisions)
    for r in game["results"]:
        assert 0 <= r["think_median"] and r["think"] >= r["think_median"]


def test_an_offset_entrant_is_the_same_bot_with_other_seeds():
    assert arena.split_label("level2@3") == ("level2", 3)
    assert arena.split_label("ismcts:iterations=5 @ 12") == ("ismcts:iterations=5", 12)
    assert arena.split_label("greedy") == ("greedy", 0)
    for bad in ("greedy@0", "nonsense@1"):
        with pytest.raises(ValueError):
            arena.split_label(bad)
    a = arena.play_game(["random", "random@1"], 2, seed=5, game=0)
    b = arena.play_game(["random", "random"], 2, seed=5, game=0)
    assert [r["score"] for r in a["results"]] != [r["score"] for r in b["results"]]


@pytest.mark.parametrize("bot, words", [("greedy@0", "1 or more"), ("nope@2", "unknown bot")])
def test_bad_offsets_are_one_line(bot, words):
    r = CliRunner().invoke(main, ["arena", "-p", "2", "-n", "2", "--bot", "greedy", "--bot", bot])
    assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1
