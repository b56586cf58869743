"""The review board in the terminal (cli/review_board.py, `ekonos review --board`, the offer at
the end of `ekonos play`): every reviewed decision on a screen that fits 80×24 and 120×40, the
move played and the better one on the map, stepping, marks, jumps, the better move's line, and
a clear refusal without a terminal."""
from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from functools import lru_cache

import pytest
from click.testing import CliRunner
from helpers import random_record
from rich.console import Console

from cli.main import main
from cli.record import write_record
from cli.review_board import ReviewBoard
from search.review import review_game

ITERATIONS = 300


@lru_cache(maxsize=None)
def game():
    """A random 3-player game and the review of seat 0's decisions."""
    start, moves = random_record(3, 5)
    return start, tuple(moves), review_game(start, moves, seats=[0], iterations=ITERATIONS,
                                            seed=1, level=2)


def board(width: int, height: int, script=()):
    start, moves, review = game()
    console = Console(width=width, height=height, record=True, color_system=None,
                      file=io.StringIO())
    commands = iter(script)

    def answer(prompt: str) -> str:
        try:
            return next(commands)
        except StopIteration:
            raise EOFError from None
    return ReviewBoard(review, start, moves, 0, console, answer, line_iterations=ITERATIONS)


def text(b: ReviewBoard, width: int, height: int) -> list[str]:
    b.console.print(b.screen(width, height))
    return b.console.export_text(clear=True).rstrip("\n").split("\n")


@pytest.mark.parametrize("width,height", [(80, 24), (120, 40)])
def test_every_decision_fits_the_screen(width, height):
    b = board(width, height)
    for k in range(0, len(b.steps), 3):
        b.go(k)
        lines = text(b, width, height)
        assert len(lines) <= height - 1 and max(map(len, lines)) <= width, "\n".join(lines)
        d = b.steps[k].review
        joined = "\n".join(lines)
        assert f"decision #{d.ply}" in joined and "Played" in joined
        if d.best != d.played:             # a better move always says what it was worth
            assert "points lost" in " ".join(joined.split()), joined


def test_a_better_move_worth_under_a_tenth_of_a_point_says_so():
    """Shares are shown to the percent: a better move within 0.05 points reads as much as the
    move played, so the board says how little was lost rather than nothing."""
    b = board(80, 24)
    k = next(i for i, s in enumerate(b.steps) if s.review.best != s.review.played)
    b.steps[k] = replace(b.steps[k], review=replace(b.steps[k].review, loss=0.02, mark=None))
    b.go(k)
    assert "under 0.1 points lost" in " ".join("\n".join(text(b, 80, 24)).split())


def test_the_move_shown_is_on_the_map_and_b_swaps_it_for_the_better_one():
    b = board(120, 40)
    k = next(i for i, s in enumerate(b.steps)
             if s.review.played != s.review.best and s.review.played.startswith("play")
             and s.review.best.startswith("play")
             and b.steps[i].before.parse_move(s.review.best).space is not None
             and b.steps[i].before.parse_move(s.review.played).space is not None)
    b.go(k)
    d = b.steps[k].review
    played = b.steps[k].before.parse_move(d.played).space
    better = b.steps[k].before.parse_move(d.best).space
    capitals = re.compile(r"(?<!\d)(\d{1,2}) ?([A-Z]{3})")

    def marked(lines):
        return {int(n) for n, _ in capitals.findall("\n".join(lines))}
    if played != better:
        assert played in marked(text(b, 120, 40)) and better not in marked(text(b, 120, 40))
    b.command("b")
    lines = text(b, 120, 40)
    assert "map: the better move" in lines[0]
    assert better in marked(lines)
    b.command("b")
    assert "map: the better move" not in text(b, 120, 40)[0]


def test_stepping_marks_jumps_and_bad_commands():
    b = board(80, 24)
    assert b.at == 0
    b.command("p")
    assert b.at == 0                                      # stays at the first
    b.command("")
    b.command("n")
    assert b.at == 2
    marked = [i for i, s in enumerate(b.steps) if s.review.mark]
    if marked:
        b.go(0)
        b.command("m")
        assert b.at == marked[0]
        b.go(len(b.steps) - 1)
        b.command("M")
        assert b.at == marked[-1]
    ply = b.steps[5].review.ply
    b.command(str(ply))
    assert b.at == 5
    b.command("#999")
    assert b.at == 5 and "not a reviewed decision" in b.note
    b.command("xyzzy")
    assert "'xyzzy'?" in b.note
    assert b.command("q") is False


def test_the_better_moves_line_is_shown_with_who_plays_it():
    b = board(120, 40)
    k = next(i for i, s in enumerate(b.steps) if s.review.played != s.review.best)
    b.go(k)
    b.command("l")
    assert b.line and b.line[0] == b.steps[k].review.best
    joined = "\n".join(text(b, 120, 40))
    assert "Line: " in joined and "Anna: " in joined


def test_run_reads_until_q_or_the_end_of_input():
    b = board(80, 24, ["n", "n", "q"])
    b.run()
    assert b.at == 2
    b = board(80, 24, ["n"])
    b.run()                                               # EOF leaves quietly
    assert b.at == 1


def test_the_command_refuses_board_without_a_terminal(tmp_path):
    start, moves, _ = game()
    end = start.copy()
    for m in moves:
        end.push(m)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(write_record(end, start, list(moves), human=0, level=1,
                                            ai_seed=1, ply0=0)))
    r = CliRunner().invoke(main, ["review", str(path), "--board", "-i", "50"])
    assert r.exit_code == 2 and "--board" in r.output and "terminal" in r.output
    r = CliRunner().invoke(main, ["review", str(path), "--board", "--json", "-i", "50"])
    assert r.exit_code == 2 and "Traceback" not in r.output
