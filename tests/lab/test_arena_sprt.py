"""`arena --sprt`: blocks until the LLR crosses a bound, in block order, the
same decision on any number of workers.  The procedure's error rates are checked by simulation
in tests/lab/test_sprt.py; here the arena drives it with real (cheap) games."""
import json

import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab import arena
from search.lab.backends import Backend
from search.lab.sprt import Sprt


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_a_clearly_better_bot_accepts_h1_and_the_report_is_complete():
    # --quiet: on a slow machine the progress log's line (every 30 s) would join the JSON
    r = run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "--sprt", "0,50",
            "--seed", 3, "--json", "--quiet")
    assert r.exit_code == 0
    out = json.loads(r.output)
    t = out["sprt"]
    assert t["state"] == "H1" and t["llr"] >= t["upper"] and out["stopped"] == "sprt"
    assert (t["test"], t["base"], t["elo0"], t["elo1"]) == ("greedy", "random", 0, 50)
    assert t["alpha"] == t["beta"] == 0.05 and t["model"] == "pentanomial"
    assert t["games"] == out["games"] == 2 * t["units"]
    # greedy won every pair; it stopped at the first crossing: one pair fewer would not decide
    assert t["outcomes"] == [[1.0, t["units"]]]
    test = Sprt(0, 50)
    for _ in range(t["units"] - 1):
        test.add_pair(2.0)
    assert test.state == "continue" and test.add_pair(2.0) == "H1"
    assert t["elo"]["elo"] > 0 and t["elo"]["ci95"][0] <= t["elo"]["elo"]


def test_a_bot_against_itself_accepts_h0():
    out = arena.run_arena(["random", "random@1"], 2, None, seed=1, sprt=(0, 50))
    t = out["sprt"]
    assert t["state"] == "H0" and t["llr"] <= t["lower"] and out["stopped"] == "sprt"
    assert t["elo"]["ci95"][0] < 50


def test_same_decision_on_one_or_two_workers():
    a = arena.run_arena(["greedy", "random@2"], 2, None, seed=9, sprt=(0, 200), workers=1)
    b = arena.run_arena(["greedy", "random@2"], 2, None, seed=9, sprt=(0, 200), workers=2)
    assert arena.untimed(a) == arena.untimed(b) and a["sprt"]["state"] == "H1"


class Reversed(Backend):
    """Runs its tasks, then hands them back newest first, as a slow early worker would."""

    slots = 6

    def __init__(self):
        self.todo = []

    def submit(self, key, fn, args):
        self.todo.append((key, fn(*args)))

    def wait(self):
        return [self.todo.pop()]

    def cancel(self):
        self.cancelled += len(self.todo)
        self.todo.clear()


def test_blocks_are_taken_in_block_order_and_the_rest_is_cancelled():
    backend = Reversed()
    a = arena.run_arena(["greedy", "random"], 2, None, seed=2, sprt=(0, 100), backend=backend)
    b = arena.run_arena(["greedy", "random"], 2, None, seed=2, sprt=(0, 100))
    assert arena.untimed(a) == arena.untimed(b) and a["stopped"] == "sprt"
    assert backend.cancelled > 0          # blocks submitted beyond the decision were dropped


def test_four_players_use_the_block_model():
    out = arena.run_arena(["greedy", "random"], 4, None, seed=3, sprt=(0, 100))
    t = out["sprt"]
    assert t["model"] == "block" and t["state"] == "H1" and out["games"] % 4 == 0


def test_the_game_limit_stops_an_undecided_test():
    out = arena.run_arena(["random", "random@1"], 2, 3, seed=1, sprt=(0, 5))
    assert out["stopped"] == "limit" and out["games"] == 4 and out["sprt"]["state"] == "continue"
    r = run("arena", "-p", 2, "--bot", "random", "--bot", "random@1", "--sprt", "0,5", "-n", 4)
    assert "without a decision" in r.output and "no decision" in r.output


def test_alpha_and_beta_move_the_bounds():
    out = json.loads(run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "--sprt",
                         "-10,40", "--alpha", 0.01, "--beta", 0.2, "--json",
                         "--quiet").output)["sprt"]
    assert out["alpha"] == 0.01 and out["beta"] == 0.2 and out["elo0"] == -10
    assert out["upper"] == pytest.approx(4.382, abs=1e-3)   # log(0.8 / 0.01)
    assert out["lower"] == pytest.approx(-1.599, abs=1e-3)  # log(0.2 / 0.99)


@pytest.mark.parametrize("args, words", [
    (["--sprt", "10,0"], "ELO0 < ELO1"),
    (["--sprt", "abc"], "two numbers"),
    (["--sprt", "0,5", "--alpha", "0"], "--alpha"),
    (["--sprt", "0,5", "--bot", "level1"], "compares two bots"),
    ([], "Missing option '--games'"),
])
def test_bad_sprt_options_are_one_line(args, words):
    base = ["arena", "-p", "3", "--bot", "greedy", "--bot", "random"]
    r = CliRunner().invoke(main, base + args)
    assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1


def test_the_table_says_which_hypothesis_was_accepted():
    r = run("arena", "-p", 2, "--bot", "greedy", "--bot", "random", "--sprt", "0,50")
    assert r.exit_code == 0
    assert "H1 accepted: greedy is stronger than random" in r.output and "LLR +" in r.output


def test_the_result_records_what_each_label_meant():
    """A level's spec changes when the levels are refit: the file says which spec it was."""
    from search.bots import LEVELS, parse_params
    r = run("arena", "-p", 2, "--bot", "level1", "--bot", "random@1", "-n", 2, "--seed", 4,
            "--json", "--quiet")
    assert r.exit_code == 0, r.output
    specs = json.loads(r.output)["specs"]
    assert set(specs) == {"level1", "random@1"} and specs["random@1"] == "random"
    assert specs["level1"].startswith("ismcts:") and "level" not in specs["level1"]
    assert parse_params(specs["level1"]) == parse_params(LEVELS[1])


@pytest.mark.parametrize("players, games", [(2, 6), (3, 7)])
def test_a_run_without_a_test_keeps_the_units_a_test_would_take(players, games):
    """Two bots and no --sprt: `tally` holds the whole blocks' units, the ones an SPRT of the
    same games counts (a part block at the end is left out), so shards of either kind pool."""
    specs = ["greedy", "random"]
    plain = arena.run_arena(specs, players, games, seed=5)
    whole = games // players
    t = plain["tally"]
    assert "sprt" not in plain and t["units"] == whole and t["games"] == whole * players
    tested = arena.run_arena(specs, players, whole * players, seed=5, sprt=(-1, 1))
    s = tested["sprt"]
    assert tested["stopped"] == "limit" and s["units"] == whole       # the same blocks, all fed
    assert (t["test"], t["base"], t["model"]) == ("greedy", "random", s["model"])
    assert t["outcomes"] == s["outcomes"] and sum(c for _, c in t["outcomes"]) == whole
    assert "tally" not in arena.run_arena(["greedy", "random", "random@1"], 3, 3, seed=5)
