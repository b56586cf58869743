"""Position validation: impossible positions are refused, and every position the engine can write
loads again.

The expansion rule checked on `turn.expansion.from` (R13): during an expansion the company
keeps every tile it began with (`from`), and its other tiles were placed during the expansion,
each next to a space of `from`, each placement (and each later protection of a placed tile)
costing one of the growth actions used so far (2 or 3 minus `actions_left`).  So with no
action used its tiles are exactly `from`; `from: []` is possible only for a company without
tiles, whose expansion has nothing to do and is stopped by the engine at once.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from helpers import position

from ekonos import PositionError, State


def refused(d: dict, field: str, words: str = "") -> None:
    for load in (State.from_dict, lambda x: State.from_json(json.dumps(x))):
        with pytest.raises(PositionError) as e:
            load(copy.deepcopy(d))
        assert e.value.field == field, str(e.value)
        assert words in e.value.reason, str(e.value)


def card_position() -> dict:
    return position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board={1: "Sunset", 9: "Crown!"},
                    shares={"Crown": [0, 1, 0]})


# ---------------------------------------------------------------------------------------------
# Board keys, version

@pytest.mark.parametrize("key", ["01", "001", "\u0661", "\u00b2", "+1", " 1", "1 ", "0", "37",
                                 "1.0", "1e0", "\uff11", "-1", ""])
def test_only_canonical_board_keys(key):
    d = card_position()
    d["board"][key] = "Hydra"
    refused(d, "board", "is not a space number 1-36")


def test_aliases_of_one_space_are_refused():
    """A reproduced defect: three companies on space 1 through three spellings."""
    d = card_position()
    d["board"] = {"1": "Sunset", "01": "Crown", "001": "Hydra"}
    refused(d, "board", '"01"')


@pytest.mark.parametrize("version", [True, 1.0, "1", 2, None])
def test_version_must_be_the_integer_1(version):
    d = card_position()
    d["version"] = version
    refused(d, "version", "must be 1")


def test_hand_size_must_be_an_integer():
    d = card_position()
    d["players"][0]["hand_size"] = 6.0
    refused(d, "players[0].hand_size", "integer")


# ---------------------------------------------------------------------------------------------
# The turn: sold before the growth is resolved, the expansion's `from`

def expansion(board: dict, frm: list, left: int, growth: int = 6, sold: bool = False,
              step: str = "expand") -> dict:
    """Seat 0 played card 36 (Gemini / Crown + Hydra); Crown (president seat 0) expands."""
    exp = {"company": "Crown"}
    if step == "expand":
        exp.update(actions_left=left, **{"from": frm})
    return position(3, hands={0: [1, 2, 3, 4, 5]}, start=0, discard=[36], step=step,
                    board=board, growth={"Crown": growth}, shares={"Crown": [2, 1, 0]},
                    turn={"player": 0, "card": 36, "sold": sold, "expansion": exp})


CROWN_1_8 = {1: "Crown", 8: "Crown", 2: "Sunset!"}    # 8 is next to 1; 2 is protected


@pytest.mark.parametrize("step", ["expand-choice", "expand"])
def test_sold_is_false_while_the_growth_is_resolved(step):
    d = expansion(CROWN_1_8, [1, 8], 3, growth=4 if step == "expand-choice" else 6, sold=True,
                  step=step)
    refused(d, "turn.sold", "R7")


def test_stop_from_a_loaded_expansion_writes_a_file_that_loads():
    """A reproduced defect: `apply x.json stop -o x.json` wrote a file `show` refused."""
    st = State.from_json(json.dumps(expansion(CROWN_1_8, [1, 8], 3)))
    st.push_text("stop")
    assert st.step_name == "sell"
    assert State.from_json(st.to_json()) == st


@pytest.mark.parametrize("board, frm, left", [
    (CROWN_1_8, [1, 8], 3),                                # nothing used: tiles == from
    (CROWN_1_8, [1], 2),                                   # 8 placed next to 1: one action
    (CROWN_1_8, [8], 1),                                   # 1 placed next to 8
    ({1: "Crown", 8: "Crown!"}, [1], 1),                   # 8 placed, then protected: two
    ({1: "Crown!", 8: "Crown"}, [1, 8], 1),                # 1 protected now or before: fine
    ({1: "Crown", 8: "Crown", 2: "Crown"}, [1], 1),        # 2 and 8 placed: two actions
])
def test_possible_expansions_load(board, frm, left):
    assert State.from_dict(expansion(board, frm, left)).turn.expansion.start_spaces == tuple(frm)


@pytest.mark.parametrize("board, frm, left, words", [
    (CROWN_1_8, [], 3, "is empty, but Crown has a tile on space 1"),
    (CROWN_1_8, [], 1, "is empty"),
    (CROWN_1_8, [1], 3, "need 1 growth actions, but 0 were used"),
    ({1: "Crown", 12: "Crown"}, [1], 1, "tile on space 12 is neither in it nor next to it"),
    ({1: "Crown", 8: "Crown!"}, [1], 2, "need 2 growth actions, but 1 were used"),
    ({1: "Crown", 8: "Crown", 2: "Crown"}, [1], 2, "need 2"),
    ({1: "Crown", 8: "Crown", 12: "Crown"}, [1], 1, "space 12"),   # 12 is next to 8 only
])
def test_impossible_expansions_are_refused(board, frm, left, words):
    refused(expansion(board, frm, left), "turn.expansion.from", words)


# ---------------------------------------------------------------------------------------------
# Steps with a single decision: the engine plays them at once, so no file stops there

def test_sell_step_without_a_share_is_refused():
    d = position(3, hands={0: [1, 2, 3, 4, 5]}, start=0, discard=[36], step="sell",
                 shares={"Crown": [0, 1, 0]}, coins=[5, 0, 0],
                 turn={"player": 0, "card": 36, "sold": False})
    refused(d, "step", "only legal decision here is 'pass'")
    d["shares"]["Crown"] = [1, 1, 0]
    d["president"]["Crown"] = 1
    assert State.from_dict(d).step_name == "sell"


def test_buy_step_with_nothing_affordable_is_refused():
    d = position(3, hands={0: [1, 2, 3, 4, 5]}, start=0, discard=[36], step="buy",
                 coins=[0, 9, 9], turn={"player": 0, "card": 36, "sold": False})
    refused(d, "step", "only legal decision here is 'pass'")
    d["players"][0]["coins"] = 1
    assert State.from_dict(d).step_name == "buy"


def test_expand_step_with_nothing_to_place_or_protect_is_refused():
    # Crown has no tile (R14): only 'stop'
    refused(expansion({2: "Sunset"}, [], 3), "step", "only legal decision here is 'stop'")
    # Crown has 10 tiles, all protected: no place (10 tiles), no protect
    board = {s: "Crown!" for s in range(1, 11)}
    refused(expansion(board, list(range(1, 11)), 3), "step", "'stop'")


# ---------------------------------------------------------------------------------------------
# R17: beyond 18 tokens only through markers received

def tokens_position(n: int, seat1: dict, presides: tuple = ()) -> dict:
    shares = {c: [0] * n for c in seat1}
    for c, k in seat1.items():
        shares[c][1] = k
    president = {c: 1 for c in presides}
    return position(n, hands={0: [1, 2, 3, 4, 5, 6][:5 if n == 5 else 6]}, shares=shares,
                    president=president)


def test_more_than_18_shares_of_one_player_is_refused_with_4_to_6_players():
    many = {"Sunset": 4, "Phoenix": 4, "Panda": 4, "Crown": 4, "Hydra": 3}    # 19 shares
    for n in (4, 5, 6):
        refused(tokens_position(n, many), "shares", "seat 1 holds 19 shares")
    assert State.from_dict(tokens_position(3, many)).tokens(1) == 19 + 5   # no limit (R17)


def test_markers_received_may_take_a_player_past_18_tokens():
    held = {"Sunset": 4, "Phoenix": 4, "Panda": 4, "Crown": 4, "Hydra": 2}    # 18 shares
    st = State.from_dict(tokens_position(4, held, presides=tuple(held)))
    assert st.tokens(1) == 18 + 5


# ---------------------------------------------------------------------------------------------
# Every position the engine reaches is one a file can hold, as the whole game and as each
# player's view (what `ekonos apply` and `play` write must load again).

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_position_and_view_of_random_games_reloads(n):
    rng = random.Random(77 + n)
    count = 0
    for g in range(6):
        st = State.new(n, seed=rng.randrange(2**32), variant=rng.choice(["rulebook", "bga"]))
        while True:
            assert State.from_json(st.to_json()) == st
            if not st.is_over():
                v = st.view(st.to_move)
                assert State.from_json(v.to_json()) == v
            count += 1
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
    assert count > 300
