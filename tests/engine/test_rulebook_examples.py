"""The three rulebook examples of docs/rules.md, reproduced on hand-written positions."""
from __future__ import annotations

import pytest
from helpers import load, position, texts, tiles_of
from reference import COMPANIES

from ekonos import IllegalMoveError

VICTOR, ANNA, DAVID = 0, 1, 2


def test_example3_scoring_victor_80_anna_75_david_82_david_wins():
    values = dict(zip(COMPANIES, (4, 6, 5, 9, 4, 7)))
    board, space = {}, 1
    for company, value in values.items():       # 35 tiles on the map, space 36 stays empty
        for _ in range(value):
            board[space] = company
            space += 1
    assert len(board) == 35
    shares = {
        #            Victor Anna David
        "Sunset":  [2, 2, 0],
        "Phoenix": [3, 1, 1],
        "Panda":   [2, 3, 1],
        "Crown":   [2, 2, 4],
        "Hydra":   [0, 2, 1],
        "Gemini":  [3, 1, 3],
    }
    d = position(3, names=["Victor", "Anna", "David"], round=4, step="over",
                 discard=list(range(1, 19)), hands={0: [], 1: [], 2: []},
                 board=board, shares=shares, coins=[5, 13, 10],
                 president={"Sunset": VICTOR, "Phoenix": VICTOR, "Panda": ANNA,
                            "Crown": DAVID, "Hydra": ANNA, "Gemini": VICTOR})
    st = load(d)
    assert st.is_over()
    assert st.scores() == [80, 75, 82]
    assert [st.score(q) for q in range(3)] == [80, 75, 82]
    assert st.winners() == [DAVID]


def example2_position():
    """Victor (seat 0) is in his sell step.  Crown: Victor 2 (president), Anna 2 -> 4 shares.
    Panda: David 1 (president), Victor 1 -> 2 shares."""
    return position(3, names=["Victor", "Anna", "David"], start=0, discard=[36], step="sell",
                    coins=[0, 0, 0], turn={"player": 0, "card": 36, "sold": False},
                    shares={"Crown": [2, 2, 0], "Panda": [1, 0, 1]},
                    president={"Crown": VICTOR, "Panda": DAVID})


def test_example2_sell_then_buy_with_presidency_changes():
    st = load(example2_position())
    st.push_text("sell Crown")
    f = st.to_dict()
    assert f["players"][VICTOR]["coins"] == 4          # a 4-share column pays 4
    assert f["shares"]["Crown"] == [1, 2, 0]
    assert f["president"]["Crown"] == ANNA             # Anna now holds more than Victor
    assert st.step_name == "buy"
    st.push_text("buy Panda")                          # 2 shares in the column: costs 3
    f = st.to_dict()
    assert f["players"][VICTOR]["coins"] == 1
    assert f["shares"]["Panda"] == [2, 0, 1]
    assert f["president"]["Panda"] == VICTOR           # 2 > David's 1
    assert st.step_name == "card" and st.to_move == ANNA


def test_example2_buy_needs_the_price():
    d = example2_position()
    d["step"] = "buy"
    d["players"][VICTOR]["coins"] = 2                  # one short of the 3 a Panda share costs
    st = load(d)
    assert "buy Panda" not in texts(st)
    d["players"][VICTOR]["coins"] = 3
    st = load(d)
    assert "buy Panda" in texts(st)


def example1_position(track):
    """Anna (seat 1) plays card 25 (Hydra / Sunset + Phoenix) and grows Phoenix to `track`.
    David (seat 2) is Phoenix's president.  Phoenix holds 13 and 14; their neighbours are
    9, 18, 19 (13) and 9, 15, 20 (14).  18 holds a protected Crown tile, 19 an unprotected Hydra
    tile, 15 an unprotected Panda tile, 9 and 20 are empty.  10 (next to 9 and 15) and 21 (next
    to 15 and 20) are empty but not adjacent to Phoenix at the start."""
    board = {13: "Phoenix", 14: "Phoenix", 18: "Crown!", 19: "Hydra", 15: "Panda"}
    return position(3, names=["Victor", "Anna", "David"], start=1,
                    hands={1: [25, 26, 27, 28, 29, 30]}, board=board,
                    growth={"Phoenix": track - 1}, shares={"Phoenix": [0, 0, 1]},
                    president={"Phoenix": DAVID}, coins=[0, 0, 0])


def test_example1_expansion_at_6_up_to_three_actions_with_limits():
    st = load(example1_position(6))
    st.push_text("play 25 grow Phoenix")
    assert st.step_name == "expand" and st.to_move == DAVID
    assert texts(st) == ["place 9", "place 15", "place 19", "place 20",
                         "protect 13", "protect 14", "stop"]
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("place 18")                       # protected Crown tile
    assert "protected" in e.value.reason
    st.push_text("place 15")                           # replaces Panda
    assert "place 10" not in texts(st) and "place 21" not in texts(st)
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("place 21")                       # adjacent only to the new tile
    assert "start of the expansion" in e.value.reason
    st.push_text("place 19")                           # replaces Hydra
    st.push_text("place 20")                           # third and last action
    assert st.step_name != "expand"
    assert tiles_of(st, "Phoenix") == [13, 14, 15, 19, 20]
    assert tiles_of(st, "Panda") == [] and tiles_of(st, "Hydra") == []
    assert tiles_of(st, "Crown") == [18]
    assert st.to_dict()["growth"]["Phoenix"] == 0


def test_example1_expansion_at_4_is_optional_with_up_to_two_actions():
    st = load(example1_position(4))
    st.push_text("play 25 grow Phoenix")
    assert st.step_name == "expand-choice" and st.to_move == DAVID
    waited = st.copy()
    waited.push_text("wait")
    assert waited.to_dict()["growth"]["Phoenix"] == 4
    assert tiles_of(waited, "Phoenix") == [13, 14]
    st.push_text("expand")
    st.push_text("place 9")
    st.push_text("protect 9")
    assert st.step_name != "expand"                    # two actions: done
    assert st.to_dict()["board"]["9"] == "Phoenix!"
    assert tiles_of(st, "Phoenix") == [9, 13, 14]
    assert st.to_dict()["growth"]["Phoenix"] == 0
