"""Terminal rendering of a position with rich, and the machine-readable summary of `show --json`.

    board.py    the map (full or compact), companies, market, players, header, played cards,
                scorepad
    compact.py  the companies and the players in few columns, to stand beside the map
    hand.py     a seat's hand, one line a card, and what each card can do (the engine's moves)
    screens.py  the layouts (compact, side, wide, report) and whole screens: `render_state`
                (ekonos show), `board_view`/`fit` (ekonos play)
    summary.py  the legal moves in one line; the JSON summary of `ekonos show --json`

Everything reads the state through its typed read API and `Move` values; nothing changes it.
Players' names are text, never markup.
"""
from cli.presentation import COMPANY_STYLE, MAP_LAYOUT, MAP_POSITION, short
from cli.render.board import (CELL, GAP, card_text, cname, company_text, growth_table, header_text,
                              map_text, market_table, played_text, players_table, scorepad,
                              spaces_text, turn_text)
from cli.render.compact import companies_block, players_block
from cli.render.hand import (card_line, card_moves, grow_effect, hand_choices, hand_line,
                             hand_panel, plays_a_card)
from cli.render.screens import (LAYOUTS, board_view, fit, layout_for, play_board, render_state,
                                roomy)
from cli.render.summary import summarize_moves, summary_dict

__all__ = ["CELL", "COMPANY_STYLE", "GAP", "LAYOUTS", "MAP_LAYOUT", "MAP_POSITION", "board_view",
           "card_line", "card_moves", "card_text", "cname", "companies_block", "company_text",
           "fit", "grow_effect", "growth_table", "hand_choices", "hand_line", "hand_panel",
           "header_text", "layout_for", "map_text", "market_table", "play_board", "played_text",
           "players_block", "players_table", "plays_a_card", "render_state", "roomy", "scorepad",
           "short", "spaces_text", "summarize_moves", "summary_dict", "turn_text"]
