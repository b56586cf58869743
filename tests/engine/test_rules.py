"""One or more tests per rule of docs/rules.md (R1-R21), named after the rule they check.

Positions are hand-written in the format of docs/position-format.md (`helpers.position`) and
loaded with `State.from_dict`, which also exercises the loader.  Expected values come from the
rules text, never from the engine.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from helpers import load, position, random_game, texts, tiles_of
from reference import ADJ, COMPANIES, DECK, TABLE

from ekonos import DECK as ENGINE_DECK
from ekonos import PLAYER_TABLE, IllegalMoveError, PositionError, State
from ekonos.moves import Move, MoveKind


def sell_position(n=4, seat=0, step="sell", coins=None, shares=None, president=None,
                  sold=False, **kw):
    """Seat `seat` has just played card 36 (a placement) in a turn of round 1 and is at `step`."""
    return position(n, start=seat, discard=[36], step=step, coins=coins or [0] * n,
                    shares=shares, president=president,
                    turn={"player": seat, "card": 36, "sold": sold}, **kw)


def column(st, company):
    return st.column(COMPANIES.index(company))


def president(st, company):
    return st.to_dict()["president"][company]


def growth(st, company):
    return st.to_dict()["growth"][company]


def coins(st, seat):
    return st.to_dict()["players"][seat]["coins"]


def start_player(st):
    return st.to_dict()["start_player"]


def shares(st, company):
    return st.to_dict()["shares"][company]


# ---------------------------------------------------------------------------------------------
# Components and R1 (the deck)

def test_r1_deck_matches_the_table_of_rules_md():
    for card in ENGINE_DECK:
        top, bottom = DECK[card.number]
        assert COMPANIES[card.top] == top, card.number
        assert tuple(COMPANIES[b] for b in card.bottom) == bottom, card.number
    assert len(ENGINE_DECK) == 36


def test_r1_deck_structure_six_top_twelve_bottom_no_repeat():
    tops = Counter(top for top, _ in DECK.values())
    bottoms = Counter(b for _, bot in DECK.values() for b in bot)
    assert set(tops.values()) == {6} and set(bottoms.values()) == {12}
    for number, (top, bottom) in DECK.items():
        assert len({top, *bottom}) == 3, number
        i = COMPANIES.index(top)
        assert COMPANIES[(i + 1) % 6] not in bottom, number


@pytest.mark.parametrize("card", range(1, 37))
def test_r1_each_card_places_its_top_and_grows_its_bottom_companies(card):
    top, bottom = DECK[card]
    d = position(2, hands={0: [card] + [c for c in range(1, 37) if c != card][:5]})
    st = load(d)
    legal = texts(st)
    grows = [t for t in legal if t.startswith(f"play {card} grow")]
    assert grows == [f"play {card} grow {bottom[0]}", f"play {card} grow {bottom[1]}"]
    others = [c for c in COMPANIES if c not in bottom]
    for c in others:
        assert f"play {card} grow {c}" not in legal
    st.push_text(f"play {card} place 17")
    assert st.to_dict()["board"] == {"17": top}
    st2 = load(d)
    st2.push_text(f"play {card} grow {bottom[1]}")
    assert growth(st2, bottom[1]) == 1
    assert all(growth(st2, c) == 0 for c in COMPANIES if c != bottom[1])


def test_r1_board_graph_as_described():
    edges = {frozenset((a, b)) for a, nb in ADJ.items() for b in nb}
    assert sorted(ADJ) == list(range(1, 37))
    assert len(edges) == 62
    assert all(b in ADJ and a in ADJ[b] for a, nb in ADJ.items() for b in nb)   # symmetric
    assert all(2 <= len(nb) <= 5 for nb in ADJ.values())
    seen, todo = {1}, [1]
    while todo:
        for b in ADJ[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    assert len(seen) == 36


# ---------------------------------------------------------------------------------------------
# Set-up and rounds

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r2_table_per_player_count(n):
    cards, coins_per_round, rounds = TABLE[n]
    assert tuple(PLAYER_TABLE[n]) == (cards, coins_per_round, rounds)
    st = State.new(n, seed=7 * n)
    assert st.rounds == rounds
    for q in range(n):
        assert len(st.hand(q)) == cards
        assert st.hand_size(q) == cards
        assert coins(st, q) == coins_per_round
    # play a whole game: count the rounds and the cards played in each
    rng = random.Random(n)
    plays = Counter()
    while not st.is_over():
        a = rng.choice(st.legal_actions())
        if st.step_name == "card":
            plays[st.round] += 1
        st.push(a)
    assert sorted(plays) == list(range(1, rounds + 1))
    assert set(plays.values()) == {n * cards}
    assert st.round == rounds


def test_r2_player_count_outside_2_to_6_refused():
    for n in (0, 1, 7):
        with pytest.raises(ValueError):
            State.new(n, seed=1)


def test_r2_round_beyond_the_last_refused_in_a_position():
    d = position(6, round=3)
    with pytest.raises(Exception) as e:
        load(d)
    assert "round" in str(e.value)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_r3_initial_state(n):
    st = State.new(n, seed=99)
    d = st.to_dict()
    assert d["board"] == {}
    assert set(d["growth"].values()) == {0}
    assert all(col == [0] * n for col in d["shares"].values())
    assert set(d["president"].values()) == {None}
    assert d["round"] == 1 and d["discard"] == [] and d["step"] == "card"
    # players start with 0 coins, then R4 pays the first round's coins
    assert [p["coins"] for p in d["players"]] == [TABLE[n][1]] * n
    assert d["to_move"] == d["start_player"]


def test_r3_start_player_drawn_from_the_seed():
    starts = {seed: State.new(4, seed=seed).to_dict()["start_player"] for seed in range(200)}
    assert set(starts.values()) == {0, 1, 2, 3}
    counts = Counter(starts.values())
    assert min(counts.values()) >= 25            # about 50 each; not stuck on one seat
    for seed in (0, 5, 123):                     # the same seed gives the same game
        assert State.new(4, seed=seed) == State.new(4, seed=seed)
    deals = {tuple(State.new(4, seed=seed).hand(0)) for seed in range(20)}
    assert len(deals) == 20                      # different seeds, different deals


def test_r4_coins_carried_over_and_paid_each_round():
    for n in (3, 5):
        st = State.new(n, seed=11)
        rng = random.Random(3)
        for _ in range(TABLE[n][2] - 1):
            rnd = st.round
            while st.round == rnd:
                before = [coins(st, q) for q in range(n)]
                player = st.to_dict()["turn"]["player"] if st.step_name != "card" else None
                a = rng.choice(st.legal_actions())
                text = st.move_text(a)
                delta = 0                     # what this decision itself pays (R15, R16)
                if text.startswith("buy"):
                    delta = -(column(st, text.split()[1]) + 1)
                elif text.startswith("sell"):
                    delta = column(st, text.split()[1])
                st.push(a)
            # the last decision of the round ended its last turn; then the new round paid
            after = [coins(st, q) for q in range(n)]
            for q in range(n):
                own = delta if q == player else 0
                assert after[q] == before[q] + own + TABLE[n][1], (n, q)


def test_r4_coins_added_to_what_players_have():
    # End of round 1 of a 3-player game: seat 2 passes its buy; coins 5/0/7 become 17/12/19.
    hands = {0: [], 1: [], 2: []}
    d = position(3, start=0, discard=list(range(1, 19)), step="buy", coins=[5, 0, 7],
                 hands=hands, turn={"player": 2, "card": 18, "sold": False}, seed=4)
    st = load(d)
    st.push_text("pass")
    assert [coins(st, q) for q in range(3)] == [17, 12, 19]
    assert st.round == 2 and st.step_name == "card"
    assert st.to_dict()["discard"] == []


def test_r4_all_36_cards_reshuffled_each_round():
    # Round 1 of a 3-player game ends with cards 1-18 played and 19-36 undealt. The new hands
    # are drawn from all 36 cards: played cards come back.
    hands = {0: [], 1: [], 2: []}
    seen = Counter()
    back = 0
    for seed in range(300):
        # seat 2 has a coin, so its buy step is a decision (a forced 'pass' never waits)
        d = position(3, start=0, discard=list(range(1, 19)), step="buy", coins=[0, 0, 1],
                     hands=hands, turn={"player": 2, "card": 18, "sold": False}, seed=seed)
        st = load(d)
        st.push_text("pass")
        dealt = [c for q in range(3) for c in st.hand(q)]
        assert len(dealt) == len(set(dealt)) == 18
        seen.update(dealt)
        back += sum(1 for c in dealt if c <= 18)
    assert set(seen) == set(range(1, 37))
    # each card is dealt with probability 18/36: 150 expected per card over 300 deals
    assert all(100 <= seen[c] <= 200 for c in range(1, 37))
    assert 300 * 9 * 0.85 <= back <= 300 * 9 * 1.15


def test_r4_undealt_cards_unknown_to_everyone():
    st = State.new(3, seed=8)
    for q in range(3):
        v = st.view(q)
        d = v.to_dict()
        known = [c for p in d["players"] if p["hand"] for c in p["hand"]]
        assert known == st.hand(q)               # only its own hand, never the undealt stock


def test_r5_turns_in_seat_order_one_card_each():
    for n in (2, 3, 5, 6):
        st = State.new(n, seed=n)
        rng = random.Random(n)
        order = []
        while not st.is_over():
            if st.step_name == "card":
                p = st.to_move
                order.append((st.round, start_player(st), p))
                size = st.hand_size(p)
                played = len(st.to_dict()["discard"])
                st.push(rng.choice(st.legal_actions()))
                if st.round == order[-1][0]:
                    assert st.hand_size(p) == size - 1
                    assert len(st.to_dict()["discard"]) == played + 1
            else:
                st.push(rng.choice(st.legal_actions()))
        for rnd in range(1, TABLE[n][2] + 1):
            seq = [(s, p) for r, s, p in order if r == rnd]
            start = seq[0][0]
            assert [p for _, p in seq] == [(start + i) % n for i in range(n * TABLE[n][0])]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r6_start_player_rotation_rulebook(n):
    st = State.new(n, seed=40 + n)
    rng = random.Random(n)
    starts = [start_player(st)]
    first_players = [st.to_move]
    while not st.is_over():
        rnd = st.round
        st.push(rng.choice(st.legal_actions()))
        if st.round != rnd:
            starts.append(start_player(st))
            first_players.append(st.to_move)
    assert len(starts) == TABLE[n][2]
    assert starts == [(starts[0] + i) % n for i in range(len(starts))]
    assert first_players == starts


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r6_start_player_bga_last_player_starts_next_round(n):
    st = State.new(n, seed=50 + n, variant="bga")
    assert st.variant == "bga"
    rng = random.Random(n)
    card_turns = []               # (round, seat) of every card played, in order
    while not st.is_over():
        if st.step_name == "card":
            card_turns.append((st.round, st.to_move))
        st.push(rng.choice(st.legal_actions()))
    rounds = TABLE[n][2]
    assert len(card_turns) == rounds * n * TABLE[n][0]
    for rnd in range(1, rounds):
        last = [p for r, p in card_turns if r == rnd][-1]
        first = [p for r, p in card_turns if r == rnd + 1][0]
        assert first == last      # the last player of a round takes two turns in a row
    # and then play goes on clockwise from that player
    for rnd in range(2, rounds + 1):
        seq = [p for r, p in card_turns if r == rnd]
        assert seq == [(seq[0] + i) % n for i in range(len(seq))]


def test_r6_bga_and_rulebook_differ_at_the_same_position():
    base = dict(start=1, discard=list(range(1, 19)), step="buy", coins=[1, 0, 0],
                hands={0: [], 1: [], 2: []}, turn={"player": 0, "card": 18, "sold": False},
                seed=5)
    rule = load(position(3, **base))
    bga = load(position(3, variant="bga", **base))
    rule.push_text("pass")
    bga.push_text("pass")
    assert start_player(rule) == 2 and rule.to_move == 2     # next clockwise from start 1
    assert start_player(bga) == 0 and bga.to_move == 0       # seat 0 played last, plays again


# ---------------------------------------------------------------------------------------------
# A turn

def test_r7_card_then_sell_then_buy_each_once():
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, coins=[20, 0, 0],
                 shares={"Hydra": [2, 0, 0]})
    st = load(d)
    assert st.step_name == "card"
    assert all(t.startswith("play") for t in texts(st))
    st.push_text("play 1 place 5")
    assert st.step_name == "sell" and st.to_move == 0
    assert texts(st) == ["sell Hydra", "pass"]
    st.push_text("sell Hydra")
    assert st.step_name == "buy" and st.to_move == 0          # no second sale
    assert not any(t.startswith("sell") for t in texts(st))
    st.push_text("buy Sunset")
    assert st.step_name == "card" and st.to_move == 1         # no second buy: turn over
    # a card must be played first: sell/buy are refused at the card step
    st0 = load(d)
    for text in ("sell Hydra", "buy Sunset", "pass"):
        with pytest.raises(IllegalMoveError):
            st0.push_text(text)


def test_r7_optional_steps_can_be_skipped_and_are_skipped_when_impossible():
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, coins=[20, 0, 0],
                 shares={"Hydra": [2, 0, 0]})
    st = load(d)
    st.push_text("play 1 place 5")
    st.push_text("pass")
    assert st.step_name == "buy"
    st.push_text("pass")
    assert st.step_name == "card" and st.to_move == 1
    # no share to sell and no coin: both steps are taken automatically
    d2 = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, coins=[0, 0, 0])
    st2 = load(d2)
    st2.push_text("play 1 place 5")
    assert st2.step_name == "card" and st2.to_move == 1
    assert len(st2.moves) == 1


def test_r8_played_card_goes_face_up_to_discard():
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]})
    st = load(d)
    st.push_text("play 4 place 9")
    assert 4 not in st.hand(0) and st.hand_size(0) == 5
    assert st.to_dict()["discard"] == [4]
    for q in (1, 2):                                          # everyone sees it
        assert st.view(q).to_dict()["discard"] == [4]
    # a card played is in the discard, not playable again
    with pytest.raises(IllegalMoveError):
        st.copy().push_text("play 4 place 10")


def test_r9_place_only_on_empty_spaces():
    board = {5: "Sunset!", 6: "Sunset", 7: "Phoenix"}
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board=board))
    legal = texts(st)
    places = [t for t in legal if t.startswith("play 1 place")]
    assert places == [f"play 1 place {s}" for s in range(1, 37) if s not in (5, 6, 7)]
    reason = st.why_illegal(Move.play(1, MoveKind.PLACE, space=5))
    assert reason is not None and "not empty" in reason and "Sunset" in reason
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("play 1 place 7")
    assert "not empty" in e.value.reason and "Phoenix" in e.value.reason


def test_r9_place_only_while_fewer_than_ten_tiles():
    nine = {s: "Sunset" for s in range(1, 10)}
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board=nine))
    assert "play 1 place 20" in texts(st)
    st.push_text("play 1 place 20")
    assert len(tiles_of(st, "Sunset")) == 10
    ten = {s: "Sunset" for s in range(1, 11)}
    st = load(position(3, hands={0: [1, 7, 13, 19, 25, 31]}, board=ten))
    legal = texts(st)
    assert not any(t.startswith("play 1 place") for t in legal)
    assert "play 7 place 20" in legal                # other companies still place
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("play 1 place 20")
    assert "10 tiles" in e.value.reason


def test_r9_protect_only_unprotected_tiles_of_the_top_company():
    board = {5: "Sunset!", 6: "Sunset", 7: "Phoenix", 8: "Sunset"}
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board=board))
    protects = [t for t in texts(st) if t.startswith("play 1 protect")]
    assert protects == ["play 1 protect 6", "play 1 protect 8"]
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("play 1 protect 5")
    assert "already protected" in e.value.reason
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("play 1 protect 7")
    assert "no Sunset tile" in e.value.reason
    st.push_text("play 1 protect 6")
    assert st.to_dict()["board"] == {"5": "Sunset!", "6": "Sunset!", "7": "Phoenix",
                                     "8": "Sunset"}


def test_r9_top_action_unavailable_when_neither_possible():
    ten_protected = {s: "Sunset!" for s in range(1, 11)}
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board=ten_protected))
    card1 = [t for t in texts(st) if t.startswith("play 1 ")]
    assert card1 == ["play 1 grow Panda", "play 1 grow Crown"]


def test_r10_growth_always_available_and_moves_the_track_one_space():
    ten_protected = {s: "Sunset!" for s in range(1, 11)}
    st = load(position(3, hands={0: [1, 2, 3, 4, 5, 6]}, board=ten_protected,
                       growth={"Crown": 2}))
    st.push_text("play 1 grow Crown")
    assert growth(st, "Crown") == 3 and growth(st, "Panda") == 0
    assert st.to_dict()["board"] == {str(s): "Sunset!" for s in range(1, 11)}


# ---------------------------------------------------------------------------------------------
# Growth and expansion

def growth_position(track, *, crown_president=1, board=None, coins=(5, 5, 5), n=3):
    """Seat 0 to play card 1 (Sunset / Panda + Crown); Crown's track is at `track`; seat 0 owns
    a Hydra share so that its sell step is a real decision."""
    crown = [0] * n
    pres = {}
    if crown_president is not None:
        crown[crown_president] = 1
        pres["Crown"] = crown_president
    hydra = [1] + [0] * (n - 1)
    return position(n, hands={0: [1, 2, 3, 4, 5, 6]}, coins=list(coins),
                    board=board if board is not None else {1: "Crown", 20: "Crown"},
                    growth={"Crown": track}, shares={"Crown": crown, "Hydra": hydra},
                    president=pres)


def test_r11_track_at_4_president_chooses_expand_or_wait():
    st = load(growth_position(3))
    st.push_text("play 1 grow Crown")
    assert st.step_name == "expand-choice"
    assert st.to_move == 1                     # Crown's president, not the card's player
    assert growth(st, "Crown") == 4
    assert texts(st) == ["expand", "wait"]


def test_r11_wait_keeps_the_track_at_4():
    st = load(growth_position(3))
    st.push_text("play 1 grow Crown")
    st.push_text("wait")
    assert growth(st, "Crown") == 4
    assert st.step_name == "sell" and st.to_move == 0
    assert tiles_of(st, "Crown") == [1, 20]


def test_r11_expand_at_4_has_up_to_two_actions_then_track_to_0():
    st = load(growth_position(3))
    st.push_text("play 1 grow Crown")
    st.push_text("expand")
    assert st.step_name == "expand" and st.to_move == 1
    st.push_text("place 2")
    assert st.step_name == "expand"
    st.push_text("place 8")
    assert st.step_name == "sell" and st.to_move == 0     # two actions used: over
    assert growth(st, "Crown") == 0
    assert tiles_of(st, "Crown") == [1, 2, 8, 20]


def test_r11_track_to_5_nothing_happens():
    st = load(growth_position(4))
    st.push_text("play 1 grow Crown")
    assert growth(st, "Crown") == 5
    assert st.step_name == "sell" and st.to_move == 0
    assert tiles_of(st, "Crown") == [1, 20]


def test_r11_track_to_6_forced_expansion_with_three_actions():
    st = load(growth_position(5))
    st.push_text("play 1 grow Crown")
    assert st.step_name == "expand" and st.to_move == 1    # no expand/wait choice
    assert "wait" not in texts(st)
    assert growth(st, "Crown") == 6
    st.push_text("place 2")
    st.push_text("place 19")
    assert st.step_name == "expand"
    st.push_text("protect 2")
    assert st.step_name == "sell"
    assert growth(st, "Crown") == 0
    assert st.to_dict()["board"] == {"1": "Crown", "2": "Crown!", "19": "Crown", "20": "Crown"}


def test_r11_track_never_above_6():
    # 3 -> 4 (wait) -> 5 -> 6 (forced expansion) -> 0: the same card grows Crown each time
    track = []
    for start in (3, 4, 5):
        st = load(growth_position(start))
        st.push_text("play 1 grow Crown")
        track.append(growth(st, "Crown"))
        if st.step_name == "expand-choice":
            st.push_text("wait")
        elif st.step_name == "expand":
            st.push_text("stop")
        track.append(growth(st, "Crown"))
    assert track == [4, 4, 5, 5, 6, 0]
    with pytest.raises(Exception) as e:          # a stored track above 6 is impossible
        load(growth_position(7))
    assert "growth.Crown" in str(e.value)


def test_r12_no_president_card_player_decides_at_4():
    st = load(growth_position(3, crown_president=None))
    st.push_text("play 1 grow Crown")
    assert st.step_name == "expand-choice" and st.to_move == 0


def test_r12_no_president_card_player_takes_the_forced_expansion_at_6():
    st = load(growth_position(5, crown_president=None))
    st.push_text("play 1 grow Crown")
    assert st.step_name == "expand" and st.to_move == 0
    st.push_text("place 2")
    assert st.to_move == 0


def test_r12_president_decides_even_in_another_players_turn():
    st = load(growth_position(5, crown_president=2))
    st.push_text("play 1 grow Crown")
    assert st.to_move == 2 and st.to_dict()["turn"]["player"] == 0
    with pytest.raises(IllegalMoveError):
        st.push_text("sell Hydra")               # not seat 0's sell step yet
    st.push_text("stop")
    assert st.to_move == 0 and st.step_name == "sell"


def example1_board():
    # Crown at 1; neighbours of 1 are 2 and 8 (board.json). 2 holds an unprotected Sunset tile,
    # 8 a protected Panda tile; 3 (neighbour of 2 only) is empty.
    return {1: "Crown", 2: "Sunset", 8: "Panda!"}


def test_r13_places_only_next_to_tiles_at_the_start_replacing_unprotected_others():
    st = load(growth_position(5, board=example1_board()))
    st.push_text("play 1 grow Crown")
    assert texts(st) == ["place 2", "protect 1", "stop"]
    st.push_text("place 2")
    board = st.to_dict()["board"]
    assert board["2"] == "Crown"
    assert tiles_of(st, "Sunset") == []          # the replaced tile left the map
    # 3 is next to the new tile at 2 but was not adjacent at the start: not eligible
    legal = texts(st)
    assert "place 3" not in legal
    assert legal == ["protect 1", "protect 2", "stop"]
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("place 3")
    assert "R13" in e.value.reason and "adjacent" in e.value.reason
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("place 8")
    assert "protected" in e.value.reason


def test_r13_protect_a_tile_placed_in_the_same_expansion():
    st = load(growth_position(5, board=example1_board()))
    st.push_text("play 1 grow Crown")
    st.push_text("place 2")
    st.push_text("protect 2")
    assert st.to_dict()["board"]["2"] == "Crown!"
    assert st.step_name == "expand"
    st.push_text("protect 1")
    assert st.step_name == "sell"
    assert st.to_dict()["board"] == {"1": "Crown!", "2": "Crown!", "8": "Panda!"}


def test_r13_stop_early():
    st = load(growth_position(5, board=example1_board()))
    st.push_text("play 1 grow Crown")
    st.push_text("place 2")
    st.push_text("stop")
    assert st.step_name == "sell" and growth(st, "Crown") == 0
    assert st.to_dict()["board"] == {"1": "Crown", "2": "Crown", "8": "Panda!"}


def test_r13_never_replaces_own_or_protected_tiles():
    board = {1: "Crown", 2: "Crown!", 8: "Sunset!", 3: "Panda"}
    st = load(growth_position(5, board=board))
    st.push_text("play 1 grow Crown")
    # from {1, 2}: neighbours 1:{2, 8}, 2:{1, 3, 8}; own 1, 2 and protected 8 excluded -> 3
    assert texts(st) == ["place 3", "protect 1", "stop"]


def test_r13_placement_only_while_fewer_than_ten_tiles():
    board = {s: "Crown" for s in (1, 2, 3, 4, 5, 6, 7, 8, 9)}
    st = load(growth_position(5, board=board))
    st.push_text("play 1 grow Crown")
    legal = texts(st)
    assert "place 10" in legal
    st.push_text("place 10")
    assert len(tiles_of(st, "Crown")) == 10
    legal = texts(st)
    assert not any(t.startswith("place") for t in legal)
    assert legal == [f"protect {s}" for s in range(1, 11)] + ["stop"]


def test_r14_company_without_tiles_still_expands_track_returns_to_0():
    st = load(growth_position(5, board={7: "Sunset"}))
    st.push_text("play 1 grow Crown")
    # no growth action is possible: the expansion happens at once and ends
    assert st.step_name == "sell" and st.to_move == 0
    assert growth(st, "Crown") == 0
    assert st.to_dict()["board"] == {"7": "Sunset"}
    st = load(growth_position(3, board={}))
    st.push_text("play 1 grow Crown")
    assert texts(st) == ["expand", "wait"]
    st.push_text("expand")
    assert growth(st, "Crown") == 0 and st.step_name == "sell"


# ---------------------------------------------------------------------------------------------
# Sell and buy

def test_r15_sell_pays_column_count_and_removes_one_share():
    st = load(sell_position(coins=[3, 0, 0, 0], shares={"Crown": [2, 3, 0, 0]},
                            president={"Crown": 1}))
    assert texts(st) == ["sell Crown", "pass"]
    st.push_text("sell Crown")
    assert coins(st, 0) == 3 + 5
    assert shares(st, "Crown") == [1, 3, 0, 0]
    assert column(st, "Crown") == 4


def test_r15_only_companies_with_own_shares():
    st = load(sell_position(shares={"Crown": [0, 3, 0, 0], "Panda": [1, 0, 0, 0]}))
    assert texts(st) == ["sell Panda", "pass"]
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("sell Crown")
    assert "no share of Crown" in e.value.reason


def test_r16_buy_costs_column_plus_one_and_must_be_affordable():
    sh = {"Sunset": [0, 2, 0, 0], "Phoenix": [0, 3, 0, 0], "Panda": [0, 8, 0, 0]}
    st = load(sell_position(step="buy", coins=[3, 0, 0, 0], shares=sh))
    # Sunset costs 3 (affordable), Phoenix 4 (not), Panda full, others cost 1
    assert texts(st) == ["buy Sunset", "buy Crown", "buy Hydra", "buy Gemini", "pass"]
    with pytest.raises(IllegalMoveError) as e:
        st.copy().push_text("buy Phoenix")
    assert "costs 4" in e.value.reason and "has 3" in e.value.reason
    st.push_text("buy Sunset")
    assert coins(st, 0) == 0
    assert shares(st, "Sunset") == [1, 2, 0, 0]


def test_r16_column_cap_8():
    sh = {"Panda": [0, 7, 0, 0]}
    st = load(sell_position(step="buy", coins=[50, 0, 0, 0], shares=sh))
    st.push_text("buy Panda")
    assert column(st, "Panda") == 8 and coins(st, 0) == 42
    sh = {"Panda": [1, 7, 0, 0]}
    st = load(sell_position(step="buy", coins=[50, 0, 0, 0], shares=sh))
    assert "buy Panda" not in texts(st)
    with pytest.raises(IllegalMoveError) as e:
        st.push_text("buy Panda")
    assert "full" in e.value.reason


def _token_shares(n, counts, seat=0):
    """Shares with `seat` holding `counts` (Sunset, Phoenix, Panda, Crown, ...), others none."""
    sh = {}
    for c, k in zip(COMPANIES, counts):
        col = [0] * n
        col[seat] = k
        sh[c] = col
    return sh


def test_r17_eighteen_tokens_counting_presidencies_block_buying_with_4_players():
    # 14 shares + 4 presidency markers = 18 tokens: no buy is possible, so the buy step has the
    # single decision 'pass' and is played at once: passing the sale ends the turn.
    st = load(sell_position(coins=[100, 0, 0, 0], shares=_token_shares(4, (4, 4, 3, 3))))
    assert st.tokens(0) == 18
    st.push_text("pass")
    assert st.step_name == "card" and st.to_move == 1 and coins(st, 0) == 100
    # and a file at that buy step describes a moment no game stops at
    with pytest.raises(PositionError, match="only legal decision here is 'pass'"):
        load(sell_position(step="buy", coins=[100, 0, 0, 0],
                           shares=_token_shares(4, (4, 4, 3, 3))))


def test_r17_seventeen_tokens_may_buy_a_share_but_not_a_share_and_a_marker():
    # 13 shares + 4 markers = 17 tokens.  A Sunset share (seat 0 presides) takes 1 token: 18.
    # A Hydra share would make seat 0 Hydra's president: share + marker = 2 tokens: 19, refused.
    st = load(sell_position(step="buy", coins=[100, 0, 0, 0],
                            shares=_token_shares(4, (4, 4, 3, 2))))
    assert st.tokens(0) == 17
    assert "buy Sunset" in texts(st) and "buy Hydra" not in texts(st)
    with pytest.raises(IllegalMoveError) as e:
        st.copy().push_text("buy Hydra")
    assert e.value.reason == ("buying a Hydra share would need 2 tokens (a share and a "
                              "presidency marker) and Anna has 17 of 18 on the board, so 1 "
                              "left (R17)")
    st.push_text("buy Sunset")
    assert st.tokens(0) == 18


def test_r17_overtaking_the_president_takes_a_marker_a_tie_does_not():
    # seat 0: 12 shares + 4 markers + 1 Hydra share = 17 tokens.  Hydra: seat 1 presides with 1.
    sh = _token_shares(4, (4, 4, 3, 1))
    sh["Hydra"] = [1, 1, 0, 0]
    sh["Gemini"] = [0, 2, 0, 0]
    st = load(sell_position(step="buy", coins=[100, 0, 0, 0], shares=sh,
                            president={"Hydra": 1}))
    assert st.tokens(0) == 17
    assert "buy Hydra" not in texts(st)          # 2 > 1: would take the presidency (R18b)
    assert "buy Gemini" in texts(st)             # 1 vs 2: nothing changes hands
    st.push_text("buy Gemini")
    assert st.tokens(0) == 18 and president(st, "Gemini") == 1


@pytest.mark.parametrize("n", [5, 6])
def test_r17_limit_applies_with_5_and_6_players(n):
    st = load(sell_position(n, coins=[100] + [0] * (n - 1),
                            shares=_token_shares(n, (4, 4, 3, 3))))
    st.push_text("pass")                   # the buy step has only 'pass': skipped
    assert st.step_name == "card" and st.to_move == 1


@pytest.mark.parametrize("n", [2, 3])
def test_r17_no_limit_with_2_or_3_players(n):
    st = load(sell_position(n, step="buy", coins=[100] + [0] * (n - 1),
                            shares=_token_shares(n, (8, 8, 8, 8, 1))))
    assert st.tokens(0) == 38
    assert "buy Hydra" in texts(st) and "buy Gemini" in texts(st)
    st.push_text("buy Gemini")
    assert st.tokens(0) == 40


def test_r17_presidency_received_through_a_sale_is_never_refused():
    # seat 1: 14 shares + 4 presidencies = 18 tokens, plus 1 Gemini share -> 19? no: make 18
    # with Sunset 4, Phoenix 4, Panda 3, Crown 2 (13 shares, 4 markers) and 1 Gemini share.
    sh = _token_shares(4, (4, 4, 3, 2), seat=1)
    sh["Gemini"] = [1, 1, 0, 0]
    st = load(sell_position(shares=sh, president={"Gemini": 0}))
    assert st.tokens(1) == 18
    st.push_text("sell Gemini")
    assert president(st, "Gemini") == 1
    assert st.tokens(1) == 19


def test_r18_a_buying_a_company_without_president():
    st = load(sell_position(step="buy", coins=[5, 0, 0, 0]))
    st.push_text("buy Hydra")
    assert president(st, "Hydra") == 0 and shares(st, "Hydra") == [1, 0, 0, 0]


def test_r18_b_buyer_needs_strictly_more_than_the_president():
    st = load(sell_position(step="buy", coins=[5, 0, 0, 0], shares={"Hydra": [1, 2, 0, 0]},
                            president={"Hydra": 1}))
    st.push_text("buy Hydra")                 # 2 vs 2: tie keeps the president
    assert president(st, "Hydra") == 1
    st = load(sell_position(step="buy", coins=[5, 0, 0, 0], shares={"Hydra": [2, 2, 0, 0]},
                            president={"Hydra": 1}))
    st.push_text("buy Hydra")                 # 3 vs 2
    assert president(st, "Hydra") == 0
    assert coins(st, 0) == 0


def test_r18_b_president_buying_stays_president():
    st = load(sell_position(step="buy", coins=[5, 0, 0, 0], shares={"Hydra": [2, 2, 0, 0]},
                            president={"Hydra": 0}))
    st.push_text("buy Hydra")
    assert president(st, "Hydra") == 0


def test_r18_c_president_sells_and_one_player_holds_more():
    st = load(sell_position(shares={"Crown": [2, 2, 1, 0]}, president={"Crown": 0}))
    st.push_text("sell Crown")
    assert president(st, "Crown") == 1
    assert st.step_name == "buy"


def test_r18_c_president_sells_nobody_holds_more_stays():
    st = load(sell_position(shares={"Crown": [3, 2, 2, 0]}, president={"Crown": 0}))
    st.push_text("sell Crown")
    assert president(st, "Crown") == 0 and shares(st, "Crown") == [2, 2, 2, 0]
    assert st.step_name == "buy"


def test_r18_c_tie_seller_chooses_the_successor():
    st = load(sell_position(coins=[0, 0, 0, 0], shares={"Crown": [2, 2, 2, 1]},
                            president={"Crown": 0}))
    st.push_text("sell Crown")
    assert coins(st, 0) == 7
    assert st.step_name == "successor" and st.to_move == 0
    assert texts(st) == ["successor 1", "successor 2"]
    assert st.to_dict()["turn"]["candidates"] == [1, 2]
    with pytest.raises(IllegalMoveError) as e:
        st.copy().push_text("successor 3")
    assert "one of" in e.value.reason and "1 Bruno" in e.value.reason
    st.push_text("successor Chiara")          # by name
    assert president(st, "Crown") == 2
    assert st.step_name == "buy" and st.to_move == 0


def test_r18_c_seller_left_with_no_share_and_a_three_way_tie():
    st = load(sell_position(5, shares={"Crown": [1, 1, 1, 1, 0]}, president={"Crown": 0}))
    st.push_text("sell Crown")
    assert texts(st) == ["successor 1", "successor 2", "successor 3"]
    st.push_text("successor 3")
    assert president(st, "Crown") == 3


def test_r18_d_empty_column_has_no_president():
    st = load(sell_position(shares={"Crown": [1, 0, 0, 0]}))
    st.push_text("sell Crown")
    assert president(st, "Crown") is None and column(st, "Crown") == 0
    assert coins(st, 0) == 1
    st.push_text("buy Crown")                 # R18a again: price 1, buyer president
    assert president(st, "Crown") == 0 and coins(st, 0) == 0


def test_r18_e_sale_by_non_president_never_changes_the_president():
    st = load(sell_position(shares={"Crown": [2, 2, 0, 0]}, president={"Crown": 1}))
    st.push_text("sell Crown")
    assert president(st, "Crown") == 1 and shares(st, "Crown") == [1, 2, 0, 0]
    st = load(sell_position(shares={"Crown": [1, 1, 0, 0]}, president={"Crown": 1}))
    st.push_text("sell Crown")
    assert president(st, "Crown") == 1 and column(st, "Crown") == 1


# ---------------------------------------------------------------------------------------------
# End of game

def over_position(n, board, shares, coins):
    per_hand, _, rounds = TABLE[n]
    return position(n, round=rounds, step="over", discard=list(range(1, n * per_hand + 1)),
                    hands={q: [] for q in range(n)}, board=board, shares=shares, coins=coins)


def test_r19_score_is_shares_times_tiles_plus_coins():
    # Sunset value 3, Phoenix value 2 (one protected), Panda value 0
    board = {1: "Sunset", 2: "Sunset", 3: "Sunset!", 10: "Phoenix!", 11: "Phoenix"}
    sh = {"Sunset": [2, 1], "Phoenix": [0, 3], "Panda": [4, 0]}
    st = load(over_position(2, board, sh, [7, 1]))
    assert st.is_over() and st.to_move is None
    assert st.scores() == [2 * 3 + 0 * 2 + 4 * 0 + 7, 1 * 3 + 3 * 2 + 1]  # 13, 10
    assert st.winners() == [0]
    assert texts(st) == []


def test_r19_game_ends_after_the_last_round():
    hands = {0: [], 1: []}
    d = position(2, round=6, start=0, discard=list(range(1, 13)), step="buy", coins=[0, 1],
                 hands=hands, turn={"player": 1, "card": 12, "sold": False})
    st = load(d)
    st.push_text("pass")
    assert st.is_over() and st.step_name == "over" and st.round == 6
    d["round"] = 5
    st = load(d)
    st.push_text("pass")
    assert not st.is_over() and st.round == 6


def test_r20_tied_highest_scores_all_win():
    board = {1: "Sunset", 2: "Sunset"}
    sh = {"Sunset": [1, 1, 0]}
    st = load(over_position(3, board, sh, [3, 3, 5]))
    assert st.scores() == [5, 5, 5]
    assert st.winners() == [0, 1, 2]
    st = load(over_position(3, board, sh, [3, 3, 4]))
    assert st.winners() == [0, 1]


def test_r20_no_winner_before_the_end():
    st = State.new(3, seed=1)
    assert st.winners() == []


# ---------------------------------------------------------------------------------------------
# Information

def test_r21_view_hides_other_hands_and_keeps_public_information():
    st = State.new(4, seed=21)
    rng = random.Random(2)
    for _ in range(30):
        st.push(rng.choice(st.legal_actions()))
    full = st.to_dict()
    for q in range(4):
        v = st.view(q).to_dict()
        for p in range(4):
            assert v["players"][p]["hand_size"] == full["players"][p]["hand_size"]
            assert v["players"][p]["coins"] == full["players"][p]["coins"]
            assert v["players"][p]["hand"] == (full["players"][p]["hand"] if p == q else None)
        for key in ("board", "growth", "shares", "president", "discard", "round", "step",
                    "to_move", "turn", "start_player"):
            assert v[key] == full[key], key
        assert v["rng"] != full["rng"]       # the future deals are not visible


def test_r21_views_do_not_depend_on_hidden_hands():
    # two states that differ only in the hands of seats 1 and 2 give seat 0 the same view
    d1 = position(3, hands={0: [1, 2, 3, 4, 5, 6], 1: [7, 8, 9, 10, 11, 12],
                            2: [13, 14, 15, 16, 17, 18]}, seed=1)
    d2 = position(3, hands={0: [1, 2, 3, 4, 5, 6], 1: [31, 32, 33, 34, 35, 36],
                            2: [19, 20, 21, 22, 23, 24]}, seed=2)
    a, b = load(d1), load(d2)
    assert a != b
    va, vb = a.view(0), b.view(0)
    va.seed = vb.seed = None
    assert va == vb
    assert va.hand(1) is None and va.hand_size(1) == 6


def test_r21_a_view_cannot_play_for_a_hidden_hand():
    st = State.new(3, seed=3)
    mover = st.to_move
    other = (mover + 1) % 3
    v = st.view(other)
    assert v.legal_actions() == []
    a = st.legal_actions()[0]
    reason = v.why_illegal(a)
    assert reason is not None and "not known" in reason


def test_r21_random_games_never_reveal_hands_in_views():
    for n in (2, 5):
        for st, _ in itertools.islice(random_game(n, 77), 0, 200, 17):
            for q in range(n):
                v = st.view(q)
                assert [v.hand_known(p) for p in range(n)] == [p == q for p in range(n)]


def test_r21_view_carries_nothing_that_rebuilds_the_hidden_deal():
    # The game's seed fixes every deal (R3, R4): a view that kept it would let a bot replay the
    # deal and read the other hands and the future rounds.
    for n in (2, 3, 6):
        st = State.new(n, seed=987654321 + n)
        dealt = [st.hand(q) for q in range(n)]
        assert [State.new(n, seed=st.seed).hand(q) for q in range(n)] == dealt  # the premise
        rng = random.Random(n)
        for _ in range(10):
            st.push(rng.choice(st.legal_actions()))
        for q in range(n):
            v = st.view(q)
            assert v.seed is None
            assert v.to_dict()["seed"] is None
            assert v.moves == [] and v._undo == []     # no history of full states either
