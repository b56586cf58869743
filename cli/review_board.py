"""The review board in the terminal (`ekonos review GAME --board`, and after the review at the
end of `ekonos play`): step through the reviewed decisions and see each on the board.

One screen a decision, fitted to the terminal (80×24 and up): a header (the decision's number
among the reviewed ones, its round, who decided and what), the table drawn *after* the move
shown, the spaces it changed in capitals and reverse (as the game marks the last moves), and
under it the move played and the review's better move with their win shares, the points lost
with the interval and the mark.  `b` swaps the move shown on the map (played ↔ better), `l`
plays out the better move's expected line (search.review.expected_line, from the decider's
view only), `n`/Enter and `p` step, `m`/`M` jump to the next/previous mark, a number jumps to
that decision, `q` leaves.

Every position shown is the reviewed seat's view (`State.view`): no other hand is drawn, and
the line is searched from that view, so the board reveals nothing the player could not see.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.text import Text

from cli import render
from cli.narration import move_label, read_line
from cli.panels import continuation_text
from cli.presentation import MARK_SIGN
from cli.render.review import MARK_STYLE, how_sure
from ekonos import State
from ekonos.errors import EkonosError
from ekonos.moves import Move
from search.review import DecisionReview, GameReview, expected_line

KEYS = ("n/Enter next · p back · m/M next/previous mark · 12: decision #12 · "
        "b played↔better on the map · l its line · q leave")
SHORT_KEYS = "n p · m M marks · # · b swap · l line · q"


@dataclass
class Step:
    """A reviewed decision and the position before it (the whole state: drawn as a view)."""

    review: DecisionReview
    before: State


class ReviewBoard:
    """Step through `review` of the game `start` + `moves` (decision numbers from `ply0` + 1);
    `input_fn(prompt)` reads a line (EOFError ends), `console` draws, its size fits the screen.
    `line_iterations`: the budget of an expected line (None: the review's)."""

    def __init__(self, review: GameReview, start: State, moves: Sequence[Move], ply0: int = 0,
                 console: Console | None = None, input_fn: Callable[[str], str] | None = None,
                 line_iterations: int | None = None) -> None:
        self.console = console or Console()
        self.input_fn = input_fn or (lambda prompt: self.console.input(prompt))
        self.review = review
        self.names = list(start.names)
        self.line_iterations = line_iterations or review.iterations
        st = start.copy()
        by_ply = {d.ply: d for d in review.decisions}
        self.steps: list[Step] = []
        for i, move in enumerate(moves, ply0 + 1):
            if i in by_ply:
                self.steps.append(Step(by_ply[i], st.copy()))
            st.push(move)
        self.at = 0
        self.better = False                 # the map shows the better move instead
        self.line: list[str] | None = None  # the better move's expected line, once asked
        self.note = ""

    # -- what a step looks like --------------------------------------------------------------
    def screen(self, width: int | None = None, height: int | None = None) -> RenderableType:
        """The screen of the current decision, fitted to `width` × `height` (the console's)."""
        width = self.console.width if width is None else width
        height = self.console.height if height is None else height
        step = self.steps[self.at]
        d = step.review
        seat = d.seat
        view = step.before.view(seat)
        shown = view.parse_move(d.best if self.better and d.best != d.played else d.played)
        after = view.copy()
        after.push(shown)
        marked = frozenset() if shown.space is None else frozenset({shown.space})
        below = self._below(step, width)

        def build(layout: str) -> Group:
            return Group(self._head(d, width), render.board_view(after, layout, width, seat,
                                                                 marked=marked), *below)

        _, screen = render.fit(self.console, build, height - 1, width)
        return screen

    def _head(self, d: DecisionReview, width: int) -> Text:
        k, total = self.at + 1, len(self.steps)
        who = self.names[d.seat]
        text = Text(f"Review · {k}/{total} · decision #{d.ply} · round {d.round} · ",
                    style="bold")
        text.append(f"{who}: {d.step}", style="bold cyan")
        if self.better and d.best != d.played:
            text.append("  (map: the better move)", style="bold green")
        text.truncate(width)
        return text

    def _below(self, step: Step, width: int) -> list[RenderableType]:
        d, names = step.review, self.names
        played = move_label(step.before.parse_move(d.played), names)
        best = move_label(step.before.parse_move(d.best), names)
        rows = Text()
        rows.append("Played  ", style="bold")
        rows.append(f"{played}  {d.win_played:.0%}")
        if d.best == d.played:
            rows.append("  — the review's choice too", style="green")
        else:
            rows.append("\nBetter  ", style="bold")
            rows.append(f"{best}  {d.win_best:.0%}", style="green")
            rows.append(f"  {d.loss:.1f}{how_sure(d)} points lost" if d.loss >= 0.05 else
                        "  under 0.1 points lost")
            if d.mark:
                rows.append(f"  {MARK_SIGN[d.mark]} {d.mark}", style=MARK_STYLE[d.mark])
        out: list[RenderableType] = [rows]
        if self.line is not None:
            seats, labels = read_line(step.before.view(d.seat), self.line)
            line = Text("Line: ", style="bold")
            line.append_text(continuation_text(labels, seats, names))
            out.append(line)
        if self.note:
            out.append(Text(self.note, style="yellow"))
        out.append(Text(KEYS if width >= 100 else SHORT_KEYS, style="dim"))
        return out

    # -- stepping ----------------------------------------------------------------------------
    def go(self, k: int) -> None:
        """To step `k` (clamped), the map back on the move played, no line."""
        self.at = max(0, min(len(self.steps) - 1, k))
        self.better, self.line = False, None

    def next_mark(self, direction: int) -> bool:
        """To the next marked decision after (1) or before (-1) this one; False if none."""
        k = self.at + direction
        while 0 <= k < len(self.steps):
            if self.steps[k].review.mark:
                self.go(k)
                return True
            k += direction
        return False

    def command(self, text: str) -> bool:
        """Do what `text` asks; False to leave."""
        cmd = text.strip()
        self.note = ""
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd in ("", "n", "next"):
            if self.at == len(self.steps) - 1:
                self.note = "That was the last reviewed decision (q leaves)."
            self.go(self.at + 1)
        elif cmd in ("p", "prev", "previous"):
            self.go(self.at - 1)
        elif cmd in ("m", "M"):
            if not self.next_mark(1 if cmd == "m" else -1):
                self.note = f"No marked decision {'after' if cmd == 'm' else 'before'} this one."
        elif cmd == "b":
            d = self.steps[self.at].review
            if d.best == d.played:
                self.note = "The move played is the review's choice: there is no other to show."
            self.better = not self.better and d.best != d.played
        elif cmd == "l":
            self._line()
        elif cmd.lstrip("#").isdigit():
            ply = int(cmd.lstrip("#"))
            k = next((i for i, s in enumerate(self.steps) if s.review.ply == ply), None)
            if k is None:
                plies = [s.review.ply for s in self.steps]
                self.note = (f"#{ply} is not a reviewed decision (reviewed: #{plies[0]} to "
                             f"#{plies[-1]}, {len(plies)} of them).")
            else:
                self.go(k)
        else:
            self.note = f"{cmd!r}? " + KEYS
        return True

    def _line(self) -> None:
        step = self.steps[self.at]
        d = step.review
        try:
            with self.console.status("Searching the better move's line…", spinner="dots"):
                self.line = expected_line(step.before.view(d.seat),
                                          step.before.parse_move(d.best),
                                          self.line_iterations, seed=d.seed,
                                          level=self.review.level)
        except EkonosError as e:            # a position the search cannot take: say why
            self.note = f"No line: {e}"

    def run(self) -> None:
        """Show a screen, read a command, until `q` or the end of input."""
        if not self.steps:
            self.console.print("No reviewed decision to step through.")
            return
        while True:
            self.console.print(self.screen())
            try:
                text = self.input_fn("review › ")
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not self.command(text):
                return
