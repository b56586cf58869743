"""The board for a person: the map drawn as a grid, the companies, the market, the players, the
header line of the position, and the end-of-game scorepad.

Reads the state through its typed read API only (`tiles`, `growth`, `president`, `shares`,
`coins`, `turn`, ...).  Players' names are text, never markup: they go into `Text` objects.
"""
from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text

from ekonos.rules import (ADJACENCY, COMPANIES, DECK, MAX_SHARES, MAX_TILES, TOKEN_LIMIT,
                          TOKEN_LIMIT_MIN_PLAYERS, Company, Step)


# ---------------------------------------------------------------------------------------------
# The map as a grid.  A hand-made table (found by search, then fixed): every pair of adjacent
# spaces of board.json sits in touching cells (a king's move apart), and the drawing adds a
# connector for each edge of the graph, so neighbours are exactly the spaces joined by a line.
# tests/test_cli.py checks the table against ekonos.rules.ADJACENCY.

MAP_LAYOUT: tuple[tuple[int | None, ...], ...] = (
    (None, 1, 8, 12, 18, 26, 25, 32),
    (None, 2, 9, 13, 19, 27, 34, 33),
    (3, 10, None, 14, 20, 28, None, None),
    (None, 4, 15, 21, 22, 29, 35, None),
    (None, 5, 11, 16, 23, 30, 36, None),
    (None, None, 6, 7, 17, 24, 31, None),
)

#: Space number -> (row, column) in MAP_LAYOUT.
MAP_POSITION: dict[int, tuple[int, int]] = {
    sp: (r, c) for r, row in enumerate(MAP_LAYOUT) for c, sp in enumerate(row) if sp is not None
}

CELL = 7        # characters per space: "12 Sun!"
GAP = 2         # characters between two spaces on a row

#: Colour of each company (the printed colours are not known publicly; these are distinct).
COMPANY_STYLE: dict[str, str] = {
    "Sunset": "black on dark_orange",
    "Phoenix": "white on red3",
    "Panda": "black on grey84",
    "Crown": "black on gold1",
    "Hydra": "white on green4",
    "Gemini": "white on dodger_blue3",
}


def short(company: str) -> str:
    """Three-letter name (also a valid prefix in the move notation)."""
    return company[:3]


def company_text(company: str | Company, label: str | None = None) -> Text:
    """The company's name (or `label`) in its colour."""
    name = str(company)
    return Text(label if label is not None else name, style=COMPANY_STYLE[name])


def _adjacent(a: int | None, b: int | None) -> bool:
    return a is not None and b is not None and b in ADJACENCY[a]


def _cells(board) -> dict[int, tuple[str, bool]]:
    """Space -> (company name, protected), from a State or a position file's `board` object."""
    if isinstance(board, Mapping):
        return {int(sp): (v.rstrip("!"), v.endswith("!")) for sp, v in board.items()}
    cells = {}
    for c in Company:
        for sp in board.tiles(c):
            cells[sp] = (str(c), board.is_protected(sp))
    return cells


def map_text(board) -> Text:
    """The 36 spaces on the grid (`board`: a State, or a position file's board object); each
    shows its number, company (colour and 3 letters) and a `!` when protected, as in position
    files.  Lines join neighbouring spaces: ── │ ╲ ╱."""
    cells = _cells(board)
    out = Text()
    rows, cols = len(MAP_LAYOUT), len(MAP_LAYOUT[0])
    for r in range(rows):
        row = MAP_LAYOUT[r]
        for c in range(cols):
            sp = row[c]
            if sp is None:
                out.append(" " * CELL)
            elif sp not in cells:
                out.append(f"{sp:>2}  ·  ", style="dim")
            else:
                company, prot = cells[sp]
                style = COMPANY_STYLE[company] + (" bold" if prot else "")
                out.append(f"{sp:>2} {short(company)}{'!' if prot else ' '}", style=style)
            if c < cols - 1:
                out.append("─" * GAP if _adjacent(sp, row[c + 1]) else " " * GAP, style="dim")
        out.append("\n")
        if r == rows - 1:
            break
        below = MAP_LAYOUT[r + 1]
        for c in range(cols):
            mid = CELL // 2
            out.append(" " * mid + ("│" if _adjacent(row[c], below[c]) else " ")
                       + " " * (CELL - mid - 1), style="dim")
            if c < cols - 1:
                down = _adjacent(row[c], below[c + 1])      # ╲
                up = _adjacent(row[c + 1], below[c])        # ╱
                gap = ("╳╳" if down and up else "╲ " if down else " ╱" if up else "  ")
                out.append(gap.ljust(GAP), style="dim")
        out.append("\n")
    out.rstrip()
    return out


def cname(c: int) -> str:
    """A company's name in its colour (COMPANY_STYLE), as console markup."""
    return f"[{COMPANY_STYLE[COMPANIES[c]]}]{COMPANIES[c]}[/]"


def spaces_text(spaces: list[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1–3, 5, 7–8'."""
    out, i = [], 0
    spaces = sorted(spaces)
    while i < len(spaces):
        j = i
        while j + 1 < len(spaces) and spaces[j + 1] == spaces[j] + 1:
            j += 1
        out.append(str(spaces[i]) if i == j else f"{spaces[i]}–{spaces[j]}")
        i = j + 1
    return ", ".join(out)


# ---------------------------------------------------------------------------------------------
# Panels


def growth_table(state) -> Table:
    turn = state.turn
    expanding = turn.expansion.company if turn and turn.expansion else None
    t = Table(title="Companies", title_justify="left", box=None, padding=(0, 1))
    t.add_column("company")
    t.add_column("growth 0-6")
    t.add_column("tiles", justify="right")
    t.add_column("protected", justify="right")
    t.add_column("supply", justify="right")
    for c in Company:
        g = state.growth(c)
        track = Text("■" * g, style="bold") + Text("□" * (6 - g), style="dim") + Text(f" {g}")
        if c == expanding:
            track.append("  expanding" if state.step is Step.EXPAND else "  expand or wait?",
                         style="italic")
        value = state.value(c)
        t.add_row(company_text(c), track, str(value), str(len(state.protected_tiles(c))),
                  str(MAX_TILES - value))
    return t


def market_table(state) -> Table:
    names = state.names
    t = Table(title="Market (shares per player)", title_justify="left", box=None,
              padding=(0, 1))
    t.add_column("company")
    for name in names:
        t.add_column(Text(name), justify="right")
    t.add_column("column", justify="right")
    t.add_column("sell pays", justify="right")
    t.add_column("next price", justify="right")
    t.add_column("president")
    for c in Company:
        col = [state.shares(q, c) for q in range(state.nplayers)]
        total = state.column(c)
        pres = state.president(c)
        t.add_row(company_text(c), *[str(x) if x else "·" for x in col],
                  f"{total}/{MAX_SHARES}",
                  str(total) if total else "-",
                  str(total + 1) if total < MAX_SHARES else "full",
                  Text(names[pres]) if pres is not None else "-")
    return t


def players_table(state) -> Table:
    scores = state.scores()
    winners = set(state.winners())
    limited = state.nplayers >= TOKEN_LIMIT_MIN_PLAYERS
    t = Table(title="Players", title_justify="left", box=None, padding=(0, 1))
    for name, just in (("seat", "right"), ("name", "left"), ("coins", "right"),
                       ("cards", "right"), ("tokens", "right"), ("score now", "right"),
                       ("", "left")):
        t.add_column(name, justify=just)
    for q, name in enumerate(state.names):
        marks = []
        if q == state.to_move:
            marks.append("◀ to move")
        if q == state.start_player and state.step is not Step.OVER:
            marks.append("started the round")
        if q in winners:
            marks.append("★ winner")
        tokens = f"{state.tokens(q)}/{TOKEN_LIMIT}" if limited else str(state.tokens(q))
        t.add_row(str(q), Text(name), str(state.coins(q)), str(state.hand_size(q)), tokens,
                  str(scores[q]), ", ".join(marks),
                  style="bold" if q == state.to_move else None)
    return t


def header_text(state) -> Text:
    names = state.names
    t = Text()
    t.append("Ekonos", style="bold")
    t.append(f" · {len(names)} players · variant {state.variant} · "
             f"round {state.round} of {state.rounds}\n")
    if state.step is Step.OVER:
        win = state.winners()
        t.append("Game over: ", style="bold")
        t.append(("winner: " if len(win) == 1 else "winners (tied): ")
                 + ", ".join(names[q] for q in win), style="bold")
        return t
    t.append(f"Step {state.step}: ")
    t.append(f"{names[state.to_move]} to decide", style="bold")
    turn = state.turn
    if turn:
        card = DECK[turn.card - 1]
        t.append(f"\n{names[turn.player]} played card {turn.card} "
                 f"({COMPANIES[card.top]} | {' + '.join(COMPANIES[b] for b in card.bottom)})")
        if turn.sold:
            t.append(", has sold")
        exp = turn.expansion
        if exp:
            t.append(f"; {exp.company} expands")
            if exp.actions_left is not None:
                t.append(f": {exp.actions_left} growth action(s) left, from spaces "
                         + ", ".join(map(str, exp.start_spaces)))
            else:
                t.append(": expand now (up to 2 actions) or wait")
        if state.step is Step.SUCCESSOR:
            t.append(f"; {names[turn.player]} chooses the next president of "
                     f"{turn.selling} among "
                     + ", ".join(f"{q} {names[q]}" for q in turn.candidates))
    if state.discard:
        t.append("\nplayed this round: " + " ".join(map(str, state.discard)), style="dim")
    return t


def scorepad(state) -> Table:
    """The rulebook's scorepad: per player, shares × value per company, coins, total (R19)."""
    n = state.nplayers
    scores = state.scores()
    best = max(scores)
    table = Table(title="Final scores", title_style="bold")
    table.add_column("")
    table.add_column("value", justify="right")
    for q in range(n):
        style = "bold green" if scores[q] == best else ""
        table.add_column(Text(state.names[q]), justify="right", header_style=style or "bold")
    for c in Company:
        value = state.value(c)
        cells = []
        for q in range(n):
            k = state.shares(q, c)
            cells.append(Text(f"{k}×{value} = {k * value}") if k else Text.assemble(("–", "dim")))
        table.add_row(Text.assemble(company_text(c)), str(value), *cells)
    table.add_row("coins", "", *[str(state.coins(q)) for q in range(n)], end_section=True)
    table.add_row(Text.assemble(("total", "bold")), "",
                  *[Text.assemble((str(s), "bold green" if s == best else "bold")) for s in scores])
    return table
