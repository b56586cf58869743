"""Whole screens: the position for `ekonos show` (`render_state`) and the board for `ekonos play`
(`play_board`), composed from the board's panels, the hand and the legal moves.
"""
from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.board import (growth_table, header_text, map_text, market_table,
                              players_table)
from cli.render.hand import hand_panel
from cli.render.summary import summarize_moves
from ekonos.rules import Step


def render_state(state) -> Group:
    """The whole position for a person: header, map, companies, market, players, hand, moves."""
    parts = [header_text(state),
             Panel(map_text(state), title="Map", title_align="left", expand=False),
             growth_table(state), Text(""), market_table(state), Text(""), players_table(state)]
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


def play_board(state, width: int = 80) -> Group:
    """The board for `ekonos play`: header (round, whose decision), map, growth tracks,
    market (shares per player, next price, president), players (coins, cards, score now).
    On a wide terminal (from about 130 columns) tables stand beside the map."""
    header = header_text(state)
    drawing = map_text(state)
    the_map = Panel(drawing, title="Map", title_align="left", expand=False)
    growth, market = growth_table(state), market_table(state)
    players = players_table(state)
    map_width = max(len(line) for line in drawing.plain.split("\n")) + 4   # border, padding
    if width >= map_width + 2 + 80:          # the companies and the players beside the map
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=map_width, no_wrap=True)
        grid.add_column()
        grid.add_row(the_map, Group(growth, Text(""), players))
        return Group(header, grid, market)
    if width >= map_width + 2 + 50:          # the companies beside the map
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=map_width, no_wrap=True)
        grid.add_column()
        grid.add_row(the_map, growth)
        return Group(header, grid, market, Text(""), players)
    return Group(header, the_map, growth, Text(""), market, Text(""), players)
