"""The table in few columns, beside the map: the companies (growth, tiles, shares of each
player, column, president) and the players (coins, score now), for terminals from 80 columns.

Three styles by the room beside the map: narrow (about 23 columns: growth as a digit, 3-letter
names), mid (about 32: growth tracks drawn, the column), full (about 45: names spelt out).
Names are text, never markup.
"""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from cli.presentation import short
from cli.render.board import company_text
from ekonos.rules import MAX_SHARES, TOKEN_LIMIT, TOKEN_LIMIT_MIN_PLAYERS, Company, Step

YOU_STYLE = "bold green"


def initials(names: list[str]) -> list[str]:
    """One character a player for the shares columns: the first letter of each name, or the
    seat numbers when two names share a first letter."""
    first = [n.strip()[:1].upper() or "?" for n in names]
    return first if len(set(first)) == len(first) else [str(q) for q in range(len(names))]


def _shares(state, c: Company, seat: int | None) -> Text:
    """Shares of each player in `c`, one character each (· for none), the person's in colour."""
    out = Text()
    for q in range(state.nplayers):
        k = state.shares(q, c)
        out.append(str(k) if k else "·", style=YOU_STYLE if q == seat and k else None)
    return out


def _track(g: int, bar: bool) -> Text:
    if not bar:
        return Text(str(g), style="bold" if g >= 4 else None)
    return Text("■" * g, style="bold") + Text("□" * (6 - g), style="dim") + Text(f" {g}")


STYLES = ("narrow", "mid", "full")


def companies_block(state, seat: int | None = None, style: str = "narrow") -> Table:
    """Per company: growth (0-6), tiles on the map (its value, R19), shares of each player (one
    character each, in seat order), the column (shares/8: a sale pays the first number, a buy
    costs one more; not when narrow) and the president.  `style`: narrow (about 23 columns:
    3-letter names, growth as a digit), mid (about 32: growth tracks drawn), full (about 45:
    names spelt out, protected tiles counted)."""
    narrow, full = style == "narrow", style == "full"
    turn = state.turn
    expanding = turn.expansion.company if turn and turn.expansion else None
    t = Table(box=None, padding=(0, 0) if narrow else (0, 1), pad_edge=False, show_edge=False)
    t.add_column("", no_wrap=True)
    t.add_column(" gr" if narrow else "growth", no_wrap=True,
                 justify="right" if narrow else "left")
    t.add_column(" val" if narrow else "tiles", justify="right", no_wrap=True)
    t.add_column(Text(" " + "".join(initials(state.names))), no_wrap=True)
    if not narrow:
        t.add_column("col", justify="right", no_wrap=True)
    t.add_column(" pres" if narrow else "president", no_wrap=True)
    cut = 3 if narrow else 8 if full else 6
    for c in Company:
        track = _track(state.growth(c), bar=not narrow)
        if c == expanding:
            track.append("*" if not full else " expands" if state.step is Step.EXPAND
                         else " expand?", style="italic")
        value = state.value(c)
        protected = len(state.protected_tiles(c))
        tiles = f"{value} ({protected}!)" if full and protected else str(value)
        pres = state.president(c)
        pres_name = "-" if pres is None else state.names[pres][:cut]
        row = [company_text(c, str(c) if full else short(str(c))), track,
               Text(f" {tiles}" if narrow else tiles), Text(" ") + _shares(state, c, seat)]
        if not narrow:
            row.append(f"{state.column(c)}/{MAX_SHARES}")
        row.append(Text((" " if narrow else "") + pres_name,
                        style=YOU_STYLE if pres is not None and pres == seat else None))
        t.add_row(*row)
    return t


def players_block(state, seat: int | None = None, style: str = "narrow") -> Table:
    """Per player: the key of the shares columns (initial or seat), name, coins, score now
    (and, unless narrow, cards and tokens); who is to move."""
    narrow = style == "narrow"
    scores = state.scores()
    limited = state.nplayers >= TOKEN_LIMIT_MIN_PLAYERS
    t = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, show_header=not narrow)
    t.add_column("", no_wrap=True, style="dim")          # the key of the shares columns
    t.add_column("player", no_wrap=True)
    t.add_column("coins", justify="right", no_wrap=True)
    t.add_column("score", justify="right", no_wrap=True)
    if not narrow:
        t.add_column("cards", justify="right", no_wrap=True)
        if limited:
            t.add_column("tokens", justify="right", no_wrap=True)
    t.add_column("", no_wrap=True)
    width = 7 if narrow else 12
    keys = initials(state.names)
    for q, name in enumerate(state.names):
        row = [keys[q], Text(name if len(name) <= width else name[:width - 1] + "…",
                    style=YOU_STYLE if q == seat else None),
               f"{state.coins(q)}¢", f"{scores[q]}{'pt' if narrow else ''}"]
        if not narrow:
            row.append(str(state.hand_size(q)))
            if limited:
                row.append(f"{state.tokens(q)}/{TOKEN_LIMIT}")
        row.append("◀" if q == state.to_move else "")
        t.add_row(*row, style="bold" if q == state.to_move else None)
    return t
