"""The exact end of a game: where the rest of the game needs no card the seat cannot see, every
line is searched to the end and each decision gets its exact value.

That is the case in the last round once every other seat has played its last card (R5: hands
are dealt alike, so the last seat to play holds the round's last card): from there on only the
seat's own card, the expansions, sales, buys and successors remain, and everything they depend
on is on the table.  One world, so no guess about hidden hands: the win share of each move is
what the game will give, provided the other seats decide as the solver assumes (max^n: each
decider, the seat itself included, takes the move best for itself by win share, then by its
own final score, then the first in the engine's order).

The search (search/_exact.pyx) visits every line; it gives up past `NODE_LIMIT` positions
(`solve` returns None, and the caller searches as usual).  A last turn is a few thousand
positions; a forced expansion of three actions before a sale and a buy can reach a few hundred
thousand (tests/search/test_exact.py, benchmarks/test_bench_exact.py).

The solver receives `State.view(seat)` like every bot: it reads no hidden hand (and needs none).
"""
from __future__ import annotations

from dataclasses import dataclass

from ekonos import State
from search._exact import solve_root

#: Positions the exact search may visit before it gives up (about a third of a second on one core: some 30 million a second).
NODE_LIMIT = 10_000_000


@dataclass(frozen=True)
class ExactMove:
    """One decision of the seat to move with its exact value: the seat's win share (0-1, a tie
    for first split, R20), its final score, and the line played after it to the end."""

    action: int
    win: float
    score: float
    line: tuple[int, ...]


def solvable(view: State) -> bool:
    """Whether the rest of the game from `view` needs no card its seat to move cannot see: the
    last round, and every other seat's hand empty."""
    if view.is_over() or view.round != view.rounds:
        return False
    seat = view.to_move
    return all(view.hand_size(q) == 0 for q in range(view.nplayers) if q != seat) and \
        view.hand_known(seat)


@dataclass(frozen=True)
class Solution:
    """Every legal decision of the seat to move, best first, and the positions visited."""

    moves: tuple[ExactMove, ...]
    nodes: int


def solve(view: State, node_limit: int = NODE_LIMIT) -> Solution | None:
    """Every legal decision of the seat to move in `view` with its exact value, best first (by
    win share, then final score; the engine's order among equals), or None when the position
    is not `solvable` or more than `node_limit` positions would be visited."""
    if not solvable(view):
        return None
    found = solve_root(view, view.to_move, node_limit)
    if found is None:
        return None
    moves = [ExactMove(a, w, s, tuple(line)) for a, w, s, line in found[0]]
    order = sorted(range(len(moves)), key=lambda i: (-moves[i].win, -moves[i].score, i))
    return Solution(tuple(moves[i] for i in order), found[1])
