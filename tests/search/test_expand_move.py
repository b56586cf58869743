"""`expand=move` (issue 11): an iteration that adds a card's pseudo-node goes on to add a move
under it (through a place or protect group with group=2), so the card's first playout starts
after its own card instead of after any card."""
import pytest

from ekonos import State
from ekonos.moves import NUM_ACTIONS
from search.bots import ISMCTSBot, make_bot, parse_params


@pytest.mark.parametrize("group", [1, 2])
def test_a_new_card_node_gets_its_move_in_the_same_iteration(group):
    st = State.new(3, seed=5)
    seat = st.to_move
    view = st.view(seat)
    cards = list(view.hand(seat))                          # card numbers, 1-36
    assert len(cards) > 1
    under, nodes = {}, {}
    for expand in ("node", "move"):
        s = ISMCTSBot(expand=expand, group=group).searcher()
        s.run(view, seat, iterations=len(cards), seed=1)      # each adds one card node
        # card c's pseudo-action is NUM_ACTIONS + c - 1
        under[expand] = [len(s.children(NUM_ACTIONS + c - 1)) for c in cards]
        nodes[expand] = s.node_count
    assert under["node"] == [0] * len(cards) and nodes["node"] == 1 + len(cards)
    assert under["move"] == [1] * len(cards)
    if group == 1:                                   # card, then its move: two nodes each
        assert nodes["move"] == 1 + 2 * len(cards)
    else:                                            # a group adds its space too
        assert nodes["move"] >= 1 + 2 * len(cards)


def test_baseline_and_the_levels_keep_one_node_per_iteration():
    assert parse_params("baseline")[1].expand == "node"
    for level in ("level1", "level2", "level3", "level4"):
        assert make_bot(level).params.expand == "node"
