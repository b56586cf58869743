"""A sale bought back in the same turn: the engine knows when buying back
undoes the sale exactly (EkState.sold, the position file's `turn.undo`), and a bot with
`plain=1` never plays that pointless line."""
import random

import pytest

from ekonos import State
from ekonos.errors import PositionError
from ekonos.moves import Move, MoveKind
from ekonos.rules import Step
from search.bots import ISMCTSBot


def sell_positions(count: int = 12, seed: int = 11) -> list[State]:
    """Sell steps where the seat to move holds shares (random play, 2-4 players)."""
    out = []
    rng = random.Random(seed)
    game = 0
    while len(out) < count:
        st = State.new(2 + game % 3, seed=200 + game)
        game += 1
        for _ in range(rng.randrange(30, 200)):
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
            if st.step is Step.SELL and st.count_legal() > 1:
                out.append(st.copy())
                break
    return out


def restores(st: State, company: int) -> bool:
    """Does selling a share of `company` and buying it back give the position back?"""
    after = st.copy()
    after.push(next(m for m in st.legal_moves if m.kind is MoveKind.SELL and m.company == company))
    buy = [m for m in after.legal_moves if m.kind is MoveKind.BUY and m.company == company]
    if after.step is not Step.BUY or not buy:
        return False
    after.push(buy[0])
    return all(after.coins(q) == st.coins(q) and after.shares(q, company) == st.shares(q, company)
               for q in range(st.nplayers)) and after.president(company) == st.president(company)


@pytest.mark.parametrize("st", sell_positions(), ids=lambda s: f"{s.nplayers}p-r{s.round}")
def test_plain_never_buys_back_to_the_same_position_below_the_root(st):
    view = st.view(st.to_move)
    sells = [m for m in view.legal_moves if m.kind is MoveKind.SELL]
    assert sells
    for plain in (0, 1):
        s = ISMCTSBot(iterations=3000, plain=plain).searcher()
        s.run(view, st.to_move, iterations=3000, seed=2)
        for m in sells:
            below = [Move.from_action(a) for a in s.children(m.action)]
            back = any(b.kind is MoveKind.BUY and b.company == m.company for b in below)
            if restores(st, m.company):          # the tree tried every buy of this sale
                assert back == (plain == 0), (plain, str(m), [str(b) for b in below])


def after_sale(st: State, company: int) -> State:
    after = st.copy()
    after.push(next(m for m in st.legal_moves if m.kind is MoveKind.SELL and m.company == company))
    return after


@pytest.mark.parametrize("st", sell_positions(30, seed=3), ids=lambda s: f"{s.nplayers}p-r{s.round}")
def test_the_engine_knows_when_a_buy_back_undoes_the_sale(st):
    for m in [m for m in st.legal_moves if m.kind is MoveKind.SELL]:
        after = after_sale(st, m.company)
        d = after.to_dict()
        undo = d["turn"].get("undo") if d["turn"] else None
        assert (undo == str(m.company)) == restores(st, m.company), (str(m), d["turn"])
        assert State.from_dict(d) == after          # the file keeps it: same engine state


def test_an_undo_field_out_of_place_is_refused():
    st = sell_positions(1, seed=5)[0]
    d = st.to_dict()
    d["turn"] = {**(d["turn"] or {}), "undo": "Hydra"}
    with pytest.raises(PositionError, match="turn.undo"):
        State.from_dict(d)


@pytest.mark.parametrize("st", sell_positions(8, seed=7), ids=lambda s: f"{s.nplayers}p-r{s.round}")
def test_plain_never_advises_the_buy_back_at_the_root(st):
    for m in [m for m in st.legal_moves if m.kind is MoveKind.SELL]:
        after = after_sale(st, m.company)
        if after.step is not Step.BUY or after.count_legal() < 2:
            continue
        back = [a for a in after.legal_actions()
                if Move.from_action(a).kind is MoveKind.BUY and Move.from_action(a).company == m.company]
        view = after.view(after.to_move)
        for plain in (0, 1):
            s = ISMCTSBot(iterations=300, plain=plain).searcher()
            s.run(view, after.to_move, iterations=300, seed=1)
            tried = {r["action"] for r in s.root_moves()}
            undoes = back and restores(st, m.company)
            assert (not undoes) or (bool(tried & set(back)) == (plain == 0))
