"""ekonos.threats: the coming forced expansions, checked against the engine itself: in random
games, every expansion's first choice of spaces is what `reachable` said, and the threats are
exactly the companies at growth 4-5 with their president as the decider."""
from __future__ import annotations

import pytest
from helpers import board_of, load, position, random_game

from ekonos.rules import Company, Step
from ekonos.threats import FORCED_ACTIONS, expansion_threats, reachable


def _positions(n: int):
    """The positions of 10 random n-player games (an expansion is rare in random play)."""
    for seed in range(10):
        yield from random_game(n, 100 * n + seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_reachable_is_what_the_engine_offers_when_an_expansion_starts(n):
    starts, before = 0, None
    for st, _ in _positions(n):
        turn = st.turn
        if st.step is Step.EXPAND and before is not Step.EXPAND:   # an expansion's first action
            starts += 1
            assert set(st.expansion_spaces()) == set(reachable(st, turn.expansion.company))
        before = st.step
        threats = expansion_threats(st)
        expanding = turn.expansion.company if turn is not None and turn.expansion else None
        assert [t.company for t in threats] == [c for c in Company
                                                 if st.growth(c) in (4, 5) and c != expanding]
        for t in threats:
            assert t.growths == 6 - t.growth and t.actions == FORCED_ACTIONS
            assert t.decider == st.president(t.company)
            assert set(t.takes) == {sp for sp in t.spaces if st.owner(sp) is not None}
            assert not any(st.is_protected(sp) or sp in st.tiles(t.company) for sp in t.spaces)
    assert starts > 0


def test_a_threat_names_the_tiles_it_could_take():
    """Crown at 5 on 20 (president seat 1): the empty neighbours and Panda's unprotected tile
    are in reach; Panda's protected tile and Crown's own are not."""
    st = load(position(3, board={20: "Crown", 21: "Panda", 22: "Panda!"},
                       growth={"Crown": 5, "Sunset": 3, "Hydra": 4},
                       shares={"Crown": [0, 2, 0]}))
    assert board_of(st)["20"] == "Crown"                         # the position loaded
    crown = [t for t in expansion_threats(st) if t.company is Company.CROWN][0]
    assert crown.growths == 1 and crown.decider == 1
    assert crown.spaces == (14, 19, 21) and crown.takes == (21,)
    assert [t.company for t in expansion_threats(st)] == [Company.CROWN, Company.HYDRA]
    hydra = expansion_threats(st)[1]
    assert hydra.spaces == () and hydra.decider is None          # no tile, no president
