"""How often a bot sells a share and buys it back in the same turn to the same position (a
pointless line a player notices; the `plain` parameter removes it), in self-play games with
fixed seeds, behind `ekonos lab pointless-moves`.

    ekonos lab pointless-moves "ismcts:iterations=1000" "ismcts:iterations=1000,plain=1" -n 20

prints per spec the turns with a sale, and those whose sale was bought back with nothing changed
(coins, shares and presidents as before the sale).
"""
from __future__ import annotations

from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import Step
from search.bots import derive_seed, make_bot


def count(spec: str, games: int, players: int, seed: int) -> tuple[int, int]:
    """(turns with a sale, sales bought back to the same position) over `games` games."""
    sales = pointless = 0
    for g in range(games):
        st = State.new(players, seed=derive_seed(seed, g))
        bots = [make_bot(spec, seed=derive_seed(seed, g, q)) for q in range(players)]
        before = None
        while not st.is_over():
            seat, step = st.to_move, st.step
            move = Move.from_action(bots[seat].choose(st.view(seat)))
            if move.kind is MoveKind.SELL:
                sales += 1
                before = (move.company, st.coins(seat), st.shares(seat, move.company),
                          st.president(move.company))
            st.push(move)
            if move.kind is MoveKind.BUY and before and before[0] == move.company and \
                    before[1:] == (st.coins(seat), st.shares(seat, move.company),
                                   st.president(move.company)):
                pointless += 1
            if step is Step.BUY:            # the turn's buy step ends what its sale began
                before = None
    return sales, pointless
