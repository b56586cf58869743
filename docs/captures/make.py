"""Text captures of `ekonos play` as a terminal shows it: the last HEIGHT lines at a prompt,
the prompt line included.  Run from the repository root:

    .venv/bin/python docs/captures/make.py

writes, for 80×24 and 120×40, `play-WxH.txt` (the card prompt after a round of AI turns, in
round 2 of a 4-player game at level 1, seed 7, you at seat 1) and `play-WxH-hint.txt` (the
same prompt after `hint`), `play-80x24-6p.txt` (the same in a 6-player game) and
`play-80x24-threat.txt` (the first such prompt with a forced expansion coming), and
`review-board-80x24.txt` / `review-board-120x40.txt`: the review board of a finished 3-player
game (level 1, the first seed from 7 whose review marks one of your decisions, you at seat 1)
at your first marked decision, the better move on the map at 120×40, with its line.  Your
decisions are drawn at random (seeded) in the play captures and taken by a seeded level-1 AI
in the review's, so the captures are the same every run.
"""
from __future__ import annotations

import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rich.console import Console  # noqa: E402

from cli.commands.play import TerminalGame  # noqa: E402
from cli.grammar import every_decision  # noqa: E402
from cli.review_board import ReviewBoard  # noqa: E402
from cli.session import GameSession  # noqa: E402
from ekonos.moves import Move  # noqa: E402
from ekonos.rules import Step  # noqa: E402
from ekonos.threats import expansion_threats  # noqa: E402
from search.review import GameReview  # noqa: E402

HERE = Path(__file__).resolve().parent


def capture(width: int, height: int, ai: int = 3, seed: int = 7, hint: bool = False,
            threat: bool = False) -> str:
    """The screen at the person's first card prompt of round 2 (after `hint` when asked; with
    `threat`, the first from round 2 on where a forced expansion is coming)."""
    console = Console(width=width, height=height, record=True, color_system=None,
                      file=io.StringIO())
    rng = random.Random(seed)
    shots: list[str] = []
    asked: list[str] = []
    game: TerminalGame

    def answer(prompt: str) -> str:
        st = game.session.state
        console.print(prompt, end="")
        if st.round >= 2 and not st.is_over() and st.step is Step.CARD and \
                (not threat or expansion_threats(st)):
            if hint and not asked:
                asked.append("hint")
                console.print("hint")
                return "hint"
            lines = console.export_text().rstrip("\n").split("\n")[-height:]
            shots.append("\n".join(line.rstrip() for line in lines))
            raise EOFError
        move = str(rng.choice(every_decision(st)))
        console.print(move)
        return move

    game = TerminalGame(GameSession.new(ai=ai, level=1, seed=seed, name="Ada", seat=1),
                        console=console, input_fn=answer)
    game.run()
    return shots[0]


def reviewed_game(seed: int) -> tuple[GameSession, GameReview]:
    """A whole 3-player game of level-1 AIs, the person's decisions taken by another level-1
    AI (a weak player: one who plays at random is rarely marked, docs/strength.md, "What the
    judge cannot see"), and its review."""
    s = GameSession.new(ai=2, level=1, seed=seed, name="Ada", seat=1)
    person = GameSession.new(ai=2, level=1, seed=seed + 100).bots[1]
    while not s.state.is_over():
        if s.human_to_move():
            s.decide(Move.from_action(person.choose(s.state.view(s.human),
                                                    seed=len(s.decisions))))
        else:
            s.play_ai()
    return s, s.review()


def review_board(sizes: list[tuple[int, int]], seed: int = 7) -> list[str]:
    """The review board of a whole 3-player game at each size: at the first marked decision of
    the person (the better move on the map and its line from 120 columns on), in the game of the
    first seed from `seed` whose review marks one of the person's decisions."""
    for seed in range(seed, seed + 20):
        s, review = reviewed_game(seed)
        if any(d.mark for d in review.of(s.human)[1:]):     # the board opens on the first
            break
    else:
        raise SystemExit("no game of 20 seeds with a marked decision of the person")
    moves = [d.move for d in s.decisions]
    shots = []
    for width, height in sizes:
        console = Console(width=width, height=height, record=True, color_system=None,
                          file=io.StringIO())
        script = iter(["m", "b", "l"] if width >= 120 else ["m"])

        def answer(prompt: str) -> str:
            console.print(prompt, end="")
            try:
                text = next(script)
            except StopIteration:
                lines = console.export_text().rstrip("\n").split("\n")[-height:]
                shots.append("\n".join(line.rstrip() for line in lines))
                raise EOFError from None
            console.print(text)
            return text
        ReviewBoard(review, s.start, moves, s.ply0, console, answer).run()
    return shots


def main() -> None:
    for (w, h) in ((80, 24), (120, 40)):
        (HERE / f"play-{w}x{h}.txt").write_text(capture(w, h) + "\n")
        (HERE / f"play-{w}x{h}-hint.txt").write_text(capture(w, h, hint=True) + "\n")
    (HERE / "play-80x24-6p.txt").write_text(capture(80, 24, ai=5) + "\n")
    (HERE / "play-80x24-threat.txt").write_text(capture(80, 24, threat=True) + "\n")
    for (w, h), shot in zip(((80, 24), (120, 40)), review_board([(80, 24), (120, 40)])):
        (HERE / f"review-board-{w}x{h}.txt").write_text(shot + "\n")
    print(f"captures written in {HERE}")


if __name__ == "__main__":
    main()
