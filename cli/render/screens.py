"""Whole screens, in layouts that fit the terminal: the board for `ekonos play` and `ekonos show`.

    compact   from 80 columns: the map in 55 columns, the companies (growth as digits, shares of
              each player, president) and the players beside it; from 100 columns the block
              beside the map draws the growth tracks.  80×24 holds the map, the companies, the
              players, the hand with its decisions and the prompt.
    tight     compact with the cards played this round in one line (when two do not fit).
    side      from 120 columns: the full map in its frame, the companies and players beside it.
    wide      from 160 columns: the full map; the companies' tracks and the players beside it;
              the market (shares per player, what a sale pays, the next price) below.
    report    `show` into a file or a pipe: everything stacked, nothing to fit.

`layout_for(width)` picks by width; `fit(console, build, lines)` tries the layouts from the one
the width allows down to compact and keeps the first whose rendering fits in `lines` lines
(a tall layout on a short terminal gives way to a smaller one).
"""
from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.board import (growth_table, header_text, map_text, market_table, played_text,
                              players_table)
from cli.render.compact import companies_block, players_block
from cli.render.hand import hand_panel
from cli.render.summary import summarize_moves
from ekonos.rules import Step

LAYOUTS = ("wide", "side", "compact", "tight")          # richest first
MIN_WIDTH = {"wide": 160, "side": 120, "compact": 0, "tight": 0}
MID_FROM = 100           # compact: from here the block beside the map draws the growth tracks


def layout_for(width: int) -> str:
    """The richest layout `width` columns hold (tight is compact's fallback, never chosen by
    width alone)."""
    return next(name for name in LAYOUTS if width >= MIN_WIDTH[name])


def roomy(layout: str) -> bool:
    """Whether panels of this layout may spell things out (full names, frames)."""
    return layout in ("wide", "side")


_MEASURE = Console(file=io.StringIO(), width=1000, color_system=None)


def _width(renderable: RenderableType) -> int:
    """Columns `renderable` takes at most (rich's measurement, no wrapping)."""
    return Measurement.get(_MEASURE, _MEASURE.options, renderable).maximum


def _block(state, seat: int | None, room: int, styles: tuple[str, ...]) -> RenderableType | None:
    """The companies and players block, in the richest of `styles` that fits in `room`
    columns (None when none does)."""
    for style in styles:
        block = Group(companies_block(state, seat, style), Text(""),
                      players_block(state, seat, style)) if style == "full" else \
            Group(companies_block(state, seat, style), players_block(state, seat, style))
        if _width(block) <= room:
            return block
    return None


def _beside(left: RenderableType, right: RenderableType) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_row(left, right)
    return grid


def board_view(state, layout: str, width: int, seat: int | None = None,
               marked: frozenset[int] = frozenset(), played: list[int] | None = None,
               label: str | None = None) -> Group:
    """The table (no hand) in `layout`: header, map, companies, players (market when wide),
    the cards played this round (or `played`, after `label`; none when empty).  `seat` is the
    person's (their shares and name stand out); the spaces `marked` stand out on the map.
    Beside the map goes the richest block that leaves the map whole."""
    cards = list(state.discard) if played is None else played
    if label is None:
        label = "played: " if layout in ("compact", "tight") else "played this round: "
    if layout in ("compact", "tight"):
        drawing = map_text(state, compact=True, marked=marked)
        room = width - _width(drawing) - 2
        right = _block(state, seat, room, ("mid", "narrow"))
        table = _beside(drawing, right) if right is not None else Group(   # under 80 columns
            drawing, companies_block(state, seat, "narrow"), players_block(state, seat, "narrow"))
        parts: list[RenderableType] = [header_text(state, played=False, compact=True,
                                                   width=width), table]
        if cards:
            parts.append(played_text(state, width, lines=1 if layout == "tight" else 2,
                                     label=label, cards=cards))
        return Group(*parts)
    the_map = Panel(map_text(state, marked=marked), title="Map", title_align="left",
                    expand=False)
    room = width - _width(the_map) - 2
    if layout == "side":
        right = _block(state, seat, room, ("full", "mid", "narrow"))
        parts = [header_text(state, played=False), _beside(the_map, right)]
    else:
        right = Group(growth_table(state), Text(""), players_table(state))
        parts = [header_text(state, played=False), _beside(the_map, right), market_table(state)]
    if cards:
        parts.append(played_text(state, width, lines=3, label=label, cards=cards))
    return Group(*parts)


def fit(console: Console, build: Callable[[str], RenderableType], lines: int | None,
        width: int | None = None) -> tuple[str, RenderableType]:
    """The richest layout whose rendering by `build(layout)` fits in `lines` lines of `width`
    (the console's width by default); compact when none does.  `lines` None: by width only."""
    width = console.width if width is None else width
    start = LAYOUTS.index(layout_for(width))
    options = console.options.update(width=width)
    for name in LAYOUTS[start:]:
        screen = build(name)
        if lines is None or name == LAYOUTS[-1]:
            return name, screen
        if len(console.render_lines(screen, options, pad=False)) <= lines:
            return name, screen
    raise AssertionError("unreachable")


def render_state(state, width: int | None = None) -> Group:
    """The whole position for `ekonos show`: the table in the layout `width` holds, the hand of
    the seat to move, the legal moves.  `width` None: the report layout (everything stacked,
    for a file or a pipe)."""
    if width is None:
        parts: list[RenderableType] = [
            header_text(state),
            Panel(map_text(state), title="Map", title_align="left", expand=False),
            growth_table(state), Text(""), market_table(state), Text(""), players_table(state)]
    else:
        parts = [board_view(state, layout_for(width), width)]
    hand = hand_panel(state)
    if hand is not None:
        parts.append(hand)
    if not state.is_over():
        moves = list(state.legal_moves)
        if state.step is not Step.CARD or len(moves) <= 12:
            parts.append(Text("Legal: " + (summarize_moves(moves, max_groups=40) or
                                           "none known (the hand is not in this position)")))
        else:
            parts.append(Text(f"{len(moves)} legal moves: play CARD place|protect SPACE, "
                              "or play CARD grow COMPANY"))
    return Group(*parts)


def play_board(state, width: int = 80, seat: int | None = None) -> Group:
    """The board for `ekonos play` in the layout `width` holds (no hand)."""
    return board_view(state, layout_for(width), width, seat)
