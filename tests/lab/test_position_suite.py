"""The position suite (search/suite.py, search/suite_score.py, `ekonos suite`): positions are
views of the seat to move drawn from every step and round, references and scores never read a
hidden hand, the best move loses nothing, the few-visits rule, a random bot scores worse than a
search, an interrupted build resumes to the same file, and bad input is refused."""
from __future__ import annotations

import dataclasses
import json
import random
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State
from ekonos.errors import EkonosError
from ekonos.rules import PLAYER_TABLE, Step
from search import evaluation
from search.bots import BASELINE, parse_params, spec_text
from search.lab.suite import (BuildParams, Suite, build_suite, fill_references, load_suite,
                              new_suite, pool, quotas, reference_bot, reference_of,
                              resume_suite, sample_positions)
from search.lab.suite_score import (GIFT, best_move, decide, loss_of, move_value, score_suite)

FAST_MIX = ("greedy", "level1")


def tiny(**kw) -> BuildParams:
    base = dict(positions=8, iterations=400, seeds=2, seed=3, players=(2, 4), mix=FAST_MIX)
    return BuildParams(**{**base, **kw})


@lru_cache(maxsize=None)
def tiny_suite_file(tmp: str) -> Path:
    path = Path(tmp) / "suite.json"
    build_suite(tiny(), path, "test")
    return path


@pytest.fixture(scope="module")
def suite_path(tmp_path_factory) -> Path:
    return tiny_suite_file(str(tmp_path_factory.mktemp("suite")))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def mid_game(players: int, seed: int, plies: int) -> State:
    st, rng = State.new(players, seed=seed), random.Random(seed)
    for _ in range(plies):
        st.push(rng.choice(st.legal_actions()))
    return st


# -- positions ---------------------------------------------------------------------------------

def test_positions_are_views_of_the_seat_to_move(suite_path):
    data = json.loads(suite_path.read_text())
    assert len(data["positions"]) == 8
    for entry in data["positions"]:
        seat = State.from_dict(entry["position"]).to_move
        for q, player in enumerate(entry["position"]["players"]):
            if q != seat:
                assert player["hand"] is None          # never even stored
                assert player["hand_size"] >= 0
        if entry["step"] == "card":
            assert entry["position"]["players"][seat]["hand"]
        assert entry["legal"] >= 2
        assert State.from_dict(entry["position"]).count_legal() == entry["legal"]


def test_positions_cover_every_step_and_round_and_are_shared_by_counts():
    params = BuildParams(positions=60, iterations=10, seeds=1, seed=5, players=(2, 4),
                         mix=FAST_MIX)
    got = sample_positions(params)
    assert len(got) == 60
    by_count = {n: [p for p in got if p["players"] == n] for n in (2, 4)}
    assert {n: len(v) for n, v in by_count.items()} == quotas(60, (2, 4)) == {2: 30, 4: 30}
    for n, entries in by_count.items():
        steps = {p["step"] for p in entries}
        assert {"card", "expand-choice", "expand", "sell", "buy"} <= steps, steps
        assert {p["round"] for p in entries} == set(range(1, PLAYER_TABLE[n].rounds + 1))
    # interleaved: any prefix is spread over the counts
    assert {p["players"] for p in got[:4]} == {2, 4}


def test_quotas_favour_two_and_four_players():
    q = quotas(200, (2, 3, 4, 5, 6))
    assert sum(q.values()) == 200
    assert q[2] == q[4] > q[3] > 0 and q[4] > q[5] > 0 and q[6] > 0


# -- references --------------------------------------------------------------------------------

def swapped_hidden_hands(st: State) -> State:
    """The same position, as the seat to move sees it, with two other hands exchanged."""
    seat = st.to_move
    others = [q for q in range(st.nplayers) if q != seat and st.hand_size(q) > 0]
    a, b = others[0], next(q for q in others[1:] if st.hand_size(q) == st.hand_size(others[0]))
    other = st.copy()
    ha, hb = st.hand(a), st.hand(b)
    assert ha != hb
    other.set_hand(a, hb)
    other.set_hand(b, ha)
    return other


def test_reference_and_score_never_read_hidden_hands():
    st = mid_game(4, seed=5, plies=30)
    other = swapped_hidden_hands(st)
    assert other != st
    assert st.view(st.to_move).to_dict() == other.view(st.to_move).to_dict()
    ref = reference_of(st, 600, 2, seed=9)
    assert ref == reference_of(other, 600, 2, seed=9)
    assert ref == reference_of(st.view(st.to_move), 600, 2, seed=9)
    entries = [{"id": 0, "players": 4, "step": str(x.step),
                "position": x.view(x.to_move).to_dict(), "reference": ref} for x in (st, other)]
    a, b = (decide(e, "ismcts:iterations=300", seed=4) for e in entries)
    assert (a.move, a.loss) == (b.move, b.loss)
    judge = "ismcts:horizon=1,plain=1,c=0.3"          # another judge: the same guarantee
    ref = reference_of(st, 600, 2, seed=9, reference=judge)
    assert ref == reference_of(other, 600, 2, seed=9, reference=judge)


def test_pool_sums_visits_and_wins_over_seeds():
    parts = [{"seed": 0, "moves": {"pass": [30, 12.0], "buy Crown": [10, 1.0]}},
             {"seed": 1, "moves": {"pass": [10, 2.0], "buy Hydra": [60, 30.0]}}]
    ref = pool(parts, 0.1)
    values = {m["move"]: (m["visits"], m["win"]) for m in ref["moves"]}
    assert values == {"pass": (40, 0.35), "buy Crown": (10, 0.1), "buy Hydra": (60, 0.5)}
    assert ref["iterations"] == 110 and ref["floor"] == 11 and ref["seeds"] == 2
    assert ref["seed_best"] == ["pass", "buy Hydra"]
    assert ref["moves"][0]["move"] == "buy Hydra"


def test_best_move_loses_nothing(suite_path):
    for entry in load_suite(suite_path).complete():
        ref = entry["reference"]
        assert loss_of(ref, best_move(ref)["move"]) == (0.0, True)
        assert sum(m["visits"] for m in ref["moves"]) == ref["iterations"]


def test_few_visits_rule():
    ref = {"floor": 100, "moves": [
        {"move": "a", "visits": 5000, "win": 0.40},
        {"move": "b", "visits": 900, "win": 0.30},
        {"move": "c", "visits": 100, "win": 0.25},
        {"move": "lucky", "visits": 20, "win": 0.90},      # few visits, a flattering figure
        {"move": "poor", "visits": 20, "win": 0.05}]}
    assert move_value(ref, "b") == (0.30, True)
    assert move_value(ref, "lucky") == (0.25, False)      # never above the lowest contender
    assert move_value(ref, "poor") == (0.05, False)       # its own figure when worse
    assert move_value(ref, "never-visited") == (0.25, False)
    assert best_move(ref)["move"] == "a" and loss_of(ref, "a")[0] == 0.0
    # the best is the contender of highest value, not the most visited
    ref["moves"][1]["win"] = 0.45
    assert best_move(ref)["move"] == "b" and loss_of(ref, "a")[0] == pytest.approx(5.0)
    ref["moves"][1]["win"] = 0.30
    assert loss_of(ref, "lucky")[0] == pytest.approx(15.0)
    assert loss_of(ref, "poor")[0] == pytest.approx(35.0)
    assert loss_of(ref, "poor")[0] >= GIFT


def test_random_scores_worse_than_a_search(tmp_path):
    # budgets large enough that a card step's ~200 moves are not all noise
    params = tiny(positions=16, iterations=20000, seeds=1, players=(2,), seed=11,
                  floor_share=0.01)
    suite = build_suite(params, tmp_path / "s.json")
    rnd = score_suite(suite, "random", seed=1)
    search = score_suite(suite, "ismcts:iterations=10000,c=0.7,horizon=0,plain=0,root=uct",
                         seed=1)
    assert rnd.overall.positions == search.overall.positions == 16
    assert rnd.overall.mean_loss > search.overall.mean_loss
    assert search.overall.best_rate > rnd.overall.best_rate
    assert set(rnd.by_players) == {2}
    assert sum(g.positions for g in rnd.by_step.values()) == 16


def test_an_interrupted_build_resumes_to_the_same_file(tmp_path, suite_path):
    path = tmp_path / "again.json"
    suite = new_suite(tiny(), "test")
    suite.save(path)

    def stop(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        fill_references(suite, path, stop)
    half = load_suite(path)
    assert half.searches_done() == 5 and 0 < len(half.complete()) < 8
    assert any(p["partial"] for p in half.positions)       # a position half searched
    resume_suite(path)
    assert path.read_bytes() == suite_path.read_bytes()


def test_build_params_are_checked():
    for bad in (dict(positions=0), dict(iterations=5), dict(seeds=0), dict(seed=-1),
                dict(players=(7,)), dict(mix=("nonsense",)), dict(floor_share=1.5),
                dict(reference="cheat"), dict(reference="greedy"), dict(reference=3),
                dict(reference="ismcts:time=1"), dict(reference="ismcts:nonsense=1")):
        with pytest.raises(EkonosError):
            tiny(**bad)


def level4_at(iterations: int) -> str:
    """Level 4's canonical spec, every parameter written, at the suite's `iterations`."""
    text = spec_text("level4")
    assert text.startswith("ismcts:iterations=75000,c=0.5,horizon=1,plain=1,root=halving,")
    assert text.endswith(f",model={evaluation.SHIPPED}")
    return text.replace("iterations=75000", f"iterations={iterations}")


def test_another_judge_scores_the_same_positions():
    """--reference changes the judge and nothing else: the same positions, other values, the
    judge written out in full (a level's meaning may change later), `baseline` by default."""
    plain = tiny(positions=4, seeds=1)
    judged = tiny(positions=4, seeds=1, reference="level4")
    assert plain.reference == BASELINE
    assert judged.reference == level4_at(400)
    a, b = new_suite(plain), new_suite(judged)
    assert [p["position"] for p in a.positions] == [p["position"] for p in b.positions]
    fill_references(a), fill_references(b)
    assert [p["reference"] for p in a.positions] != [p["reference"] for p in b.positions]
    assert Suite(judged, "", b.positions).to_dict()["build"]["reference"] == judged.reference


def test_the_judge_searches_the_suite_budget_with_every_player_count():
    """A judge whose spec sets budgets by player count (`iterfor`) searches the suite's
    iterations with every count, and is written out without them."""
    judged = tiny(reference="ismcts:iterations=9000,iterfor=2345:20,horizon=1")
    assert "iterfor" not in judged.reference and "iterations=400," in judged.reference
    bot = reference_bot(judged.iterations, judged.reference)
    assert {bot.params.budget(n) for n in range(2, 7)} == {400}
    assert reference_bot(300, "ismcts:iterations=9000,iterfor=4:20").params.budget(4) == 300


def test_score_refuses_a_bot_that_sees_every_hand(suite_path):
    with pytest.raises(EkonosError, match="every hand"):
        score_suite(load_suite(suite_path), "cheat:iterations=100")


# -- the command -------------------------------------------------------------------------------

def assert_error(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


def test_run_json_and_table(suite_path):
    r = run("suite", "run", "-f", suite_path, "-b", "greedy", "-b", "level1", "--json", "-q")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [b["bot"] for b in data["bots"]] == ["greedy", "level1"]
    for b in data["bots"]:
        assert b["positions"] == 8 and len(b["decisions"]) == 8
        assert 0 <= b["gift_rate"] <= 1 and b["loss_low"] <= b["mean_loss"] <= b["loss_high"]
        assert set(b["by_players"]) == {"2", "4"}
    again = run("suite", "run", "-f", suite_path, "-b", "greedy", "-b", "level1", "--json", "-q")
    strip = [{k: v for k, v in b.items() if k not in ("think_median", "decisions")}
             for b in data["bots"]]
    assert strip == [{k: v for k, v in b.items() if k not in ("think_median", "decisions")}
                     for b in json.loads(again.stdout)["bots"]]
    assert data["reference"] == BASELINE and data["iterations"] == 400 * 2
    table = run("suite", "run", "-f", suite_path, "-b", "greedy", "-q")
    assert table.exit_code == 0 and "greedy" in table.stdout and "mean loss" in table.stdout
    assert "judged by baseline x 400 x 2" in table.stdout


@pytest.mark.parametrize("content", ["", "{", "[]", '{"format": "ekonos-position"}',
                                     '{"format": "ekonos-suite", "version": 99}'])
def test_run_refuses_a_file_that_is_not_a_suite(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert "bad.json" in assert_error(run("suite", "run", "-f", path, "-b", "greedy"))


def test_run_refuses_missing_files_and_bad_specs(tmp_path, suite_path):
    assert_error(run("suite", "run", "-f", tmp_path / "none.json", "-b", "greedy"))
    assert_error(run("suite", "run", "-f", suite_path, "-b", "ismcts:iterations=-3"))
    assert_error(run("suite", "run", "-f", suite_path, "-b", "cheat"))
    assert_error(run("suite", "run", "-f", suite_path, "-b", "nonsense"))


def test_build_never_overwrites_and_resume_keeps_the_file_parameters(tmp_path, suite_path):
    path = tmp_path / "s.json"
    path.write_bytes(suite_path.read_bytes())
    before = path.read_bytes()
    assert "already exists" in assert_error(run("suite", "build", "-o", path, "-n", "3"))
    assert "other parameters" in assert_error(run("suite", "build", "-o", path, "--resume",
                                                  "--iterations", "999"))
    assert_error(run("suite", "build", "-o", path, "--resume", "--force"))
    assert_error(run("suite", "build", "-o", tmp_path / "no" / "s.json", "-n", "3"))
    assert path.read_bytes() == before
    done = run("suite", "build", "-o", path, "--resume", "-q")        # complete: nothing to do
    assert done.exit_code == 0 and path.read_bytes() == before


def test_build_and_resume_by_command(tmp_path):
    path = tmp_path / "c.json"
    r = run("suite", "build", "-o", path, "-n", "3", "-i", "200", "--seeds", "1", "-p", "2",
            "-q")
    assert r.exit_code == 0, r.output
    built = load_suite(path)
    assert len(built.complete()) == 3 and built.params.iterations == 200
    assert built.params.players == (2,) and {p["players"] for p in built.positions} == {2}
    assert built.command == f"ekonos suite build -o {path} --iterations 200 --seeds 1 " \
                            "--positions 3 -p 2 --seed 0"
    assert built.params.reference == BASELINE
    assert isinstance(built, Suite)


def test_build_with_another_judge_by_command(tmp_path):
    path = tmp_path / "j.json"
    r = run("suite", "build", "-o", path, "-n", "2", "-i", "200", "--seeds", "1", "-p", "2",
            "--reference", "level4", "-q")
    assert r.exit_code == 0, r.output
    built = load_suite(path)
    judge = level4_at(200)
    assert built.params.reference == judge and len(built.complete()) == 2
    assert built.command.endswith(f"--seeds 1 --reference {judge} --positions 2 -p 2 --seed 0")
    assert run("suite", "build", "-o", path, "--resume", "-r", "level4", "-q").exit_code == 0
    table = run("suite", "run", "-f", path, "-b", "greedy", "-q")
    # the judge's spec is folded when it is wider than the table: read the words without breaks
    assert f"judgedby{judge}x1" in "".join(table.stdout.split())
    msg = assert_error(run("suite", "build", "-o", path, "--resume", "-r", "baseline"))
    assert "--reference" in msg
    for bad in ("cheat", "ismcts:time=2", "ismcts:c=lots"):
        msg = assert_error(run("suite", "build", "-o", tmp_path / "x.json", "-n", "2",
                               "-r", bad))
        assert "reference" in msg or "spec" in msg
    assert not (tmp_path / "x.json").exists()


def test_positions_from_judges_the_same_positions_again(tmp_path, suite_path):
    path = tmp_path / "again.json"
    r = run("suite", "build", "-o", path, "--positions-from", suite_path, "-i", "300",
            "--seeds", "1", "-r", "ismcts:horizon=1,plain=1", "-q")
    assert r.exit_code == 0, r.output
    old, new = load_suite(suite_path), load_suite(path)
    assert [p["position"] for p in new.positions] == [p["position"] for p in old.positions]
    assert len(new.complete()) == len(old.positions)
    assert (new.params.iterations, new.params.seeds) == (300, 1)
    assert (new.params.seed, new.params.players) == (old.params.seed, old.params.players)
    judge = dataclasses.replace(parse_params("ismcts:horizon=1,plain=1")[1], iterations=300)
    assert parse_params(new.params.reference)[1] == judge
    assert new.command == (f"ekonos suite build -o {path} --iterations 300 --seeds 1 "
                           f"--reference {new.params.reference} --positions-from {suite_path}")
    before = suite_path.read_bytes()
    for args in (("-n", "3"), ("--seed", "4"), ("-p", "2"), ("--resume",)):
        assert_error(run("suite", "build", "-o", tmp_path / "y.json", "--positions-from",
                         suite_path, *args))
    assert_error(run("suite", "build", "-o", suite_path, "--positions-from", suite_path,
                     "--force"))
    assert_error(run("suite", "build", "-o", tmp_path / "y.json", "--positions-from",
                     tmp_path / "none.json"))
    assert suite_path.read_bytes() == before and not (tmp_path / "y.json").exists()
