"""Move notation (docs/position-format.md): canonical text round trips, forgiving input, clear
refusals."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis.strategies import integers as st_integers
from hypothesis.strategies import lists as st_lists
from hypothesis.strategies import sampled_from as st_sampled_from
from hypothesis.strategies import text as st_text
from helpers import load, position, texts
from reference import COMPANIES, DECK

from ekonos import IllegalMoveError, InvalidMoveError, MoveError, State
from ekonos.notation import action_text, parse_action, parse_move

NAMES = ["Anna", "Bruno", "Chiara", "David", "Elena", "Felix"]


def test_canonical_texts_of_position_md():
    # the table of docs/position-format.md, read from the rules: card 7 is Phoenix / Sunset + Crown
    examples = {
        "play 7 place 12": "card", "play 7 protect 12": "card", "play 7 grow Crown": "card",
        "expand": "expand-choice", "wait": "expand-choice", "place 14": "expand",
        "protect 14": "expand", "stop": "expand", "sell Crown": "sell", "pass": "sell",
        "buy Panda": "buy", "successor 2": "successor",
    }
    for text, step in examples.items():
        a = parse_action(text, step, NAMES)
        assert action_text(a) == text
    assert parse_action("pass", "sell", NAMES) != parse_action("pass", "buy", NAMES)


def test_every_action_of_the_table_round_trips():
    seen = set()
    for a in range(2759):
        text = action_text(a)
        step = "sell" if a == parse_action("pass", "sell", NAMES) else "buy"
        assert parse_action(text, step, NAMES) == a, (a, text)
        seen.add((text, step))
    assert len(seen) == 2759
    with pytest.raises(ValueError):
        action_text(2759)
    with pytest.raises(ValueError):
        action_text(-1)


def test_card_texts_name_the_card_and_its_companies():
    for card, (top, bottom) in DECK.items():
        for b in bottom:
            a = parse_action(f"play {card} grow {b}", "card", NAMES)
            assert action_text(a) == f"play {card} grow {b}"
        for c in COMPANIES:
            if c not in bottom:
                with pytest.raises(InvalidMoveError) as e:
                    parse_action(f"play {card} grow {c}", "card", NAMES)
                assert f"card {card} grows only {bottom[0]} or {bottom[1]}" in e.value.reason


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_legal_move_text_parses_back_in_random_games(n):
    rng = random.Random(n)
    st = State.new(n, seed=n + 40)
    count = 0
    while not st.is_over():
        legal = st.legal_actions()
        sample = legal if len(legal) < 12 else rng.sample(legal, 12)
        for a in sample:
            assert st.parse_move(action_text(a)).action == a
            count += 1
        st.push(rng.choice(legal))
    assert count > 500


def test_prefixes_and_any_case_are_accepted():
    st = load(position(3, hands={0: [7, 1, 2, 3, 4, 5]}))
    want = st.parse_move("play 7 grow Crown")
    for text in ("PLAY 7 GROW CROWN", "play 7 grow cro", "Play 7 Grow CRO", "  play  7 grow crow  ",
                 "play 7 grow cRoWn"):
        assert st.parse_move(text) == want, text
    st2 = load(position(3, hands={0: [7, 1, 2, 3, 4, 5]}, discard=[], coins=[20, 0, 0]))
    st2.push_text("play 7 place 1")           # nobody owns shares: straight to buy
    assert st2.step_name == "buy"
    for word, company in (("sun", "Sunset"), ("PHO", "Phoenix"), ("pan", "Panda"),
                          ("hyd", "Hydra"), ("Gem", "Gemini"), ("crown", "Crown")):
        assert str(st2.parse_move(f"buy {word}")) == f"buy {company}"


def test_short_or_ambiguous_prefix_rejected_with_options():
    st = load(position(3, hands={0: [7, 1, 2, 3, 4, 5]}, coins=[20, 0, 0]))
    st.push_text("play 7 place 1")
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move("buy p")
    assert "Phoenix" in e.value.reason and "Panda" in e.value.reason
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move("buy pa")                   # one match, but fewer than 3 letters
    assert "Panda" in e.value.reason and "3 letters" in e.value.reason
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move("buy xyz")
    assert "not a company" in e.value.reason and "Sunset" in e.value.reason


def test_ambiguous_player_name_rejected_with_options():
    names = ["Anna", "Andrea", "Bruno", "Carla"]
    d = position(4, start=0, discard=[36], step="successor", names=names,
                 turn={"player": 0, "card": 36, "sold": True, "company": "Crown",
                       "candidates": [1, 2]},
                 shares={"Crown": [0, 1, 1, 0]}, president={"Crown": 0})
    # candidates are Andrea (1) and Bruno (2)
    st = load(d)
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move("successor an")
    assert "0 Anna" in e.value.reason and "1 Andrea" in e.value.reason
    assert st.parse_move("successor andr") == st.parse_move("successor 1")
    assert st.parse_move("successor BRUNO") == st.parse_move("successor 2")
    with pytest.raises(IllegalMoveError) as e:
        st.parse_move("successor anna")            # a player, but not tied for the most
    assert "one of 1 Andrea, 2 Bruno" in e.value.reason
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move("successor zoe")
    assert "no player called" in e.value.reason
    with pytest.raises(InvalidMoveError):
        st.parse_move("successor 4")               # seats 0-3


@pytest.mark.parametrize("text, fragment", [
    ("", "empty move"),
    ("fly 3", "unknown move 'fly'"),
    ("play 37 place 1", "card 37 does not exist"),
    ("play x place 1", "not a card number"),
    ("play 7 place 0", "space 0 does not exist"),
    ("play 7 place", "expected"),
    ("play 7 jump 3", "place, protect or grow"),
    ("place 37", "space 37 does not exist"),
    ("expand now", "expected"),
    ("sell", "expected"),
])
def test_malformed_moves_refused_with_a_reason(text, fragment):
    st = State.new(3, seed=1)
    with pytest.raises(InvalidMoveError) as e:
        st.parse_move(text)
    assert fragment in e.value.reason
    assert isinstance(e.value, MoveError) and isinstance(e.value, ValueError)


def test_illegal_moves_give_reasons():
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board={5: "Crown"})
    st = load(d)
    with pytest.raises(IllegalMoveError) as e:
        st.parse_move("play 9 place 3")
    assert "card 9 is not in Anna's hand" in e.value.reason
    assert "1, 2, 3, 4, 5, 6" in e.value.reason
    assert e.value.legal == texts(st)             # the legal moves come with the refusal
    with pytest.raises(IllegalMoveError) as e:
        st.parse_move("buy Crown")
    assert "card step" in e.value.reason and "not a buy decision" in e.value.reason
    with pytest.raises(IllegalMoveError) as e:
        st.parse_move("play 1 place 5")
    assert "space 5 is not empty (Crown)" in e.value.reason
    with pytest.raises(IllegalMoveError) as e:
        st.parse_move("play 1 protect 5")
    assert "no Sunset tile" in e.value.reason
    assert st.why_illegal(st.parse_move("play 1 place 6")) is None
    assert "not in the action table" in st.why_illegal(99999)
    with pytest.raises(IllegalMoveError):
        st.push(99999)
    over = load(position(2, round=6, step="over", discard=list(range(1, 13)),
                         hands={0: [], 1: []}))
    with pytest.raises(IllegalMoveError) as e:
        over.parse_move("pass")
    assert "game is over" in e.value.reason


def test_push_refuses_illegal_action_without_changing_the_state():
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}))
    before = st.copy()
    a = parse_action("play 9 place 3", "card", NAMES)
    with pytest.raises(IllegalMoveError):
        st.push(a)
    assert st == before and st.moves == []


def test_push_text_returns_the_action_and_pop_undoes_it():
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}))
    before = st.copy()
    a = st.push_text("Play 2 GROW hyd")
    assert str(a) == "play 2 grow Hydra"
    assert st.pop() == a
    assert st == before


_WORDS = ["play", "place", "protect", "grow", "expand", "wait", "stop", "sell", "buy", "pass",
          "successor", "sun", "PHO", "pa", "p", "crown", "Hydra", "gem", "anna", "0", "7", "36",
          "37", "-1", "x", ""]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(words=st_lists(st_sampled_from(_WORDS), max_size=5), seed=st_integers(0, 50),
       pushes=st_integers(0, 30), noise=st_text(max_size=8))
def test_any_text_is_a_legal_move_or_a_move_error(words, seed, pushes, noise):
    st = State.new(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(pushes):
        st.push(rng.choice(st.legal_actions()))
    text = " ".join(words) + (" " + noise if seed % 3 == 0 else "")
    try:
        a = st.parse_move(text)
    except MoveError as e:
        assert e.reason and e.text == text
        assert isinstance(e.legal, list)
        return
    assert a.action in st.legal_actions() and a in st.legal_moves
    assert st.parse_move(str(a)) == a


@pytest.mark.parametrize("text", ["play １４ place 3", "play 14 place ١", "play 1_4 place 3",
                                  "play 14 place +1", "play 14 place ²", "successor ２",
                                  "play " + "9" * 5000 + " place 3"])
def test_numbers_are_ascii_digits_only(text):
    """int() reads full-width, Arabic-Indic and underscored numerals; the notation does not."""
    with pytest.raises(InvalidMoveError) as e:
        parse_move(text, "card", ["Anna", "Bruno", "Chiara"])
    assert len(e.value.reason) < 120


@pytest.mark.parametrize("text", ["sell\u00a0Panda", "play\u20037 place 1", "buy\u3000crown"])
def test_only_ascii_spaces_separate_the_words_of_a_move(text):
    """A no-break or other Unicode space is not a separator: the move is one unknown word."""
    with pytest.raises(InvalidMoveError):
        parse_move(text, "sell", ["Anna", "Bruno"])
