"""How the game looks, shared by the terminal (cli/render) and the web board (cli/web): each
company's colours and short name, the map as a grid, the review's mark signs and short moves.

One place, so the two faces of the game never disagree; neither imports the other's internals.
"""
from __future__ import annotations

from ekonos.errors import EkonosError
from ekonos.moves import MoveKind
from ekonos.notation import parse_move
from ekonos.rules import COMPANIES
from search.bots import LEVELS, budgets_by_count, parse_spec

# ---------------------------------------------------------------------------------------------
# The map as a grid.  A hand-made table (found by search, then fixed): every pair of adjacent
# spaces of board.json sits in touching cells (a king's move apart), and the drawing adds a
# connector for each edge of the graph, so neighbours are exactly the spaces joined by a line.
# tests/cli/test_commands.py checks the table against ekonos.rules.ADJACENCY.

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

#: Colour of each company in the terminal, as a rich style (the printed colours are not known
#: publicly; these are distinct).
COMPANY_STYLE: dict[str, str] = {
    "Sunset": "black on dark_orange",
    "Phoenix": "white on red3",
    "Panda": "black on grey84",
    "Crown": "black on gold1",
    "Hydra": "white on green4",
    "Gemini": "white on dodger_blue3",
}

#: Fill and text colour of each company on the page (COMPANY_STYLE, as CSS).
COMPANY_COLOURS: dict[str, tuple[str, str]] = {
    "Sunset": ("#ff8c00", "#000000"),
    "Phoenix": ("#cd0000", "#ffffff"),
    "Panda": ("#d7d7d7", "#000000"),
    "Crown": ("#ffd700", "#000000"),
    "Hydra": ("#008700", "#ffffff"),
    "Gemini": ("#1874cd", "#ffffff"),
}
assert set(COMPANY_COLOURS) == set(COMPANY_STYLE) == {str(c) for c in COMPANIES}


#: A colour per seat (0-5), told apart from the companies' fills and from the web board's
#: highlight (magenta): the players' table, the log and the marks of the last moves.
PLAYER_COLOURS: tuple[str, ...] = ("#00796b", "#6a1b9a", "#8d5a2b", "#283593", "#827717",
                                   "#c2185b")


def short(company: str) -> str:
    """Three-letter name (also a valid prefix in the move notation)."""
    return company[:3]


# ---------------------------------------------------------------------------------------------
# The review's marks and moves.

#: The sign after a reviewed move, by mark (chess's annotation signs).
MARK_SIGN = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def short_move(text: str) -> str:
    """A card play without its `play` (`18 place 30`, `4 grow Crown`); other moves as they are."""
    try:
        move = parse_move(text)
    except EkonosError:
        return text
    if move.card is None:
        return text
    arg = move.company if move.kind is MoveKind.GROW else move.space
    return f"{move.card} {move.kind} {arg}"


# ---------------------------------------------------------------------------------------------
# The AI's levels, as a player reads them (their specs are for the lab: search/bots.py).

#: How strong each level of `ekonos play` is, in words (README, "The levels").
LEVEL_WORDS = {1: "beginner", 2: "easy", 3: "strong", 4: "strongest"}


def level_text(level: int) -> str:
    """`level 3 (strong)`: a level by its number and its strength in words."""
    words = LEVEL_WORDS.get(level)
    return f"level {level} ({words})" if words else f"level {level}"


def _players_text(counts: list[int]) -> str:
    """[4] -> '4', [3, 4] -> '3 or 4', [4, 5, 6] -> '4 to 6'."""
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + \
        str(counts[-1])


def levels_summary() -> str:
    """'1 ISMCTS 200 iterations, 2 ISMCTS 1k iterations, ...' from search.bots.LEVELS (a budget
    by player count as '3 ISMCTS 25k iterations (2k with 4 players) ...'): `play --help`."""
    def short(n: int) -> str:
        return f"{n // 1000}k" if n % 1000 == 0 else f"{n}"

    out = []
    for k, spec in LEVELS.items():
        name, kw = parse_spec(spec)
        if name == "ismcts" and "iterations" in kw:
            counts: dict[int, list[int]] = {}
            for players, n in sorted(budgets_by_count(kw.get("iterfor", "")).items()):
                counts.setdefault(n, []).append(players)
            per = "; ".join(f"{short(n)} with {_players_text(ps)} players"
                            for n, ps in counts.items())
            learned = "" if not kw.get("horizon") else " + learned evaluation" + (
                " at each playout's next round" if kw.get("cut") == "leaf" else "")
            out.append(f"{k} ISMCTS {short(kw['iterations'])} iterations"
                       + (f" ({per})" if per else "") + learned)
        else:
            out.append(f"{k} {name}")
    return ", ".join(out)
