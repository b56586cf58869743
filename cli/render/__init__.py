"""Terminal rendering of a position with rich, and the machine-readable summary of `show --json`.

    board.py    the map, companies, market, players, header line, scorepad
    hand.py     a seat's hand and what each card can do (the engine's legal moves)
    screens.py  whole screens: `render_state` (ekonos show), `play_board` (ekonos play)
    summary.py  the legal moves in one line; the JSON summary of `ekonos show --json`

Everything reads the state through its typed read API and `Move` values; nothing changes it.
Players' names are text, never markup.
"""
from cli.render.board import (CELL, COMPANY_STYLE, GAP, MAP_LAYOUT, MAP_POSITION, cname,
                              company_text, growth_table, header_text, map_text, market_table,
                              players_table, scorepad, short, spaces_text)
from cli.render.hand import card_line, card_moves, hand_panel, plays_a_card, seat_hand_panel
from cli.render.screens import play_board, render_state
from cli.render.summary import summarize_moves, summary_dict

__all__ = ["CELL", "COMPANY_STYLE", "GAP", "MAP_LAYOUT", "MAP_POSITION", "card_line",
           "card_moves", "cname", "company_text", "growth_table", "hand_panel", "header_text",
           "map_text", "market_table", "play_board", "players_table", "plays_a_card",
           "render_state", "scorepad", "seat_hand_panel", "short", "spaces_text",
           "summarize_moves", "summary_dict"]
