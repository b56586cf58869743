"""One judge (search/analysis.py, search/review.py): the hint and the review's first look are the
same search with the same budget rule, so the same position, level and seed give the same
figures; a mark is given only by the interval of a second look (the played and the best move
searched again side by side), then of a deeper one; accuracy says what a decided game does to it; the lab's
comparison of a review with a deeper one (search/lab/review_marks.py)."""
from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from helpers import mid_game, random_record, small_net_file

from cli.main import main
from cli.record import write_record
from ekonos import State, save_file
from search import review
from search.analysis import (JUDGE_FLOOR, JUDGE_LEVEL, analyse, judge_bot, judge_iterations,
                             level_params)
from search.bots import parse_spec
from search.lab.review_marks import by_method, compare, details
from search.network import POLICY_KIND
from search.review import (DEFAULT_ITERATIONS, DecisionReview, GameReview, mark_of,
                           move_accuracy, review_decision, review_game, t95)

ITERATIONS = 1500


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path / "data"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_one_budget_rule():
    """The review's default budget is the hint's: the judge's at its level, never below the
    floor (levels 1 and 2 advise with the floor, level 4 with its own budget)."""
    assert DEFAULT_ITERATIONS == judge_iterations(JUDGE_LEVEL)
    assert judge_iterations(1) == judge_iterations(2) == JUDGE_FLOOR
    assert judge_iterations(4) == level_params(4)["iterations"] > JUDGE_FLOOR


def test_the_judge_searches_its_own_budget_whatever_iterfor_says():
    """A hint or review at a level with budgets by player count searches the judge's budget:
    `iterfor` is part of the level's budget, not of how it searches."""
    params = parse_spec("ismcts:iterations=3000,iterfor=23456:50,c=0.5")[1]
    bot = judge_bot(params, iterations=400)
    st = State.new(3, seed=11)
    assert bot.params.c == 0.5 and bot.analyse(st.view(st.to_move)).iterations == 400


def test_the_judge_searches_every_move_without_a_levels_prior():
    """A level's policy prior keeps the root to its best moves; the judge does not take it: a
    hint or a review rates any move a player asks about or played."""
    prior = small_net_file(8, 8, seed=3, kind=POLICY_KIND)
    params = parse_spec(f"ismcts:iterations=3000,pnet=3:{prior},ptop=2,pweight=3:0.3")[1]
    bot = judge_bot(params, iterations=400)
    assert (bot.params.pnet, bot.params.pweight) == ("", "")
    st = State.new(3, seed=5)
    while st.count_legal() < 40:             # a wide root
        st.push(st.legal_actions()[st.count_legal() // 2])
    moves = bot.analyse(st.view(st.to_move), seed=1, line_length=0).moves
    assert len(moves) > 2                     # ptop=2 would have kept two


@pytest.mark.parametrize("level", [2, 3])
def test_hint_and_review_of_a_position_give_the_same_figures(level):
    st = mid_game(3, seed=5, decisions=110)
    hint = analyse(st, iterations=ITERATIONS, seed=77, params=level_params(level), top=100,
                   line_length=0)
    h1 = hint["moves"][0]
    d = review_decision(st, st.parse_move(h1["move"]), ITERATIONS, seed=77, level=level)
    assert (d.method, d.loss, d.best, d.mark) == ("first", 0.0, h1["move"], None)
    assert round(d.win_best, 4) == h1["win"] and round(d.win_best_raw, 4) == h1["win_raw"]
    # the hint's other rows: the review's first look reads them alike
    alike = 0
    for m in hint["moves"][1:]:
        d = review_decision(st, st.parse_move(m["move"]), ITERATIONS, seed=77, level=level)
        if d.method == "first":
            assert round(d.win_played, 4) == m["win"]
            assert d.best == (h1["move"] if d.loss > 0 else m["move"])
            alike += 1
    assert alike >= 1


def test_the_commands_agree_on_a_decision_of_a_game(tmp_path):
    """`ekonos review --json` gives each decision its first look's seed; `ekonos hint` on that
    position with that seed names the same best move with the same win share."""
    start, moves = random_record(3, 8)
    game = start.copy()
    for m in moves:
        game.push(m)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(write_record(game, start, moves, human=0, level=1, ai_seed=1,
                                              ply0=0)))
    r = run("review", record, "--json", "-i", 600, "--seed", 4, "--seat", 1)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["level"] == JUDGE_LEVEL and data["iterations"] == 600
    firsts = [d for d in data["decisions"] if d["method"] == "first" and d["round"] >= 3]
    assert firsts
    for d in firsts[-3:]:
        pos = start.copy()
        for m in moves[:d["ply"] - 1]:
            pos.push(m)
        path = tmp_path / f"pos-{d['ply']}.json"
        save_file(pos, path)
        h = run("hint", path, "--json", "-i", 600, "--seed", d["seed"], "--top", 500)
        assert h.exit_code == 0, h.output
        rows = {m["move"]: m for m in json.loads(h.stdout)["moves"]}
        best = json.loads(h.stdout)["moves"][0]
        assert rows[d["played"]]["win"] == d["win_played"]
        if d["loss"] > 0:
            assert best["move"] == d["best"] and best["win"] == d["win_best"]


def pairs_of(*raw: tuple[float, float]):
    """Second-look replicates: (played, best) raw win shares, 100 visits each."""
    return [((p, 100), (b, 100)) for p, b in raw]


def test_a_mark_goes_by_the_lower_end_of_the_second_looks_interval(monkeypatch):
    st = mid_game(3, seed=5, decisions=110)
    best = analyse(st, iterations=300, seed=1, params=level_params(JUDGE_LEVEL), top=1)
    move = next(m for m in st.legal_moves if str(m) != best["moves"][0]["move"])
    monkeypatch.setattr(review, "visit_floor", lambda iterations: 10 ** 9)   # always re-search
    monkeypatch.setattr(review, "DEEP_REPLICATES", 0)        # the deep look: its own test
    steady = pairs_of(*[(0.2, 0.8)] * 8)
    monkeypatch.setattr(review, "second_look", lambda *a: steady if a[4] else None)
    d = review_decision(st, move, 300, seed=1)
    assert d.method == "second" and d.low == d.high == d.loss >= 15 and d.mark == "blunder"
    # the same mean loss from replicates that disagree: not shown with confidence
    shaky = pairs_of(*[(0.2, 0.8), (0.5, 0.5)] * 4)
    monkeypatch.setattr(review, "second_look", lambda *a: shaky if a[4] else None)
    e = review_decision(st, move, 300, seed=1)
    assert e.loss == pytest.approx(d.loss / 2, abs=0.01) and e.low < e.loss < e.high
    assert e.mark == mark_of(e.low) and severity(e.mark) < severity(mark_of(e.loss))
    half = (e.high - e.low) / 2
    losses = [d.loss, 0.0] * 4
    sd = math.sqrt(sum((x - e.loss) ** 2 for x in losses) / 7)
    assert half == pytest.approx(t95(7) * sd / math.sqrt(8), abs=0.02)
    # the played move as good as the best on the second look: reported as the best
    even = pairs_of(*[(0.6, 0.5), (0.5, 0.6)] * 4)
    monkeypatch.setattr(review, "second_look", lambda *a: even if a[4] else None)
    f = review_decision(st, move, 300, seed=1)
    assert f.loss == 0 and f.mark is None and f.best == f.played


def test_a_mark_the_second_look_would_give_is_given_by_a_deeper_look(monkeypatch):
    """The second look's marks go to a deep look (DEEP_REPLICATES searches of DEEP_SHARE times
    the first look's budget on each move); its figures are shown and its lower end marks.  A
    decision the second look does not mark is not looked at again.  The deep look's searches
    draw from a seed stream of their own, not the second look's (which picked the decision)."""
    st = mid_game(3, seed=5, decisions=110)
    best = analyse(st, iterations=300, seed=1, params=level_params(JUDGE_LEVEL), top=1)
    move = next(m for m in st.legal_moves if str(m) != best["moves"][0]["move"])
    monkeypatch.setattr(review, "visit_floor", lambda iterations: 10 ** 9)   # always re-search
    calls, seeds = [], []

    def looks(second, deep):
        def look(view, actions, params, per_move, replicates, seed):
            calls.append((per_move, replicates))
            seeds.append(seed)
            return second if replicates == review.REPLICATES else deep
        monkeypatch.setattr(review, "second_look", look)
        calls.clear()

    blunder = pairs_of(*[(0.2, 0.8)] * review.REPLICATES)
    less = [(0.3, 0.6), (0.3, 0.55), (0.3, 0.65), (0.3, 0.6)][:review.DEEP_REPLICATES]
    looks(blunder, pairs_of(*less))                                     # less, and less sure
    d = review_decision(st, move, 300, seed=1)
    assert calls == [(round(300 * review.SECOND_SHARE), review.REPLICATES),
                     (300 * review.DEEP_SHARE, review.DEEP_REPLICATES)]
    assert seeds[0] != seeds[1]
    assert d.method == "deep" and d.low < d.loss < d.high and d.win_played_raw == 0.3
    assert d.mark == mark_of(d.low) is not None and severity(d.mark) < severity("blunder")
    assert d.visits_played == d.visits_best == 100 * review.DEEP_REPLICATES
    looks(blunder, pairs_of(*[(0.5, 0.5)] * review.DEEP_REPLICATES))   # the loss was depth's
    e = review_decision(st, move, 300, seed=1)
    assert e.method == "deep" and e.loss == 0 and e.mark is None and e.best == e.played
    looks(pairs_of(*[(0.5, 0.52)] * review.REPLICATES), blunder)        # 2 points: no mark
    f = review_decision(st, move, 300, seed=1)
    assert f.method == "second" and f.mark is None and len(calls) == 1


def severity(mark):
    return [None, "inaccuracy", "mistake", "blunder"].index(mark)


def decision(ply: int, seat: int, loss: float, win_best: float, mark=None, win_played=None):
    wp = win_best - loss / 100 if win_played is None else win_played
    return DecisionReview(ply=ply, seat=seat, round=1, step="card", played="pass",
                          best="pass", win_played=wp, win_best=win_best, loss=loss, mark=mark,
                          options=2, visits_played=1, visits_best=1, method="first",
                          win_played_raw=wp, win_best_raw=win_best)


def test_accuracy_says_what_a_decided_game_does_to_it():
    """Decisions taken when the best move had at most 2% (or the played one at least 98%)
    are decided: open accuracy leaves them out, and the JSON says how many there were."""
    ds = (decision(1, 0, 20.0, 0.5), decision(2, 0, 0.0, 0.4),
          decision(3, 0, 0.5, 0.01), decision(4, 0, 0.0, 0.0), decision(5, 0, 0.0, 0.99))
    g = GameReview(("A", "B"), (0,), 100, 0, ds)
    assert [d.decided for d in ds] == [False, False, True, True, True]
    assert g.decided_count(0) == 3
    assert g.open_accuracy(0) == pytest.approx((move_accuracy(20) + 100) / 2)
    assert g.accuracy(0) > g.open_accuracy(0)          # the decided decisions flatter it
    row = g.to_dict()["summary"][0]
    assert row["decided"] == 3 and row["open_accuracy"] == round(g.open_accuracy(0), 1)
    assert "open_accuracy" in g.to_dict()["accuracy"]


def test_marks_are_compared_with_a_deeper_review():
    first = [SimpleNamespace(ply=p, seat=0, mark=m) for p, m in
             [(1, "blunder"), (2, "blunder"), (3, "mistake"), (4, "mistake"), (5, "inaccuracy"),
              (6, None)]]
    deep = [SimpleNamespace(ply=p, seat=0, mark=m) for p, m in
            [(1, "blunder"), (2, "mistake"), (3, "blunder"), (4, None), (5, "inaccuracy"),
             (6, "mistake")]]
    rows = {r.kind: r for r in compare([(first, deep)])}
    assert (rows["blunder"].marks, rows["blunder"].confirmed, rows["blunder"].kept) == (2, 1, 2)
    assert (rows["mistake"].marks, rows["mistake"].confirmed, rows["mistake"].same,
            rows["mistake"].kept, rows["mistake"].new) == (2, 1, 0, 1, 1)
    assert rows["blunder+mistake"].confirmed == 2 and rows["blunder+mistake"].marks == 4
    assert (rows["all"].marks, rows["all"].confirmed) == (5, 3)


def test_the_marks_comparison_keeps_each_losing_decision_and_counts_by_method():
    def look(ply, mark, loss, method="second"):
        return SimpleNamespace(ply=ply, seat=1, mark=mark, loss=loss, low=loss - 1,
                               high=loss + 1, method=method)
    first = [look(1, "mistake", 11.0), look(2, None, 0.5), look(3, "blunder", 40.0, "exact"),
             look(4, None, 3.0)]
    deep = [look(1, "inaccuracy", 7.0), look(2, None, 0.0), look(3, "blunder", 40.0, "exact"),
            look(4, None, 1.0)]
    assert by_method([(first, deep)]) == {"second": {"marks": 1, "confirmed": 0},
                                          "exact": {"marks": 1, "confirmed": 1}}
    kept = details([(first, deep)])
    assert [(d["game"], d["ply"]) for d in kept] == [(0, 1), (0, 3), (0, 4)]   # ply 2: no loss
    assert kept[0]["first"]["mark"] == "mistake" and kept[0]["deep"]["loss"] == 7.0


def test_the_lab_command_reviews_twice_and_refuses_a_bad_record(tmp_path):
    start = State.new(2, seed=3)
    game, moves = start.copy(), []
    while not game.is_over() and len(moves) < 20:
        m = next(iter(game.legal_moves))
        moves.append(m)
        game.push(m)
    record = tmp_path / "g.json"
    record.write_text(json.dumps(write_record(game, start, moves, human=0, level=1, ai_seed=1,
                                              ply0=0)))
    r = run("lab", "review-marks", record, "-i", 60, "--factor", 2, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 1 and out["decisions"] == 20 and out["factor"] == 2
    kinds = {row["kind"]: row for row in out["rows"]}
    assert kinds["all"]["marks"] == sum(kinds[k]["marks"]
                                        for k in ("blunder", "mistake", "inaccuracy"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": 3}')
    r = run("lab", "review-marks", bad)
    assert r.exit_code == 2 and "bad.json" in r.output and "Traceback" not in r.output


def test_review_game_checks_replicates():
    start = State.new(2, seed=3)
    with pytest.raises(Exception, match="replicates"):
        review_game(start, [], replicates=1)
