"""Input that cannot surprise, and names where a seat number was: what was typed ahead for a
step the engine took for you is dropped with a note; a hint's rows outlive undo and redo to the
same position; successors and passes are named; the level is told in words; `ekonos hint` and
`ekonos review` into a file carry no padding."""
from __future__ import annotations

import io
import re

from click.testing import CliRunner
from rich.console import Console

from cli.commands.play import TerminalGame
from cli.main import main
from cli.narration import move_label, read_line, skipped_steps
from cli.panels import continuation_text, log_table
from cli.presentation import LEVEL_WORDS
from cli.session import GameSession
from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import Step
from helpers import position
from search.bots import LEVELS

NAMES = ["You", "Anna", "Bruno"]


def _card_position(coins: int, shares: dict | None = None) -> State:
    """Seat 0 to play a card, every hand dealt."""
    st = State.from_dict(position(3, hands={0: [3, 10, 20, 25, 30, 35]}, coins=[coins, 5, 5],
                                  shares=shares or {"Crown": [0, 2, 1]}, names=NAMES))
    st.determinize(0, 1)
    return st


def _quiet_grow(st: State) -> Move:
    """A card play that triggers no expansion (the turn goes straight to the sale)."""
    return next(m for m in st.legal_moves if m.kind is MoveKind.GROW
                and st.growth(m.company) + 1 not in (4, 6))


def test_the_steps_taken_for_you_are_told():
    for coins, shares, want in [(0, None, ("sell", "buy")),         # nothing to sell, nor buy
                                (9, None, ("sell",)),               # nothing to sell; buy asked
                                (9, {"Crown": [1, 2, 1]}, ())]:     # the sale is asked
        st = _card_position(coins, shares)
        move = _quiet_grow(st)
        after = st.copy()
        after.push(move)
        assert skipped_steps(st, after, move, 0) == want, (coins, shares)
        assert skipped_steps(st, after, move, 1) == ()             # only the person's own


class Typed:
    """What the person typed ahead, as the terminal would hand it over (once)."""

    def __init__(self, lines):
        self.lines, self.calls = list(lines), 0

    def __call__(self) -> list[str]:
        self.calls += 1
        lines, self.lines = self.lines, []
        return lines


def _play(st: State, answers: list[str], typed: Typed) -> str:
    console = Console(width=100, height=40, record=True, color_system=None, file=io.StringIO())
    answers = list(answers)

    def answer(prompt: str) -> str:
        if not answers:
            raise EOFError
        return answers.pop(0)
    TerminalGame(GameSession(st, 0, 1, ai_seed=3), console=console, input_fn=answer,
                 typed_ahead=typed).run()
    return console.export_text()


def test_what_was_typed_ahead_for_a_skipped_step_is_dropped_with_a_note():
    st = _card_position(0)
    move = _quiet_grow(st)
    typed = Typed(["n", "b pan"])
    text = _play(st, [str(move)], typed)
    assert typed.calls == 1
    assert re.search(r"Dropped what you typed ahead \(`n`, `b pan`\): your sell and buy steps "
                     r"were taken for you", " ".join(text.split())), text
    assert "unknown move" not in text


def test_nothing_is_dropped_when_every_step_is_asked():
    st = _card_position(9, {"Crown": [1, 2, 1]})
    typed = Typed(["n"])
    text = _play(st, [str(_quiet_grow(st)), "n", "n"], typed)
    assert typed.calls == 0 and "Dropped" not in text


def test_a_hint_outlives_undo_and_redo_to_the_same_position():
    s = GameSession(State.new(3, seed=11), 0, 1, ai_seed=11)
    s.hint(top=2)
    rows = s.hint_moves()
    assert len(rows) == 2
    s.decide("h1")
    assert s.decisions[-1].move == rows[0]
    while s.ai_to_move():
        s.play_ai()
    assert s.hint_moves() == ()                       # another position: no hint yet
    s.undo()
    assert s.hint_moves() == rows                     # back where the hint was given
    s.decide("h2")
    assert s.decisions[-1].move == rows[1]


def test_successors_and_passes_are_named():
    names = ["Ada", "Bruno", "Chiara"]
    assert move_label(Move(Step.SUCCESSOR, MoveKind.SUCCESSOR, seat=2), names) == \
        "successor Chiara"
    assert move_label(Move(Step.SELL, MoveKind.PASS)) == "sell: pass"
    assert move_label(Move(Step.BUY, MoveKind.PASS)) == "buy: pass"
    # a line of play: who makes each decision, a pass by its step, one name per run
    st = _card_position(9, {"Crown": [1, 2, 1]})
    card = str(_quiet_grow(st))
    seats, labels = read_line(st, [card, "pass", "pass"])
    assert seats == [0, 0, 0] and labels == [card, "sell: pass", "buy: pass"]
    assert continuation_text(labels, seats, NAMES).plain == f"You: {card}, sell: pass, buy: pass"


def test_the_log_names_a_successor():
    from cli.events import Decision
    d = Decision(1, 0, Move(Step.SUCCESSOR, MoveKind.SUCCESSOR, seat=2), 1, "")
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(log_table([d], ["Ada", "Bruno", "Chiara"]))
    assert "successor Chiara" in console.export_text()


def test_the_level_is_told_by_its_number_and_words():
    assert set(LEVEL_WORDS) == set(LEVELS)            # every level has its words
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    TerminalGame(GameSession(State.new(2, seed=1), 0, 1, ai_seed=1), console=console,
                 input_fn=lambda prompt: (_ for _ in ()).throw(EOFError)).run()
    first = console.export_text().splitlines()[0]
    assert "level 1 (beginner)" in first and "ismcts" not in first and "iterations" not in first


def test_verbose_play_shows_the_level_s_spec(tmp_path, monkeypatch):
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    out = CliRunner().invoke(main, ["play", "--ai", "1", "--level", "2", "--seed", "3",
                                    "--verbose"], input="quit\n")
    assert out.exit_code == 0, out.output
    first = out.output.splitlines()[0]
    assert "level 2 (easy)" in first and f"({LEVELS[2]})" in " ".join(out.output.split())


def test_hint_into_a_file_names_the_players_and_pads_nothing(tmp_path):
    st = _card_position(9, {"Crown": [1, 2, 1]})
    path = tmp_path / "p.json"
    path.write_text(st.to_json())
    out = CliRunner().invoke(main, ["hint", str(path), "--iterations", "2000"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert all(line == line.rstrip() for line in lines), out.output
    assert re.search(r"(You|Anna|Bruno): ", out.output), out.output


def test_review_into_a_file_pads_nothing(tmp_path):
    s = GameSession(State.new(2, seed=2), 0, 1, ai_seed=2)
    while not s.state.is_over():
        s.decide(next(iter(s.state.legal_moves))) if s.human_to_move() else s.play_ai()
    path = s.save(tmp_path / "game.json")
    out = CliRunner().invoke(main, ["review", str(path), "--seat", "0", "--iterations", "10",
                                    "--workers", "1"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert len(lines) > 20 and all(line == line.rstrip() for line in lines), out.output


def test_a_line_of_play_folds_between_moves_never_inside_one():
    labels = ["play 20 place 36", "sell Phoenix", "buy Panda", "play 6 protect 8"]
    line = continuation_text(labels, [1, 1, 1, 2], NAMES)
    assert line.plain == "Anna: play 20 place 36, sell Phoenix, buy Panda · Bruno: play 6 protect 8"
    for width in (24, 30, 41, 50):
        # as the hint tables show it: a cell of a column this wide
        out = Console(file=io.StringIO(), width=width, color_system=None)
        rows = ["".join(seg.text for seg in row) for row in out.render_lines(line)]
        assert all(len(r.rstrip()) <= width for r in rows), rows
        assert len(rows) > 1, rows                    # it had to fold
        # every move whole on one row, in order, nothing lost but the separators at a fold
        assert " ".join(r.strip() for r in rows).replace(" ·", "").replace("· ", "") == \
            line.plain.replace(" · ", " "), rows
        for label in labels:
            assert any(label in r for r in rows), (label, rows)
    wide = Console(file=io.StringIO(), width=200, color_system=None)
    assert ["".join(seg.text for seg in row).rstrip() for row in wide.render_lines(line)] == \
        [line.plain]                                  # unfolded where it fits
