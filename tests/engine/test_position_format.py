"""Position files (docs/position-format.md): the documented example loads; every impossible
state or broken contract is refused with a PositionError naming the field."""
from __future__ import annotations

import copy
import json

import pytest
from helpers import load, position
from reference import Ref

from ekonos import PositionError, State, load_file, save_file

# The example of docs/position-format.md, verbatim.
EXAMPLE = """
{
  "format": "ekonos-position",
  "version": 1,
  "variant": "rulebook",
  "players": [
    {"name": "Victor", "coins": 5, "hand": [3, 17, 22, 25, 31, 36]},
    {"name": "Anna",   "coins": 13, "hand": null, "hand_size": 5},
    {"name": "David",  "coins": 10, "hand": [1, 8, 12, 20, 30]}
  ],
  "round": 2,
  "start_player": 1,
  "to_move": 0,
  "step": "card",
  "board": {"1": "Sunset", "2": "Sunset!", "9": "Crown"},
  "growth": {"Sunset": 0, "Phoenix": 4, "Panda": 0, "Crown": 5, "Hydra": 0, "Gemini": 1},
  "shares": {"Sunset": [2, 2, 0], "Phoenix": [0, 0, 0], "Panda": [1, 0, 0],
             "Crown": [0, 1, 3], "Hydra": [0, 0, 0], "Gemini": [0, 0, 1]},
  "president": {"Sunset": 0, "Phoenix": null, "Panda": 0, "Crown": 2, "Hydra": null, "Gemini": 2},
  "discard": [5, 9],
  "turn": null,
  "seed": 12345
}
"""


def test_position_md_example_loads():
    st = State.from_json(EXAMPLE)
    assert st.names == ["Victor", "Anna", "David"]
    assert st.to_move == 0 and st.step_name == "card" and st.round == 2
    assert st.hand(0) == [3, 17, 22, 25, 31, 36]
    assert st.hand(1) is None and st.hand_size(1) == 5
    assert st.hand(2) == [1, 8, 12, 20, 30]
    assert st.scores() == [5 + 2 * 2, 13 + 2 * 2 + 1 * 1, 10 + 3 * 1]
    d = st.to_dict()
    src = json.loads(EXAMPLE)
    for key in ("board", "growth", "shares", "president", "discard", "round", "start_player",
                "to_move", "step", "turn", "seed", "variant", "format", "version"):
        assert d[key] == src[key], key
    # Victor's legal moves, by hand.  33 empty spaces.
    #   3  (Sunset): 33 + protect 1 (2 is protected) + 2 = 36
    #   17 (Panda):  33 + 0 + 2 = 35
    #   22 (Crown):  33 + protect 9 + 2 = 36
    #   25 (Hydra), 31 and 36 (Gemini): 33 + 0 + 2 = 35 each
    # total 36 + 35 + 36 + 3 x 35 = 212
    assert len(st.legal_actions()) == 212
    assert sorted(st.legal_moves.texts()) == sorted(Ref(src).legal())


def test_example_saved_and_reloaded(tmp_path):
    st = State.from_json(EXAMPLE)
    path = tmp_path / "example.json"
    save_file(st, path)
    back = load_file(State, path)
    assert back == st
    assert back.hand(1) is None


def base() -> dict:
    """A valid 3-player position at seat 0's sell step (card 36 played; seat 0 holds 5 cards).
    Crown: 2, 1, 0 shares (president 0).  Board: Crown on 1, Sunset on 2 (protected)."""
    return position(3, hands={0: [1, 2, 3, 4, 5], 1: [6, 7, 8, 9, 10, 11]}, start=0,
                    discard=[36], step="sell", coins=[4, 0, 9],
                    turn={"player": 0, "card": 36, "sold": False},
                    shares={"Crown": [2, 1, 0]}, board={1: "Crown", 2: "Sunset!"})


def test_base_is_valid():
    st = load(base())
    assert st.step_name == "sell"


def _set(path, value):
    def mutate(d):
        obj = d
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return mutate


def _eleven_tiles(d):
    d["board"] = {str(s): "Panda" for s in range(10, 21)}


def _nine_shares(d):
    d["shares"]["Gemini"] = [4, 3, 2]
    d["president"]["Gemini"] = 0


def _card_in_hand_and_discard(d):
    d["players"][0]["hand"] = [1, 2, 3, 4, 36]


def _card_in_two_hands(d):
    d["players"][1]["hand"] = [1, 7, 8, 9, 10, 11]


def _card_twice_in_discard(d):
    d["discard"] = [36, 36]


def _card_twice_in_hand(d):
    d["players"][0]["hand"] = [1, 1, 3, 4, 5]


def _short_hand(d):
    d["players"][0]["hand"] = [1, 2, 3, 4]


def _long_hidden_hand(d):
    d["players"][2]["hand_size"] = 5


def _weak_president(d):
    d["president"]["Crown"] = 1


def _president_of_nothing(d):
    d["president"]["Hydra"] = 2


def _no_president(d):
    d["president"]["Crown"] = None


def _eight_plus_tiles_unknown_company(d):
    d["board"]["3"] = "Dragon"


def _unknown_company_in_shares(d):
    d["shares"]["Dragon"] = [0, 0, 0]


def _turn_card_not_played(d):
    d["turn"]["card"] = 35


def _six_outside_expansion(d):
    d["growth"]["Hydra"] = 6


def _over_with_cards_left(d):
    d["step"] = "over"
    d["turn"] = None
    d["to_move"] = None


def _wrong_player_turn(d):
    d["turn"]["player"] = 1
    d["to_move"] = 1


def _expand_from_not_held(d):
    d["step"] = "expand"
    d["growth"]["Crown"] = 6
    d["turn"]["expansion"] = {"company": "Crown", "actions_left": 3, "from": [1, 5]}


def _expand_too_many_actions(d):
    d["step"] = "expand"
    d["growth"]["Crown"] = 4
    d["turn"]["expansion"] = {"company": "Crown", "actions_left": 3, "from": [1]}


def _expand_wrong_decider(d):
    d["step"] = "expand"
    d["growth"]["Crown"] = 6
    d["turn"]["expansion"] = {"company": "Crown", "actions_left": 3, "from": [1]}
    d["to_move"] = 1                  # Crown's president is seat 0


def _choice_not_at_4(d):
    d["step"] = "expand-choice"
    d["growth"]["Crown"] = 3
    d["turn"]["expansion"] = {"company": "Crown"}


def _successor_not_tied(d):
    d["step"] = "successor"
    d["turn"].update(sold=True, company="Crown", candidates=[1, 2])


def _sold_at_sell_step(d):
    d["turn"]["sold"] = True


EXPECTED = [
    # (what is wrong, mutation, field named, words of the reason)
    ("11 tiles of a company", _eleven_tiles, "board", "11 tiles"),
    ("9 shares in a column", _nine_shares, "shares.Gemini", "9 shares"),
    ("more than 8 shares of one seat", _set(("shares", "Gemini"), [9, 0, 0]),
     "shares.Gemini[0]", "0-8"),
    ("card in a hand and the discard", _card_in_hand_and_discard, "players[0].hand",
     "card 36 is also in discard"),
    ("card in two hands", _card_in_two_hands, "players[1].hand",
     "card 1 is also in players[0].hand"),
    ("card twice in the discard", _card_twice_in_discard, "discard", "twice"),
    ("card twice in a hand", _card_twice_in_hand, "players[0].hand", "twice"),
    ("hand too short", _short_hand, "players[0].hand", "4 cards"),
    ("hidden hand of the wrong size", _long_hidden_hand, "players[2].hand", "leave 6"),
    ("hand size contradicting the hand", _set(("players", 0, "hand_size"), 4),
     "players[0].hand_size", "lists 5"),
    ("negative coins", _set(("players", 1, "coins"), -1), "players[1].coins", "-1"),
    ("coins not an integer", _set(("players", 1, "coins"), "3"), "players[1].coins", "integer"),
    ("president with fewer shares", _weak_president, "president.Crown", "holds 1"),
    ("president of an empty column", _president_of_nothing, "president.Hydra", "empty column"),
    ("shares but no president", _no_president, "president.Crown", "has a president"),
    ("unknown company on the board", _eight_plus_tiles_unknown_company, "board.3", "Dragon"),
    ("unknown company in shares", _unknown_company_in_shares, "shares", "Dragon"),
    ("unknown company in growth", _set(("growth", "Dragon"), 1), "growth", "Dragon"),
    ("growth above 6", _set(("growth", "Panda"), 7), "growth.Panda", "0-6"),
    ("growth 6 outside an expansion", _six_outside_expansion, "growth.Hydra", "expansion"),
    ("wrong format", _set(("format",), "chess-fen"), "format", "ekonos-position"),
    ("missing format", lambda d: d.pop("format"), "format", "ekonos-position"),
    ("wrong version", _set(("version",), 2), "version", "must be 1"),
    ("unknown variant", _set(("variant",), "house"), "variant", "house"),
    ("one player", lambda d: d.update(players=d["players"][:1]), "players", "2-6"),
    ("duplicate names", _set(("players", 1, "name"), "ANNA"), "players[1].name",
     'same name as players[0].name "Anna"'),
    ("round beyond the last", _set(("round",), 5), "round", "1-4"),
    ("unknown step", _set(("step",), "dance"), "step", "dance"),
    ("wrong seat to move", _set(("to_move",), 2), "to_move", "seat 0"),
    ("turn card not the last played", _turn_card_not_played, "turn.card", "last card"),
    ("turn of the wrong player", _wrong_player_turn, "turn.player", "seat 0"),
    ("over with cards left", _over_with_cards_left, "step", "every card"),
    ("expansion from a space the company does not hold", _expand_from_not_held,
     "turn.expansion.from", "space 5"),
    ("3 actions at track 4", _expand_too_many_actions, "turn.expansion.actions_left", "1-2"),
    ("expansion decided by someone else than the president", _expand_wrong_decider,
     "to_move", "seat 0"),
    ("expand-choice with the track not at 4", _choice_not_at_4, "growth.Crown", "4"),
    ("successor candidates not tied above the seller", _successor_not_tied, "turn.candidates",
     "tied"),
    ("sold already at the sell step", _sold_at_sell_step, "turn.sold", "false"),
    ("space 37", _set(("board", "37"), "Sunset"), "board", "37"),
    ("card 37 in a hand", _set(("players", 0, "hand"), [1, 2, 3, 4, 37]), "players[0].hand",
     "1-36"),
    ("rng all zero", _set(("rng",), ["0", "0", "0", "0"]), "rng", "not all zero"),
    ("seed negative", _set(("seed",), -5), "seed", "-5"),
]


@pytest.mark.parametrize("what, mutate, field, words", EXPECTED, ids=[e[0] for e in EXPECTED])
def test_impossible_position_refused_naming_the_field(what, mutate, field, words):
    d = copy.deepcopy(base())
    mutate(d)
    with pytest.raises(PositionError) as e:
        load(d)
    assert e.value.field == field, str(e.value)
    assert str(e.value).startswith(field + ": ")
    assert words in e.value.reason, str(e.value)
    # the same through JSON text
    with pytest.raises(PositionError) as e2:
        State.from_json(json.dumps(d))
    assert e2.value.field == field


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"),
    ("", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('"hello"', "JSON object"),
    ("null", "JSON object"),
])
def test_bad_json_refused(text, words):
    with pytest.raises(PositionError) as e:
        State.from_json(text)
    assert words in str(e.value)


def test_bad_json_names_line_and_column():
    with pytest.raises(PositionError) as e:
        State.from_json('{\n  "format": "ekonos-position",\n  "version": 1,,\n}')
    assert "line 3" in str(e.value)


def test_missing_or_unreadable_file_refused(tmp_path):
    with pytest.raises(PositionError) as e:
        load_file(State, tmp_path / "nope.json")
    assert "no such file" in str(e.value)
    with pytest.raises(PositionError) as e:
        load_file(State, tmp_path)
    assert "directory" in str(e.value)
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b"\xff\xfe{")
    with pytest.raises(PositionError) as e:
        load_file(State, bad)
    assert "UTF-8" in str(e.value)


def test_added_fields_are_allowed():
    d = base()
    d["comment"] = "typed in from a real table"
    d["players"][0]["colour"] = "red"
    assert load(d).step_name == "sell"


def test_hidden_hands_and_defaults():
    d = base()
    d["players"][1]["hand"] = None
    d["players"][1]["hand_size"] = 6
    d.pop("seed", None)
    st = load(d)
    assert st.hand(1) is None and st.hand_size(1) == 6
    with pytest.raises(PositionError) as e:
        d2 = copy.deepcopy(d)
        del d2["players"][1]["hand_size"]
        load(d2)
    assert e.value.field == "players[1].hand_size"


def test_failed_load_leaves_the_file_untouched(tmp_path):
    path = tmp_path / "bad.json"
    d = base()
    d["players"][1]["coins"] = -3
    text = json.dumps(d)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PositionError):
        load_file(State, path)
    assert path.read_text(encoding="utf-8") == text


def test_expansion_of_a_company_the_card_cannot_grow_is_refused():
    """Found by review: the loader accepted an expansion unrelated to the card just played."""
    import ekonos
    st = ekonos.State.new(3, seed=2)
    card = st.hand(st.to_move)[0]
    grows = ekonos.DECK[card - 1].bottom
    st.push_text(f"play {card} grow {ekonos.COMPANIES[grows[0]]}")
    data = st.to_dict()
    other = next(c for c in range(6) if c not in grows)
    data["step"] = "expand-choice"
    data["turn"] = {"player": data["turn"]["player"] if data["turn"] else st.to_move,
                    "card": card, "sold": False,
                    "expansion": {"company": ekonos.COMPANIES[other]}}
    data["growth"][ekonos.COMPANIES[other]] = 4
    data["to_move"] = data["turn"]["player"]
    with pytest.raises(ekonos.PositionError, match="turn.expansion.company.*grows only"):
        ekonos.State.from_dict(data)
