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
from ekonos._core import ACTIONS, STEP_NAMES

FULL = (1 << 36) - 1
CARD, XCHOICE, EXPAND, SELL, BUY, SUCC, OVER = range(7)
assert STEP_NAMES == ("card", "expand-choice", "expand", "sell", "buy", "successor", "over")


def popcount(x: int) -> int:
    return bin(x).count("1")


def check_invariants(st: State) -> None:
    f = st._fields()
    n = f["nplayers"]
    cards, _, rounds = TABLE[n]
    tiles = f["tiles"]
    # map: at most 10 tiles per company, no space holds two tiles, at most 36 tiles,
    # protected tiles are tiles on the map
    union = 0
    for c in range(6):
        assert popcount(tiles[c]) <= 10, ("tiles", c)
        assert tiles[c] & union == 0, ("two tiles on a space", c)
        assert tiles[c] & ~FULL == 0
        union |= tiles[c]
    assert popcount(union) <= 36
    assert f["protected"] & ~union == 0, "protected mark without a tile"
    # market
    shares = f["shares"]
    for c in range(6):
        col = [shares[q][c] for q in range(n)]
        assert min(col) >= 0 and sum(col) <= 8, ("column", c, col)
        pres = f["president"][c]
        successor_pending = f["step"] == SUCC and f["xcompany"] == c
        if sum(col) == 0:
            assert pres == -1, ("empty column with a president", c)
        elif successor_pending:
            cands = [q for q in range(n) if f["candidates"] >> q & 1]
            top = max(col)
            assert len(cands) >= 2 and all(col[q] == top for q in cands)
            assert sorted(cands) == [q for q in range(n) if col[q] == top]
            assert pres == f["turn_player"] and col[pres] < top
        else:
            assert 0 <= pres < n, ("no president", c)
            assert col[pres] >= 1 and col[pres] == max(col), ("president", c, col, pres)
    assert all(shares[q][c] == 0 for q in range(n, 6) for c in range(6))
    # coins
    assert all(f["coins"][q] >= 0 for q in range(n))
    # cards: every card in exactly one place (a hand, the discard, the undealt stock)
    hands = f["hand"]
    seen = 0
    for q in range(n):
        assert st.hand_known(q)
        assert popcount(hands[q]) == f["hand_size"][q]
        assert hands[q] & seen == 0, ("card in two hands", q)
        seen |= hands[q]
    disc = f["discard"]
    assert len(set(disc)) == len(disc)
    dmask = sum(1 << c for c in disc)
    assert dmask & seen == 0, "a card both played and in a hand"
    assert len(disc) + sum(f["hand_size"][:n]) == n * cards
    # hand sizes follow the turn order of the round (R5)
    played, start = len(disc), f["start_player"]
    for q in range(n):
        expect = cards - (played // n + (1 if (q - start) % n < played % n else 0))
        assert f["hand_size"][q] == expect, ("hand size", q)
    # growth tracks
    step = f["step"]
    for c in range(6):
        g = f["growth"][c]
        assert 0 <= g <= 6
        if g == 6:
            assert step == EXPAND and f["xcompany"] == c
    # the step machine
    assert f["round"] in range(1, rounds + 1)
    tp, mover = f["turn_player"], f["to_move"]
    if step == OVER:
        assert f["round"] == rounds and played == n * cards
        assert sum(f["hand_size"][:n]) == 0
        assert st.to_move is None and st.legal_actions() == []
        return
    assert 0 <= tp < n and 0 <= mover < n
    if step == CARD:
        assert mover == tp == (start + played) % n
        assert f["hand_size"][mover] > 0 and f["turn_card"] == -1 and not f["sold"]
    else:
        assert tp == (start + played - 1) % n
        assert f["turn_card"] == disc[-1]
    x = f["xcompany"]
    if step in (XCHOICE, EXPAND):
        decider = f["president"][x] if f["president"][x] >= 0 else tp
        assert mover == decider
        if step == XCHOICE:
            assert f["growth"][x] == 4
        else:
            assert f["growth"][x] in (4, 6)
            assert f["xactions_left"] in range(1, (2 if f["growth"][x] == 4 else 3) + 1)
            assert f["xfrom"] & ~tiles[x] == 0          # own tiles are never replaced
            assert popcount(tiles[x] & ~f["xfrom"]) <= (2 if f["growth"][x] == 4 else 3) \
                - f["xactions_left"]
    elif step == SELL:
        assert mover == tp and not f["sold"]
    elif step in (BUY, SUCC):
        assert mover == tp
        if step == SUCC:
            assert f["sold"]
    # a step with a single decision is never asked for; counts agree with the list
    legal = st.legal_actions()
    assert len(legal) >= 2, (STEP_NAMES[step], legal)
    assert st.count_legal() == len(legal)


GROW_SUBS = (72, 73)      # the growth entries of a card's actions (place 0-35, protect 36-71)


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
        if grow_bias and st.step == CARD and rng.random() < 0.5:
            grows = [i for i, a in enumerate(legal) if a % ACTIONS["CARD_SUBS"] in GROW_SUBS]
            k = rng.choice(grows)
        assert st.nth_legal(k) == legal[k]
        if st.step_name == "card":
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
        f = st._fields()
        assert f["round"] == rounds
        assert f["hand"][:n] == [0] * n and f["hand_size"][:n] == [0] * n
        assert len(f["discard"]) == n * cards
        assert all(c >= 0 for c in f["coins"][:n])
        assert all(sum(f["shares"][q][c] for q in range(n)) <= 8 for c in range(6))
        assert all(popcount(t) <= 10 for t in f["tiles"])
        assert st.scores() == [
            f["coins"][q] + sum(f["shares"][q][c] * popcount(f["tiles"][c]) for c in range(6))
            for q in range(n)]
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
                steps_seen.add(st.step_name)
                if len(stops) % 3 == 0:
                    continue_both(st.copy(), back, seed=g * 7 + i)
            st.push(rng.choice(st.legal_actions()))
            i += 1
        back = State.from_json(st.to_json())
        assert back == st and back.is_over()
    assert {"card", "sell", "buy"} <= steps_seen


def test_round_trip_in_every_step():
    """Reach each step in random games and round-trip it through JSON and through a file."""
    found = {}
    for seed in range(400):
        rng = random.Random(seed)
        st = State.new(3 + seed % 3, seed=seed)
        while True:
            found.setdefault(st.step_name, st.copy())
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
        if len(found) == 7:
            break
    assert set(found) == set(STEP_NAMES)
    for name, st in found.items():
        back = State.from_json(st.to_json())
        assert back == st, name
        continue_both(st.copy(), back, seed=len(name))


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
            assert all(0 <= a < ACTIONS["NUM_ACTIONS"] for a in legal)
            st.push_unchecked(rng.choice(legal))
