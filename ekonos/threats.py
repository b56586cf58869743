"""Coming expansions: for each company whose growth track is at 4 or 5, the tiles it could take
when its forced expansion comes (R11: the track reaching 6 forces an expansion of up to 3
actions), and whose decision that is (R12).  Public information only (R21): the map, the
tracks and the presidents; the same answer for every seat.

For the front-ends (the web board now, the terminal later): the rule knowledge stays here.
"""
from __future__ import annotations

from dataclasses import dataclass

from ekonos.rules import ADJACENCY, MAX_TILES, Company

#: The tracks that lead to a forced expansion with no choice left on the way (R11): at 4 the
#: president has waited (the next growth goes to 5), at 5 the next growth forces it.
WATCHED = (4, 5)
FORCED = 6
FORCED_ACTIONS = 3


@dataclass(frozen=True)
class Threat:
    """`company` at `growth`: `growths` growth actions from its forced expansion of up to
    `actions` actions; `decider`: its president, None when it has none (then whoever plays the
    card that forces it decides, R12); `spaces`: where it could place a tile, from the map now
    (R13a: empty, or an unprotected tile of another company, next to one of its tiles; none
    when all its tiles are out); `takes`: those of `spaces` holding another company's tile."""

    company: Company
    growth: int
    growths: int
    actions: int
    decider: int | None
    spaces: tuple[int, ...]
    takes: tuple[int, ...]


def reachable(state, company: Company) -> tuple[int, ...]:
    """The spaces where `company` could place in an expansion starting now (R13a)."""
    company = Company(company)
    if state.value(company) >= MAX_TILES:
        return ()
    mine = set(state.tiles(company))
    out = set()
    for sp in mine:
        for n in ADJACENCY[sp]:
            if n in mine or n in out:
                continue
            owner = state.owner(n)
            if owner is None or not state.is_protected(n):
                out.add(n)
    return tuple(sorted(out))


def expansion_threats(state) -> tuple[Threat, ...]:
    """The companies at growth 4-5 (WATCHED), in company order, each with what its forced
    expansion could take.  A company expanding now is left out (its spaces are the moves)."""
    turn = state.turn
    expanding = turn.expansion.company if turn is not None and turn.expansion else None
    found = []
    for c in Company:
        g = state.growth(c)
        if g not in WATCHED or c == expanding:
            continue
        spaces = reachable(state, c)
        takes = tuple(sp for sp in spaces if state.owner(sp) is not None)
        found.append(Threat(c, g, FORCED - g, FORCED_ACTIONS, state.president(c), spaces, takes))
    return tuple(found)
