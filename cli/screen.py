"""The screen of a decision prompt in `ekonos play`: the table, what the other seats did since
your last decision ("Since your turn", the spaces they changed marked on the map), your hand
with what each card can do (or, under a hint, the hint's rows beside the table), the decisions
of the step and its question, in the richest form that fits the terminal with the prompt line
below it.

The forms, richest first: the layouts of cli/render/screens.py by width (wide, side, compact,
tight), then, where even tight does not fit (5 or 6 players at 80×24, a hint open), the
"since" block without what the cards are, the cards played this round left out, the question
left out (the header says whose step it is), the hand in two lines, then one, then the coming
expansions left out.  Under a hint,
from the compact layout down, the hand is in two lines (the hint names the moves).  What the
other seats did is never left out.
"""
from __future__ import annotations

from typing import NamedTuple

from rich.console import Console, Group, RenderableType
from rich.text import Text

from ekonos import State
from ekonos.rules import Step

from cli import render
from cli.events import Decision, since_last, spaces_changed
from cli.grammar import legal_list
from cli.panels import decisions_panel, hint_table, since_block, step_question, threat_block


class Form(NamedTuple):
    layout: str          # cli.render.screens.LAYOUTS
    since: str           # cli.panels.SINCE_FORMS
    played: bool         # the cards played this round (those the since block leaves out)
    hand: int            # 0: the hand with what each card can do; else in so many lines
    question: bool       # the step's question
    threats: bool = True # the coming expansions (cli.panels.threat_block)


def forms(width: int, hint: bool) -> list[Form]:
    """The forms to try for a terminal `width` columns wide, richest first."""
    start = render.LAYOUTS.index(render.layout_for(width))
    brief = 2 if hint else 0             # under a hint, from compact down: the hand in lines
    out = []
    for layout in render.LAYOUTS[start:]:
        if render.roomy(layout):
            out += [Form(layout, "lines", True, 0, True), Form(layout, "cards", True, 0, True)]
        else:
            out.append(Form(layout, "cards", True, brief, True))
    return out + [Form("tight", "short", True, brief, True),
                  Form("tight", "short", False, brief, True),
                  Form("tight", "short", False, brief, False),
                  Form("tight", "short", False, 2, False),
                  Form("tight", "short", False, 1, False),
                  Form("tight", "short", False, 1, False, False)]


def prompt_screen(console: Console, state: State, seat: int, decisions: tuple[Decision, ...],
                  width: int | None = None, height: int | None = None,
                  hint: dict | None = None) -> tuple[str, RenderableType]:
    """(layout, renderable) of the prompt of `seat` at `state` for a terminal of `width` ×
    `height` (the console's by default), one line left for the prompt.  `decisions`: the
    game's so far (what the others did since `seat`'s last one is taken from them); `hint`:
    a hint's result to show beside the table (cli.panels.hint_table)."""
    width = console.width if width is None else width
    height = console.height if height is None else height
    since = since_last(decisions, seat)
    first = not any(d.seat == seat for d in decisions)
    if first:             # a game taken over at another seat: this round's decisions only
        since = tuple(d for d in since if d.round == state.round)
    marked = spaces_changed(since)
    shown = [d.move.card for d in since if d.move.card in state.discard]
    names = state.names

    def build(form: Form) -> Group:
        cards_in_since = form.since != "short"
        played = [c for c in state.discard if not (cards_in_since and c in shown)] \
            if form.played else []
        parts: list[RenderableType] = [render.board_view(state, form.layout, width, seat,
                                                         marked=marked, played=played)]
        block = since_block(since, names, width, form.since, first=first)
        if block is not None:
            parts.append(block)
        threats = threat_block(state, seat) if form.threats else None
        if threats is not None:
            parts.append(threats)
        roomy = render.roomy(form.layout)
        if state.step is Step.CARD and state.to_move == seat and not form.hand:
            numbers = {m.action: i for i, m in enumerate(legal_list(state), 1)}
            parts.append(render.hand_choices(state, seat, numbers, roomy=roomy, width=width))
        else:
            parts.append(render.hand_line(state, seat, width=None if roomy else width,
                                          lines=form.hand or 1))
            if state.step is not Step.CARD:
                parts.append(decisions_panel(state, width, framed=roomy))
        if hint is not None:
            parts.append(hint_table(hint, names, width, compact=not roomy))
        if form.question:
            parts.append(Text.from_markup(f"[bold green]{step_question(state, seat)}[/]"))
        return Group(*parts)

    options = console.options.update(width=width)
    tried = forms(width, hint is not None)
    for form in tried:
        screen = build(form)
        if len(console.render_lines(screen, options, pad=False)) <= height - 1:
            return form.layout, screen
    return tried[-1].layout, screen
