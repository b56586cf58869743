"""The game review (search/review.py, `ekonos review`, the offer at the end of `ekonos play`):
planted blunders are marked, each decision is judged from its seat's view only, the review is
reproducible, and its JSON and text give each decision's loss, mark and the accuracy."""
from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from click.testing import CliRunner

from cli.record import write_record
from cli.render.review import review_report
from ekonos import State
from ekonos.moves import Move
from ekonos.rules import Step
from search.review import (MARKS, mark_of, move_accuracy, replay_record, review_decision,
                           review_game)

ITERATIONS = 600          # small budgets: the planted decisions are clear-cut


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("EKONOS_DATA_DIR", str(d))
    return d


def random_game(players: int, seed: int) -> tuple[State, list[Move]]:
    rng = random.Random(seed)
    start = State.new(players, seed=seed)
    st, moves = start.copy(), []
    while not st.is_over():
        m = rng.choice(list(st.legal_moves))
        moves.append(m)
        st.push(m)
    return start, moves


def record_of(start: State, moves: list[Move], human: int = 0) -> dict:
    end = start.copy()
    for m in moves:
        end.push(m)
    return write_record(end, start, moves, human=human, level=1, ai_seed=1, ply0=0)


def exact_share(st: State, seat: int) -> float:
    scores = st.scores()
    top = max(scores)
    winners = [q for q, s in enumerate(scores) if s == top]
    return 1.0 / len(winners) if seat in winners else 0.0


@lru_cache(maxsize=None)
def planted_game() -> tuple[State, list[Move], int, Move, Move]:
    """A random game whose last decision is a buy that decides the game: one option wins
    outright for the buyer, another loses outright (each known exactly: the game ends after
    it).  The losing one is planted.  (start, moves, index of the plant, plant, a winner)"""
    for seed in range(500):
        start, moves = random_game(3, seed)
        st = start.copy()
        for m in moves[:-1]:
            st.push(m)
        if st.step is not Step.BUY:
            continue
        seat = st.to_move
        outcome = {}
        for m in st.legal_moves:
            after = st.copy()
            after.push(m)
            if after.is_over():
                outcome[m] = exact_share(after, seat)
        wins = [m for m, v in outcome.items() if v == 1.0]
        losses = [m for m, v in outcome.items() if v == 0.0]
        if wins and losses:
            return start, moves[:-1] + [losses[0]], len(moves) - 1, losses[0], wins[0]
    raise AssertionError("no decisive last buy found")


# ---------------------------------------------------------------------------------------------
# the engine

def test_marks_follow_lichess_thresholds():
    assert [mark_of(x) for x in (0, 4.99, 5, 9.99, 10, 14.99, 15, 80)] == \
        [None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert move_accuracy(0) == pytest.approx(100, abs=0.01)
    assert move_accuracy(15) < move_accuracy(5) < move_accuracy(1) < 100
    assert move_accuracy(100) == 0
    assert dict((name, limit) for limit, name in MARKS) == \
        {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 15.0}


def test_a_planted_blunder_is_marked():
    start, moves, k, plant, winner = planted_game()
    review = review_game(start, moves, iterations=ITERATIONS, seed=3)
    d = next(d for d in review.decisions if d.ply == k + 1)
    assert d.played == str(plant)
    assert d.win_played == 0.0 and d.method == "exact"      # the game's last buy: solved
    assert d.loss >= 15 and d.mark == "blunder"
    assert d.low == d.high == d.loss
    after = start.copy()
    for m in moves[:k]:
        after.push(m)
    best = after.parse_move(d.best)
    after.push(best)
    assert exact_share(after, d.seat) > 0            # the better move does not lose
    assert d in review.costliest(3)
    assert review.accuracy(d.seat) < 100


def test_the_planted_decision_reviewed_alone_agrees():
    start, moves, k, plant, winner = planted_game()
    st = start.copy()
    for m in moves[:k]:
        st.push(m)
    alone = review_decision(st, plant, ITERATIONS, seed=5, ply=k + 1)
    assert alone.mark == "blunder" and alone.seat == st.to_move
    fine = review_decision(st, winner, ITERATIONS, seed=5, ply=k + 1)
    assert fine.loss < 5 and fine.mark is None


@pytest.mark.parametrize("players,seed", [(3, 11), (4, 12)])
def test_the_review_is_the_same_whatever_the_hidden_hands(players, seed):
    """R21: each decision is searched from its seat's view: re-dealing every hand that seat
    cannot see changes nothing."""
    start, moves = random_game(players, seed)
    st = start.copy()
    checked = 0
    for i, m in enumerate(moves[:40]):
        if i % 4 == 0:
            seat = st.to_move
            other = st.copy()
            other.determinize(seat, 1000 + i)           # every other hand dealt anew
            hidden = [q for q in range(players) if q != seat and other.hand(q) != st.hand(q)]
            a = review_decision(st, m, 300, seed=i, ply=i + 1)
            b = review_decision(other, m, 300, seed=i, ply=i + 1)
            c = review_decision(st.view(seat), m, 300, seed=i, ply=i + 1)
            assert a == b == c
            checked += bool(hidden)
        st.push(m)
    assert checked >= 5


def test_the_review_is_reproducible_whatever_the_threads():
    start, moves = random_game(2, 4)
    moves = moves[:30]
    one = review_game(start, moves, iterations=300, seed=9, workers=1)
    two = review_game(start, moves, iterations=300, seed=9, workers=2)
    assert one.to_dict() == two.to_dict()
    other = review_game(start, moves, iterations=300, seed=10, workers=2)
    assert other.to_dict() != one.to_dict()


def test_seats_choose_whose_decisions_are_reviewed():
    start, moves = random_game(3, 6)
    moves = moves[:24]
    review = review_game(start, moves, seats=[1], iterations=200)
    st = start.copy()
    plies = []
    for i, m in enumerate(moves, 1):
        if st.to_move == 1:
            plies.append(i)
        st.push(m)
    assert [d.ply for d in review.decisions] == plies and review.seats == (1,)
    with pytest.raises(ValueError, match="seat must be 0-2"):
        review_game(start, moves, seats=[3])
    with pytest.raises(ValueError, match="iterations"):
        review_game(start, moves, iterations=0)


def test_replay_record_refuses_what_is_not_a_record():
    start, moves = random_game(2, 1)
    rec = record_of(start, moves[:10])
    st, got, ply0 = replay_record(rec)
    assert got == moves[:10] and ply0 == 0 and st == start
    with pytest.raises(ValueError, match="not a game record"):
        replay_record(start.to_dict())
    rec["play"]["moves"][3] = "play 99 place 1"
    with pytest.raises(ValueError, match=r"moves\[3\]"):
        replay_record(rec)


# ---------------------------------------------------------------------------------------------
# the command

def run(*args):
    from cli.main import main
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_review_command_json(tmp_path):
    start, moves, k, plant, winner = planted_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(start, moves)))
    r = run("review", path, "--json", "--iterations", ITERATIONS, "--seed", 2)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["format"] == "ekonos-review" and data["iterations"] == ITERATIONS
    assert data["seats"] == [0, 1, 2] and len(data["decisions"]) == len(moves)
    assert any(d["method"] == "exact" for d in data["decisions"])
    for d in data["decisions"]:
        # a mark goes by the lower end of the second look's interval; none without one
        assert d["mark"] == (None if d["low"] is None or d["loss"] == 0 else mark_of(d["low"]))
        if d["method"] == "exact":                 # the game's last decisions, solved
            assert d["low"] == d["high"] == d["loss"] and d["round"] == start.rounds
        elif d["low"] is None:
            assert d["method"] == "first"
        else:                                      # a second look; a deep one where it marked
            assert d["method"] == "second" and d["mark"] is None or d["method"] == "deep"
        if d["low"] is not None and d["loss"] > 0:
            assert d["low"] <= d["loss"] <= d["high"]
        assert 0 <= d["win_played"] <= 1 and 0 <= d["win_best"] <= 1
        assert d["loss"] == pytest.approx(max(0, d["win_best"] - d["win_played"]) * 100,
                                          abs=0.02)
    planted = data["decisions"][k]
    assert planted["played"] == str(plant) and planted["mark"] == "blunder"
    assert planted["ply"] in data["costliest"]
    losses = {d["ply"]: d["loss"] for d in data["decisions"]}
    assert [losses[p] for p in data["costliest"]] == sorted(
        (losses[p] for p in data["costliest"]), reverse=True)
    for row in data["summary"]:
        assert 0 <= row["accuracy"] <= 100
        assert row["blunder"] == sum(1 for d in data["decisions"]
                                     if d["seat"] == row["seat"] and d["mark"] == "blunder")
    assert data["result"] is not None and sum(data["result"]) == pytest.approx(1)
    again = run("review", path, "--json", "--iterations", ITERATIONS, "--seed", 2)
    assert json.loads(again.stdout) == data


def test_review_command_text_and_seat(tmp_path):
    start, moves, k, plant, winner = planted_game()
    st = start.copy()
    for m in moves[:k]:
        st.push(m)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(start, moves)))
    r = run("review", path, "--seat", st.to_move, "--iterations", ITERATIONS)
    assert r.exit_code == 0, r.output
    out = r.output
    for words in ("Decisions", "Expected win share", "The costliest decisions", "Accuracy",
                  "blunder", str(plant)):
        assert words in out, words
    assert out.count("%") > 10


def test_review_png(tmp_path):
    pytest.importorskip("matplotlib", reason="--png draws with the optional matplotlib")
    start, moves = random_game(2, 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(start, moves[:20])))
    png = tmp_path / "chart.png"
    r = run("review", path, "--iterations", 100, "--png", png)
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("review", path, "--iterations", 100, "--png", png)        # exists: refused
    assert r.exit_code == 2 and "already exists" in r.output


def test_review_png_without_matplotlib_is_one_clear_line(tmp_path, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    start, moves = random_game(2, 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(start, moves[:10])))
    r = run("review", path, "--png", tmp_path / "c.png")
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and "ekonos[plot]" in lines[0]
    assert not (tmp_path / "c.png").exists()


@pytest.mark.parametrize("content,message", [
    ("{not json", "not valid JSON"),
    (json.dumps(State.new(2, seed=1).to_dict()), "not a game record"),
])
def test_review_bad_files(tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_text(content)
    r = run("review", path)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
    r = run("review", tmp_path / "missing.json")
    assert r.exit_code == 2 and "no such file" in r.output


def test_a_game_through_the_real_command_then_its_review(data_dir):
    """`ekonos play` with piped input to the scorepad and its record; then `ekonos review` of
    that record, printed and as JSON."""
    from cli.main import main
    r = CliRunner().invoke(main, ["play", "--ai", "2", "--level", "1", "--seed", "5"],
                           input="1\n" * 600, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "Final scores" in r.output and "Type review" in r.output
    records = list((data_dir / "games").glob("*.json"))
    assert len(records) == 1 and str(records[0]) in r.output.replace("\n", "")
    record = json.loads(records[0].read_text())
    assert record["step"] == "over" and record["play"]["moves"]
    text = run("review", records[0], "--iterations", 150, "--seat", 0)
    assert text.exit_code == 0 and "Accuracy" in text.output
    data = json.loads(run("review", records[0], "--iterations", 150, "--json").stdout)
    person = [d for d in data["decisions"] if d["seat"] == 0]
    assert len(person) == sum(1 for row in data["summary"] if row["seat"] == 0
                              for _ in range(row["decisions"]))
    assert len(data["decisions"]) == len(record["play"]["moves"])
    assert data["result"][max(range(3), key=lambda q: data["result"][q])] > 0


def test_the_scorepad_offers_the_review(data_dir):
    from rich.console import Console

    from cli.commands.play import TerminalGame
    game = TerminalGame.new_game(ai=1, level=1, seed=8, console=Console(
        width=100, record=True, color_system=None),
        input_fn=lambda prompt: {"review? ›": "review", "board? ›": "board",
                                 "review ›": "q"}.get(prompt.strip(), "1"))
    game.session.review = lambda **kw: review_game(  # a small budget for the test
        game.session.start, [d.move for d in game.session.decisions], seats=[0],
        iterations=100, progress=kw.get("progress"))
    assert game.run() == 0
    text = game.console.export_text()
    assert "Final scores" in text and "Type review" in text
    assert "Accuracy" in text and "Expected win share" in text
    assert text.index("Final scores") < text.index("Accuracy")
    # then the board, at the first of the person's decisions, left with q
    assert "Type board" in text and "Review · 1/" in text
    assert text.index("Accuracy") < text.index("Review · 1/")


def test_report_renders_the_chart_and_summary():
    start, moves, k, plant, winner = planted_game()
    review = review_game(start, moves, seats=[0], iterations=150)
    from rich.console import Console
    c = Console(width=90, record=True, color_system=None)
    c.print(review_report(review, 90))
    text = c.export_text()
    assert "100% │" in text and "  0% │" in text and "result" in text
    assert max(len(line) for line in text.splitlines()) <= 90
