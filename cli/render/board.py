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

from cli.presentation import COMPANY_STYLE, MAP_LAYOUT, short

# The map is drawn on the grid of cli.presentation.MAP_LAYOUT:
CELL = 7        # characters per space: "12 Sun!"
GAP = 2         # characters between two spaces on a row


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


def map_text(board, compact: bool = False, marked: frozenset[int] = frozenset()) -> Text:
    """The 36 spaces on the grid (`board`: a State, or a position file's board object); each
    shows its number, company (colour and 3 letters) and a `!` when protected, as in position
    files.  Lines join neighbouring spaces: ── │ ╲ ╱.  `compact` draws 6-character cells
    (`12Pan!`) one column apart: 55 columns instead of 70, the same 11 lines.  The spaces
    `marked` (changed since the person's last decision) show their company in capitals,
    underlined and in reverse: `12PAN!`."""
    cells = _cells(board)
    cell, gap = (CELL - 1, 1) if compact else (CELL, GAP)
    out = Text()
    rows, cols = len(MAP_LAYOUT), len(MAP_LAYOUT[0])
    for r in range(rows):
        row = MAP_LAYOUT[r]
        for c in range(cols):
            sp = row[c]
            if sp is None:
                out.append(" " * cell)
            elif sp not in cells:
                out.append(f"{sp:>2}  · " if compact else f"{sp:>2}  ·  ", style="dim")
            else:
                company, prot = cells[sp]
                style = COMPANY_STYLE[company] + (" bold" if prot else "")
                name = short(company)
                if sp in marked:
                    style, name = style + " underline reverse", name.upper()
                sep = "" if compact else " "
                out.append(f"{sp:>2}{sep}{name}{'!' if prot else ' '}", style=style)
            if c < cols - 1:
                out.append("─" * gap if _adjacent(sp, row[c + 1]) else " " * gap, style="dim")
        out.append("\n")
        if r == rows - 1:
            break
        below = MAP_LAYOUT[r + 1]
        for c in range(cols):
            mid = cell // 2
            out.append(" " * mid + ("│" if _adjacent(row[c], below[c]) else " ")
                       + " " * (cell - mid - 1), style="dim")
            if c < cols - 1:
                down = _adjacent(row[c], below[c + 1])      # ╲
                up = _adjacent(row[c + 1], below[c])        # ╱
                if gap == 1:
                    mark = "╳" if down and up else "╲" if down else "╱" if up else " "
                else:
                    mark = ("╳╳" if down and up else "╲ " if down else " ╱" if up
                            else "  ").ljust(gap)
                out.append(mark, style="dim")
        out.append("\n")
    out.rstrip()
    return out


def card_text(card: int, number: bool = True, pad: bool = True) -> Text:
    """A card and what it is, in the companies' colours: `14 Pan|Sun+Hyd` (top | bottom);
    `pad` right-aligns the number in 2 columns (for lists)."""
    info = DECK[card - 1]
    top, (b0, b1) = Company(info.top), (Company(b) for b in info.bottom)
    text = Text((f"{card:>2} " if pad else f"{card} ") if number else "")
    text.append_text(company_text(top, short(str(top))))
    text.append("|")
    text.append_text(company_text(b0, short(str(b0))))
    text.append("+")
    text.append_text(company_text(b1, short(str(b1))))
    return text


def played_text(state, width: int | None = None, lines: int = 1,
                label: str = "played this round: ", cards: list[int] | None = None) -> Text:
    """The cards played this round (or `cards`) with what they were (`14 Pan|Sun+Hyd`), oldest
    first.  With `width`, at most `lines` lines of it, broken between cards, never inside one;
    the oldest cards give way to `… N earlier` when they do not all fit."""
    cards = list(state.discard) if cards is None else list(cards)
    if not cards:
        return Text("")
    sep = " · "
    if width is None:
        return Text(label, style="dim") + Text(sep).join(card_text(c) for c in cards)
    for first in range(len(cards)):
        head = label + (f"… {first} earlier" + sep if first else "")
        rows = _pack([head] + [card_text(c).plain for c in cards[first:]], width, sep)
        if len(rows) <= lines:
            break
    out = Text(head, style="dim")
    line_len = len(head)
    for k, c in enumerate(cards[first:]):
        piece = card_text(c)
        if k and line_len + len(sep) + len(piece.plain) > width:
            out.append("\n")
            line_len = 0
        elif k:
            out.append(sep)
            line_len += len(sep)
        out.append_text(piece)
        line_len += len(piece.plain)
    return out


def _pack(pieces: list[str], width: int, sep: str) -> list[str]:
    """`pieces` (the first is a label) into lines of at most `width`, `sep` between pieces of
    a line."""
    rows = [pieces[0]]
    for k, p in enumerate(pieces[1:]):
        glue = sep if k else ""
        if len(rows[-1]) + len(glue) + len(p) > width and k:
            rows.append(p)
        else:
            rows[-1] += glue + p
    return rows


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


def turn_text(state, compact: bool = False) -> Text:
    """The turn in progress, once its card is played: who played what, a sale made, the
    expansion under way, the successor to choose (empty at the card step).  `compact` leaves
    out what the decisions shown below repeat (an expansion's spaces, the candidates)."""
    names = state.names
    t = Text()
    turn = state.turn
    if not turn:
        return t
    you = names[turn.player].strip().casefold() == "you"
    t.append(f"{names[turn.player]} played card ")
    t.append_text(card_text(turn.card, pad=False))
    if turn.sold:
        t.append(", have sold" if you else ", has sold")
    exp = turn.expansion
    if exp:
        t.append(f"; {exp.company} expands")
        if exp.actions_left is not None and not compact:
            left = exp.actions_left
            t.append(f": {left} growth action{'' if left == 1 else 's'} left, from spaces "
                     + ", ".join(map(str, exp.start_spaces)))
        elif not compact:
            t.append(": expand now (up to 2 actions) or wait")
    if state.step is Step.SUCCESSOR and not compact:
        t.append(f"; {names[turn.player]} {'choose' if you else 'chooses'} the next president of "
                 f"{turn.selling} among "
                 + ", ".join(f"{q} {names[q]}" for q in turn.candidates))
    return t


def header_text(state, played: bool = True, compact: bool = False, width: int = 80) -> Text:
    """Round, step and who decides; the turn in progress; the cards played this round (unless
    not `played`).  `compact`: the first two facts in one line, the turn too when `width`
    holds it."""
    names = state.names
    t = Text()
    t.append("Ekonos", style="bold")
    if compact:
        t.append(f" · round {state.round}/{state.rounds} · ")
    else:
        t.append(f" · {len(names)} players · variant {state.variant} · "
                 f"round {state.round} of {state.rounds}\n")
    if state.step is Step.OVER:
        win = state.winners()
        t.append("Game over: ", style="bold")
        t.append(("winner: " if len(win) == 1 else "winners (tied): ")
                 + ", ".join(names[q] for q in win), style="bold")
        return t
    t.append(f"{state.step} step: " if compact else f"Step {state.step}: ")
    t.append(f"{names[state.to_move]} to decide", style="bold")
    if state.turn:
        turn = turn_text(state, compact)
        t.append(" · " if compact and len(t.plain) + 3 + len(turn.plain) <= width else "\n")
        t.append_text(turn)
    if played and state.discard:
        t.append("\n")
        t.append_text(played_text(state))
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
