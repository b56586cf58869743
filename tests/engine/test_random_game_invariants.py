"""Property tests over thousands of seeded random games for every player count (2-6).

After every decision the invariants of the rules hold; every game ends after the right number of
rounds with every hand empty; save/load round-trips at random points are exact and the loaded
game continues exactly like the original.
"""
from __future__ import annotations

import random

import pytest
from reference import TABLE

from ekonos import State, load_file, save_file
from ekonos.moves import Move, MoveKind
from ekonos.rules import Company, Step



def check_invariants(st: State) -> None:
    """The rules' invariants, read through the public API (the read API and `turn`)."""
    n = st.nplayers
    cards, _, rounds = TABLE[n]
    step = st.step
    turn = st.turn
    # map: at most 10 tiles per company, no space holds two tiles, protected tiles are tiles
    placed: list[int] = []
    for c in Company:
        assert st.value(c) == len(st.tiles(c)) <= 10, ("tiles", c)
        placed += st.tiles(c)
        assert set(st.protected_tiles(c)) <= set(st.tiles(c))
    assert len(placed) == len(set(placed)) and set(placed) <= set(range(1, 37))
    assert sorted(placed + st.empty_spaces()) == list(range(1, 37))
    assert all(st.owner(sp) is None for sp in st.empty_spaces())
    assert not any(st.is_protected(sp) for sp in st.empty_spaces()), "protected mark, no tile"
    # market
    for c in Company:
        col = [st.shares(q, c) for q in range(n)]
        assert min(col) >= 0 and sum(col) == st.column(c) <= 8, ("column", c, col)
        pres = st.president(c)
        successor_pending = step is Step.SUCCESSOR and turn.selling == c
        if sum(col) == 0:
            assert pres is None, ("empty column with a president", c)
        elif successor_pending:
            cands = list(turn.candidates)
            top = max(col)
            assert len(cands) >= 2 and all(col[q] == top for q in cands)
            assert sorted(cands) == [q for q in range(n) if col[q] == top]
            assert pres == turn.player and col[pres] < top
        else:
            assert pres is not None and 0 <= pres < n, ("no president", c)
            assert col[pres] >= 1 and col[pres] == max(col), ("president", c, col, pres)
    # coins
    assert all(st.coins(q) >= 0 for q in range(n))
    # cards: every card in exactly one place (a hand, the discard, the undealt stock)
    seen: set[int] = set()
    for q in range(n):
        assert st.hand_known(q)
        hand = set(st.hand(q))
        assert len(hand) == st.hand_size(q)
        assert not hand & seen, ("card in two hands", q)
        seen |= hand
    disc = st.discard
    assert len(set(disc)) == len(disc)
    assert not set(disc) & seen, "a card both played and in a hand"
    assert len(disc) + sum(st.hand_size(q) for q in range(n)) == n * cards
    # hand sizes follow the turn order of the round (R5)
    played, start = len(disc), st.start_player
    for q in range(n):
        expect = cards - (played // n + (1 if (q - start) % n < played % n else 0))
        assert st.hand_size(q) == expect, ("hand size", q)
    # growth tracks
    for c in Company:
        g = st.growth(c)
        assert 0 <= g <= 6
        if g == 6:
            assert step is Step.EXPAND and turn.expansion.company == c
    # the step machine
    assert st.round in range(1, rounds + 1)
    mover = st.to_move
    if step is Step.OVER:
        assert st.round == rounds and played == n * cards
        assert sum(st.hand_size(q) for q in range(n)) == 0
        assert mover is None and st.legal_actions() == []
        return
    assert 0 <= mover < n
    if step is Step.CARD:
        assert turn is None
        assert mover == (start + played) % n and st.hand_size(mover) > 0
    else:
        tp = turn.player
        assert tp == (start + played - 1) % n
        assert turn.card == disc[-1]
    if step in (Step.EXPAND_CHOICE, Step.EXPAND):
        x = turn.expansion.company
        assert mover == st.decider(x)
        assert mover == (st.president(x) if st.president(x) is not None else tp)
        assert not turn.sold                               # R7: the card comes first
        if step is Step.EXPAND_CHOICE:
            assert st.growth(x) == 4 and turn.expansion.actions_left is None
        else:
            most = 2 if st.growth(x) == 4 else 3
            assert turn.expansion.actions_left in range(1, most + 1)
            start_tiles = set(turn.expansion.start_spaces)
            assert start_tiles <= set(st.tiles(x))          # own tiles are never replaced
            assert len(set(st.tiles(x)) - start_tiles) <= most - turn.expansion.actions_left
    elif step is Step.SELL:
        assert mover == tp and not turn.sold
    elif step in (Step.BUY, Step.SUCCESSOR):
        assert mover == tp
        if step is Step.SUCCESSOR:
            assert turn.sold
    # a step with a single decision is never asked for; counts agree with the list
    legal = st.legal_actions()
    assert len(legal) >= 2, (str(step), legal)
    assert st.count_legal() == len(legal)


def play_checked(n: int, seed: int, variant: str = "rulebook", grow_bias: bool = False) -> State:
    """A random game checked after every decision.  `grow_bias`: at card steps choose a growth
    half of the time, so that tracks, expansions and presidents' decisions come up often."""
    rng = random.Random(seed)
    st = State.new(n, seed=seed, variant=variant)
    check_invariants(st)
    card_plays = 0
    while not st.is_over():
        legal = st.legal_actions()
        k = rng.randrange(len(legal))
        if grow_bias and st.step is Step.CARD and rng.random() < 0.5:
            grows = [i for i, a in enumerate(legal) if Move.from_action(a).kind is MoveKind.GROW]
            k = rng.choice(grows)
        assert st.nth_legal(k) == legal[k]
        if st.step is Step.CARD:
            card_plays += 1
        st.push_unchecked(legal[k])
        check_invariants(st)
    cards, _, rounds = TABLE[n]
    assert card_plays == rounds * n * cards
    return st


GAMES_PER_COUNT = 500


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_invariants_after_every_decision(n):
    finals = []
    for g in range(GAMES_PER_COUNT):
        st = play_checked(n, seed=n * 100_000 + g, variant="bga" if g % 5 == 4 else "rulebook",
                          grow_bias=g % 2 == 1)
        finals.append(st)
    # games differ (the seeds matter) and somebody always wins
    assert len({tuple(s.scores()) for s in finals}) > GAMES_PER_COUNT // 2
    assert all(1 <= len(s.winners()) <= n for s in finals)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_thousands_of_games_end_after_the_last_round_with_empty_hands(n):
    cards, _, rounds = TABLE[n]
    made = []
    for g in range(2000):
        st = State.new(n, seed=g, variant="bga" if g % 2 else "rulebook")
        made.append(st.random_playout(10_000 + g))
        assert st.is_over()
        assert st.round == rounds
        assert all(st.hand(q) == [] and st.hand_size(q) == 0 for q in range(n))
        assert len(st.discard) == n * cards
        assert all(st.coins(q) >= 0 for q in range(n))
        assert all(st.column(c) <= 8 for c in Company)
        assert all(st.value(c) <= 10 for c in Company)
        assert st.scores() == [
            st.coins(q) + sum(st.shares(q, c) * st.value(c) for c in Company) for q in range(n)]
    # at least one card play per turn, and each turn at most card + expansion + sell + buy
    assert min(made) >= rounds * n * cards


def test_same_seed_same_game_bit_for_bit():
    for n in (2, 4, 6):
        a = State.new(n, seed=31337)
        b = State.new(n, seed=31337)
        a.random_playout(5)
        b.random_playout(5)
        assert a == b and a._snapshot() == b._snapshot()
        c = State.new(n, seed=31338)
        c.random_playout(5)
        assert c != a


# ---------------------------------------------------------------------------------------------
# Save / load round trips

def continue_both(a: State, b: State, seed: int) -> None:
    """Play the same random decisions in both games to the end, checking they stay equal."""
    ra, rb = random.Random(seed), random.Random(seed)
    while not a.is_over():
        assert a == b
        la, lb = a.legal_actions(), b.legal_actions()
        assert la == lb
        a.push(ra.choice(la))
        b.push(rb.choice(lb))
    assert b.is_over() and a == b
    assert a.scores() == b.scores()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_json_round_trip_at_random_points_is_exact(n):
    rng = random.Random(n)
    steps_seen = set()
    for g in range(40):
        st = State.new(n, seed=rng.randrange(2**63), variant=rng.choice(["rulebook", "bga"]))
        stops = sorted(rng.sample(range(400), 6))
        i = 0
        while not st.is_over():
            if stops and i == stops[0]:
                stops.pop(0)
                text = st.to_json()
                back = State.from_json(text)
                assert back == st
                assert back.to_dict() == st.to_dict()
                assert back.to_json() == text
                assert back.seed == st.seed and back.names == st.names
                steps_seen.add(st.step)
                if len(stops) % 3 == 0:
                    continue_both(st.copy(), back, seed=g * 7 + i)
            st.push(rng.choice(st.legal_actions()))
            i += 1
        back = State.from_json(st.to_json())
        assert back == st and back.is_over()
    assert {Step.CARD, Step.SELL, Step.BUY} <= steps_seen


def test_round_trip_in_every_step():
    """Reach each step in random games and round-trip it through JSON and through a file."""
    found = {}
    for seed in range(400):
        rng = random.Random(seed)
        st = State.new(3 + seed % 3, seed=seed)
        while True:
            found.setdefault(st.step, st.copy())
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
        if len(found) == 7:
            break
    assert set(found) == set(Step)
    for step, st in found.items():
        back = State.from_json(st.to_json())
        assert back == st, step
        continue_both(st.copy(), back, seed=len(str(step)))


def test_file_round_trip_and_atomic_save(tmp_path):
    rng = random.Random(5)
    st = State.new(4, seed=77, names=["Ada", "Bea", "Cy", "Dan"])
    for _ in range(123):
        st.push(rng.choice(st.legal_actions()))
    path = tmp_path / "game.json"
    save_file(st, path)
    back = load_file(State, path)
    assert back == st and back.names == ["Ada", "Bea", "Cy", "Dan"]
    assert path.read_text(encoding="utf-8").endswith("\n")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]   # no temporary file left
    continue_both(st.copy(), back, seed=9)
    # saving over an existing file replaces it whole
    st.push(st.legal_actions()[0])
    save_file(st, path)
    assert load_file(State, path) == st


def test_undo_restores_exactly():
    rng = random.Random(8)
    st = State.new(5, seed=8)
    snapshots = []
    for _ in range(150):
        snapshots.append(st.copy())
        st.push(rng.choice(st.legal_actions()))
    while snapshots:
        st.pop()
        assert st == snapshots.pop()
    with pytest.raises(IndexError):
        st.pop()


def test_action_table_bounds():
    # every legal action of random games is inside the fixed table
    for n in (2, 6):
        st = State.new(n, seed=n)
        rng = random.Random(n)
        while not st.is_over():
            legal = st.legal_actions()
            assert all(Move.from_action(a).action == a for a in legal)
            st.push_unchecked(rng.choice(legal))
