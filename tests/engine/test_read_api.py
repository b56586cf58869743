"""The typed read API of `State`, the engine's reason codes and `Move` values.

The read API is checked against the position file (`to_dict`, the contract of
docs/position-format.md) on positions at every step of random games; the reason codes against
the move generator on every action of the table; moves against the action table and the notation.
"""
from __future__ import annotations

import random

import pytest

from ekonos import State
from ekonos._core import WHY_NAMES
from ekonos.moves import Move, MoveKind
from ekonos.notation import parse_move
from ekonos.rules import COMPANIES, DECK, Company, Step

NUM_ACTIONS = 2759


def positions(n: int, seed: int, every: int = 1):
    """Positions along a random game (every `every`-th decision), the end included."""
    rng = random.Random(seed)
    st = State.new(n, seed=seed)
    k = 0
    while True:
        if k % every == 0 or st.is_over():
            yield st.copy()
        if st.is_over():
            return
        st.push_unchecked(rng.choice(st.legal_actions()))
        k += 1


def sample_positions():
    for n in (2, 3, 4, 5, 6):
        for seed in range(3):
            yield from positions(n, 1000 * n + seed, every=3)


def test_steps_and_companies_match_the_position_format():
    assert [str(s) for s in Step] == ["card", "expand-choice", "expand", "sell", "buy",
                                      "successor", "over"]
    assert [str(c) for c in Company] == list(COMPANIES)
    assert Step.from_text("expand-choice") is Step.EXPAND_CHOICE
    with pytest.raises(ValueError):
        Step.from_text("Card")


def test_getters_agree_with_the_position_file_at_every_step():
    seen_steps = set()
    for st in sample_positions():
        d = st.to_dict()
        n = st.nplayers
        seen_steps.add(st.step)
        assert str(st.step) == d["step"] and st.to_move == d["to_move"]
        assert (st.round, st.start_player, st.variant) == (d["round"], d["start_player"],
                                                          d["variant"])
        for sp in range(1, 37):
            value = d["board"].get(str(sp))
            owner = st.owner(sp)
            assert (None if owner is None else str(owner)) == (value.rstrip("!") if value else None)
            assert st.is_protected(sp) == bool(value and value.endswith("!"))
        assert st.empty_spaces() == [sp for sp in range(1, 37) if str(sp) not in d["board"]]
        for c in Company:
            name = str(c)
            mine = [int(k) for k, v in d["board"].items() if v.rstrip("!") == name]
            assert st.tiles(c) == sorted(mine) and st.value(c) == len(mine)
            assert st.protected_tiles(c) == sorted(sp for sp in mine
                                                   if d["board"][str(sp)].endswith("!"))
            assert st.growth(c) == d["growth"][name]
            assert st.president(c) == d["president"][name]
            assert st.column(c) == sum(d["shares"][name])
            for q in range(n):
                assert st.shares(q, c) == d["shares"][name][q]
        for q, p in enumerate(d["players"]):
            assert st.coins(q) == p["coins"] and st.hand_size(q) == p["hand_size"]
            assert st.hand(q) == p["hand"]
            assert st.tokens(q) == sum(st.shares(q, c) + (st.president(c) == q) for c in Company)
        assert st.discard == d["discard"]
        turn = st.turn
        if d["turn"] is None:
            assert turn is None
        else:
            assert (turn.player, turn.card, turn.sold) == (d["turn"]["player"], d["turn"]["card"],
                                                           d["turn"]["sold"])
            exp = d["turn"].get("expansion")
            if exp is None:
                assert turn.expansion is None
            else:
                assert str(turn.expansion.company) == exp["company"]
                assert turn.expansion.actions_left == exp.get("actions_left")
                assert list(turn.expansion.start_spaces) == exp.get("from", [])
                assert st.decider(turn.expansion.company) == st.to_move
            if st.step is Step.SUCCESSOR:
                assert str(turn.selling) == d["turn"]["company"]
                assert list(turn.candidates) == d["turn"]["candidates"]
    assert seen_steps == set(Step)


def test_reason_codes_agree_with_the_move_generator_on_every_action():
    """why_code(a) == 0 exactly for the generated actions; every other action gets a sentence
    naming a specific rule (never the catch-all)."""
    codes_seen = set()
    for st in sample_positions():
        legal = set(st.legal_actions())
        for a in range(NUM_ACTIONS):
            code = st.why_code(a)
            assert (code == 0) == (a in legal), (str(st.step), a, WHY_NAMES[code])
            assert st.is_legal(a) == (a in legal)
            codes_seen.add(WHY_NAMES[code])
        illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
        for a in random.Random(len(legal)).sample(illegal, min(30, len(illegal))):
            reason = st.why_illegal(a)
            assert reason and reason != "not legal here"
    # the walk reaches the common reasons (the rare ones have hand-made positions in test_rules)
    assert {"legal", "wrong-step", "not-in-hand", "space-taken", "no-share", "cannot-afford",
            "not-adjacent", "game-over"} <= codes_seen


def test_card_actions_and_expansion_spaces_come_from_the_generator():
    for st in sample_positions():
        legal = st.legal_actions()
        if st.step is Step.CARD and st.hand_known(st.to_move):
            by_card = []
            for card in st.hand(st.to_move):
                acts = st.card_actions(card)
                assert acts and all(Move.from_action(a).card == card for a in acts)
                by_card += acts
            assert sorted(by_card) == legal
            outside = next(c for c in range(1, 37) if c not in st.hand(st.to_move))
            assert st.card_actions(outside) == []
        else:
            assert st.card_actions(1) == []
        places = [Move.from_action(a).space for a in legal
                  if Move.from_action(a).kind is MoveKind.PLACE and st.step is Step.EXPAND]
        assert st.expansion_spaces() == places


@pytest.mark.parametrize("call", [
    lambda st: st.owner(0), lambda st: st.owner(37), lambda st: st.is_protected(10**20),
    lambda st: st.tiles(6), lambda st: st.growth(-1), lambda st: st.president(10**9),
    lambda st: st.coins(3), lambda st: st.shares(0, 6), lambda st: st.shares(-1, 0),
    lambda st: st.hand(10**9), lambda st: st.hand_size(3), lambda st: st.hand_known(10**9),
    lambda st: st.score(-10**9), lambda st: st.tokens(10**9), lambda st: st.column(10**9),
    lambda st: st.card_actions(0), lambda st: st.nth_legal(10**9), lambda st: st.determinize(10**9, 1),
])
def test_out_of_range_arguments_raise_index_error(call):
    st = State.new(3, seed=5)
    before = st.to_dict()
    with pytest.raises(IndexError):
        call(st)
    assert st.to_dict() == before


def test_apply_unchecked_refuses_actions_of_another_step_and_outside_the_table():
    st = State.new(3, seed=5)
    for bad in (-10**9, -1, NUM_ACTIONS, 10**30):
        with pytest.raises(IndexError):
            st.apply_unchecked(bad)
    sell = Move.from_action(2739).action
    with pytest.raises(ValueError, match="card step"):
        st.apply_unchecked(sell)
    assert st.step is Step.CARD and st.discard == []


def test_view_keeps_only_what_the_seat_sees():
    for st in positions(4, 77, every=17):
        if st.is_over():
            continue
        for seat in range(4):
            v = st.view(seat)
            assert v.hand(seat) == st.hand(seat)
            assert all(v.hand(q) is None and v.hand_size(q) == st.hand_size(q)
                       for q in range(4) if q != seat)
            assert v.seed is None and v.rng_state != st.rng_state
            assert v.legal_actions() == (st.legal_actions() if st.to_move == seat or
                                         st.step is not Step.CARD else [])


def test_mutators_for_adapters():
    st = State.new(3, seed=8)
    st.set_hand(1, [36, 1, 5])
    assert st.hand(1) == [1, 5, 36] and st.hand_size(1) == 3
    st.set_hand(2, None)
    assert st.hand(2) is None and st.hand_size(2) == 6
    with pytest.raises(ValueError):
        st.set_hand(0, list(range(1, 8)))          # 7 cards: a hand holds at most 6
    with pytest.raises(IndexError):
        st.set_hand(0, [0])
    st.set_start_player(1)
    assert st.start_player == st.to_move == 1
    st.reseed_chance(1)
    words = st.rng_state
    st.reseed_chance(1)
    assert st.rng_state == words
    st.push(st.legal_actions()[0])
    with pytest.raises(ValueError):
        st.set_start_player(0)                      # a card of the round was played


def test_every_action_is_a_move_that_round_trips_through_its_text():
    names = ["Anna", "Bruno", "Chiara", "David", "Elena", "Felix"]
    seen = set()
    for a in range(NUM_ACTIONS):
        m = Move.from_action(a)
        assert m.action == a and m not in seen
        seen.add(m)
        assert parse_move(str(m), m.step, names) == m
        if m.step is Step.CARD:
            assert m.top == DECK[m.card - 1].top
            assert (m.kind is MoveKind.GROW) == (m.company is not None)
    with pytest.raises(ValueError):
        Move.from_action(NUM_ACTIONS)
    with pytest.raises(ValueError):
        Move(Step.SELL, MoveKind.GROW).action         # not a move of the game
    m = Move.play(7, MoveKind.GROW, company=Company.CROWN)
    assert str(m) == "play 7 grow Crown" and parse_move("play 7 grow cro") == m
    with pytest.raises(AttributeError):
        m.card = 8                                    # frozen


def test_legal_moves_iterates_moves_and_accepts_both_forms():
    st = State.new(2, seed=3)
    moves = list(st.legal_moves)
    assert all(isinstance(m, Move) for m in moves) and len(moves) == len(st.legal_moves)
    assert moves[0] in st.legal_moves and moves[0].action in st.legal_moves
    assert Move(Step.SELL, MoveKind.PASS) not in st.legal_moves
    st.push(moves[0])
    assert st.pop() == moves[0]
