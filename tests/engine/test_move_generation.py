"""Legal move generation: golden counts derived by hand, an independent reference generator
(tests/reference.py, written from docs/rules.md) checked against the engine on thousands of
positions, and perft counts.

Standard: no expected number here is copied from the engine.  Each golden count is derived from
the rules in the comment above it; the engine and the reference must both reproduce it.
"""
from __future__ import annotations

import random

import pytest
from helpers import load, position
from reference import ADJ, COMPANIES, DECK, TABLE, Ref, key_of_position, perft

from ekonos import PositionError, State

# ---------------------------------------------------------------------------------------------
# Golden counts, one or more positions per step.

def _mid_turn(n, step, *, turn_extra=None, sold=False, card=36, **kw):
    """Seat 0 has played `card` this turn (start player 0, one card in the discard).  Card 36 is
    Gemini / Crown + Hydra; card 7 is Phoenix / Sunset + Crown."""
    turn = {"player": 0, "card": card, "sold": sold}
    turn.update(turn_extra or {})
    return position(n, start=0, discard=[card], step=step, turn=turn, **kw)


GOLDEN = {}

# card-1: 3 players, empty map, hand of one card per top company [1, 7, 13, 19, 25, 31].
# Every card: 36 empty spaces (R9a) + 0 tiles to protect (R9b) + 2 growths (R10) = 38.
# 6 cards x 38 = 228.
GOLDEN["card-empty-map"] = (position(3, hands={0: [1, 7, 13, 19, 25, 31]}), 228)

# card-2: 2 players, 6 cards played (each hand holds 3), seat 0 to move with [1, 7, 13].
# Map: Sunset on 1-10 (1, 2, 3 protected), Phoenix on 20 and 21! -> 12 occupied, 24 empty.
#   card 1  (Sunset top):  Sunset has 10 tiles -> no place; protect 4..10 = 7; grow 2  ->  9
#   card 7  (Phoenix top): place 24; protect 20 = 1; grow 2                            -> 27
#   card 13 (Panda top):   place 24; Panda has no tile = 0; grow 2                      -> 26
# total 9 + 27 + 26 = 62.
_b2 = {s: "Sunset" for s in range(4, 11)}
_b2.update({1: "Sunset!", 2: "Sunset!", 3: "Sunset!", 20: "Phoenix", 21: "Phoenix!"})
GOLDEN["card-ten-tiles"] = (position(2, hands={0: [1, 7, 13]}, discard=[31, 32, 33, 34, 35, 36],
                                     board=_b2), 62)

# card-3: 5 players (hand of 5), seat 0 with [19, 20, 25, 26, 31].
# Map: Crown on 27-36 all protected (10 tiles), Hydra on 1!, 2, 3 -> 13 occupied, 23 empty.
#   19, 20 (Crown top):   no place (10 tiles), nothing to protect, grow 2       -> 2 each
#   25, 26 (Hydra top):   place 23, protect 2 and 3 = 2, grow 2                 -> 27 each
#   31 (Gemini top):      place 23, protect 0, grow 2                           -> 25
# total 2 + 2 + 27 + 27 + 25 = 83.
_b3 = {s: "Crown!" for s in range(27, 37)}
_b3.update({1: "Hydra!", 2: "Hydra", 3: "Hydra"})
GOLDEN["card-top-unavailable"] = (position(5, hands={0: [19, 20, 25, 26, 31]}, board=_b3), 83)

# card-4: 6 players, hand [6, 12, 18, 24, 30, 36] (one card per top company).
# Map: Gemini on 33, 34, 35, 36! ; Sunset on 1 -> 5 occupied, 31 empty.
#   6 (Sunset): 31 + protect 1 + 2 = 34;  12, 18, 24, 30: 31 + 0 + 2 = 33 each (x4 = 132)
#   36 (Gemini): 31 + protect 33, 34, 35 = 3 + 2 = 36
# total 34 + 132 + 36 = 202.
GOLDEN["card-six-players"] = (
    position(6, hands={0: [6, 12, 18, 24, 30, 36]},
             board={33: "Gemini", 34: "Gemini", 35: "Gemini", 36: "Gemini!", 1: "Sunset"}),
    202)

# expand-choice: Crown at 4, president seat 1 decides: expand, wait -> 2.
GOLDEN["expand-choice"] = (
    _mid_turn(3, "expand-choice", to_move=1, growth={"Crown": 4}, board={5: "Crown"},
              shares={"Crown": [0, 1, 0]}, turn_extra={"expansion": {"company": "Crown"}}), 2)

# expand-1: Hydra at 6, 3 actions, from [22, 29!].  Neighbours (board.json): 22 -> 20, 21, 23,
# 29; 29 -> 22, 28, 35.  Candidates 20, 21, 23, 28, 35 (22, 29 are Hydra's own):
#   20 Sunset (unprotected) yes; 21 Panda! no; 23 empty yes; 28 Crown yes; 35 Gemini! no -> 3
# protect: unprotected Hydra tiles = 22 -> 1; stop -> 1.  Total 3 + 1 + 1 = 5.
GOLDEN["expand-from-start"] = (
    _mid_turn(3, "expand", growth={"Hydra": 6},
              board={22: "Hydra", 29: "Hydra!", 20: "Sunset", 21: "Panda!", 28: "Crown",
                     35: "Gemini!"},
              turn_extra={"expansion": {"company": "Hydra", "actions_left": 3,
                                        "from": [22, 29]}}), 5)

# expand-2: the same expansion after "place 23" and "place 28" (1 action left).  Hydra now on
# 22, 23, 28, 29!.  Eligible places still come from the start set {22, 29}: 20 (Sunset) only;
# 23, 28 are Hydra's now, 21 and 35 protected; 24, 30 (next to 23) and 19, 27, 34 (next to 28)
# were not adjacent at the start -> 1.  Protect 22, 23, 28 -> 3.  Stop -> 1.  Total 5.
GOLDEN["expand-mid"] = (
    _mid_turn(3, "expand", growth={"Hydra": 6},
              board={22: "Hydra", 23: "Hydra", 28: "Hydra", 29: "Hydra!", 20: "Sunset",
                     21: "Panda!", 35: "Gemini!"},
              turn_extra={"expansion": {"company": "Hydra", "actions_left": 1,
                                        "from": [22, 29]}}), 5)

# expand-3: Sunset at 4 expanding with 2 actions, 10 tiles on 1-10 (1!, 2! protected): no place
# (10 tiles, R13a); protect 3..10 = 8; stop 1.  Total 9.
_b7 = {s: "Sunset" for s in range(3, 11)}
_b7.update({1: "Sunset!", 2: "Sunset!"})
GOLDEN["expand-ten-tiles"] = (
    _mid_turn(4, "expand", card=7, growth={"Sunset": 4}, board=_b7,
              turn_extra={"expansion": {"company": "Sunset", "actions_left": 2,
                                        "from": list(range(1, 11))}}), 9)

# sell: seat 0 owns Sunset, Crown, Gemini shares -> 3 sales + pass = 4.
GOLDEN["sell"] = (
    _mid_turn(3, "sell", coins=[0, 0, 0],
              shares={"Sunset": [1, 0, 0], "Crown": [2, 3, 0], "Gemini": [1, 0, 1],
                      "Panda": [0, 2, 0]}), 4)

# buy: seat 0 has 3 coins (3 players, no token limit).  Columns: Sunset 2 (costs 3: yes),
# Phoenix 3 (4: no), Panda 8 (full: no), Crown 0 (1: yes), Hydra 1 (2: yes), Gemini 7 (8: no).
# 3 buys + pass = 4.
GOLDEN["buy"] = (
    _mid_turn(3, "buy", coins=[3, 0, 0],
              shares={"Sunset": [0, 2, 0], "Phoenix": [0, 0, 3], "Panda": [4, 4, 0],
                      "Hydra": [0, 1, 0], "Gemini": [2, 2, 3]}), 4)

# (A buy step with 18 tokens, 4 players, has the single decision 'pass', which the engine plays
# at once: no game waits there and the loader refuses such a file; test_rules checks R17 there.)

# buy-17: 4 players, seat 0 holds Sunset 4, Phoenix 4, Panda 3, Crown 2 = 13 shares and presides
# over those four: 17 tokens, 60 coins (every price is affordable).  R17: a buy takes the share
# and, when it makes the buyer president, the marker too; the buyer may not pass 18.
#   Sunset, Phoenix, Panda, Crown: seat 0 presides already -> 1 token -> 18: yes (4)
#   Hydra, Gemini: no president, the buy would make seat 0 president -> 2 tokens -> 19: no
# 4 buys + pass = 5.  (Before R17 was clarified the engine counted 7: all six columns.)
GOLDEN["buy-17-tokens"] = (
    _mid_turn(4, "buy", coins=[60, 0, 0, 0],
              shares={"Sunset": [4, 0, 0, 0], "Phoenix": [4, 0, 0, 0], "Panda": [3, 0, 0, 0],
                      "Crown": [2, 0, 0, 0]}), 5)

# buy-17-overtake: 4 players, seat 0 holds Sunset 4, Phoenix 4, Panda 3, Crown 1 (presiding over
# all four: 4 markers) and 1 Hydra share under seat 1's presidency (seat 1: 1 Hydra, 2 Gemini):
# 13 shares + 4 markers = 17 tokens, 60 coins.
#   Sunset, Phoenix, Panda, Crown: already president -> 1 token: yes (4)
#   Hydra: seat 0 would hold 2 > seat 1's 1 -> takes the presidency (R18b) -> 2 tokens: no
#   Gemini: seat 0 would hold 1, not more than seat 1's 2 -> no marker -> 1 token: yes
# 5 buys + pass = 6.  (Before the clarification: 7.)
GOLDEN["buy-17-overtake"] = (
    _mid_turn(4, "buy", coins=[60, 0, 0, 0],
              shares={"Sunset": [4, 0, 0, 0], "Phoenix": [4, 0, 0, 0], "Panda": [3, 0, 0, 0],
                      "Crown": [1, 0, 0, 0], "Hydra": [1, 1, 0, 0], "Gemini": [0, 2, 0, 0]},
              president={"Hydra": 1}), 6)

# successor: 5 players; seat 0 (president) sold Crown and holds 0; seats 1, 2, 3 hold 1 each,
# seat 4 none -> candidates 1, 2, 3 -> 3.
GOLDEN["successor"] = (
    _mid_turn(5, "successor", sold=True, shares={"Crown": [0, 1, 1, 1, 0]},
              president={"Crown": 0},
              turn_extra={"company": "Crown", "candidates": [1, 2, 3]}), 3)

# over: no decision -> 0.
GOLDEN["over"] = (
    position(2, round=6, step="over", discard=list(range(1, 13)), hands={0: [], 1: []}), 0)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_legal_move_counts(name):
    d, expected = GOLDEN[name]
    st = load(d)
    assert st.step_name == d["step"]
    engine = st.legal_actions()
    assert len(engine) == expected
    assert st.count_legal() == expected
    assert len(st.legal_moves) == expected
    ref = Ref(d).legal()
    assert len(ref) == expected
    assert sorted(st.legal_moves.texts()) == sorted(ref)


def test_golden_covers_every_step():
    assert {d["step"] for d, _ in GOLDEN.values()} == {
        "card", "expand-choice", "expand", "sell", "buy", "successor", "over"}


# ---------------------------------------------------------------------------------------------
# Engine vs reference on positions of random games, following the games move by move.

def _engine_hands(st: State):
    return lambda ref: [set(st.hand(q)) for q in range(st.nplayers)]


def _check_agree(st: State, ref: Ref) -> None:
    engine = st.legal_actions()
    assert engine == sorted(engine)                              # ascending (the .pxd contract)
    assert st.count_legal() == len(engine)
    assert sorted(st.legal_moves.texts()) == sorted(ref.legal()), st.to_json()
    assert key_of_position(st.to_dict()) == ref.public_key()
    # every position the engine reaches, a file can hold (`apply` writes, `show` reads)
    assert State.from_dict(st.to_dict()) == st


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_reference_agrees_along_random_games(n):
    rng = random.Random(1000 + n)
    positions = 0
    for g in range(12):
        st = State.new(n, seed=rng.randrange(2**32))
        ref = Ref(st.to_dict())
        while not st.is_over():
            _check_agree(st, ref)
            positions += 1
            a = rng.choice(st.legal_actions())
            text = st.move_text(a)
            st.push(a)
            ref = ref.apply(text, deal=_engine_hands(st))
        _check_agree(st, ref)
        assert st.scores() == [ref.score(q) for q in range(n)]
    assert positions > 1000


# ---------------------------------------------------------------------------------------------
# Engine vs reference on synthetic positions: odd corners random games rarely reach (10 tiles,
# full columns, 17-19 tokens, every step), each checked for legal moves and for every successor.

def random_position(rng: random.Random) -> dict:
    """A possible position (the loader must accept it): drawn by `_draw_position` until it is not
    one the rules make impossible (a step whose single decision is played at once; with 4-6
    players, more than 18 shares of one player, R17)."""
    while True:
        d = _draw_position(rng)
        if d["step"] in ("sell", "buy", "expand") and len(Ref(d).legal()) == 1:
            continue
        if len(d["players"]) >= 4 and any(sum(col[q] for col in d["shares"].values()) > 18
                                          for q in range(len(d["players"]))):
            continue
        return d


def _expansion_so_far(rng: random.Random, own: list, board: dict, used: int) -> list:
    """The tiles placed so far in an expansion that used `used` growth actions (R13): each next
    to a tile the company began with, a placement (and a later protection) costing one action
    each.  Returns the `from` spaces: the company's other tiles."""
    for _ in range(10):
        placed = rng.sample(own, min(len(own), rng.randint(0, used)))
        frm = [s for s in own if s not in placed]
        cost = len(placed) + sum(1 for s in placed if board[s].endswith("!"))
        if cost <= used and all(ADJ[s] & set(frm) for s in placed):
            return sorted(frm)
    return sorted(own)


def _draw_position(rng: random.Random) -> dict:
    n = rng.randint(2, 6)
    per_hand, _, rounds = TABLE[n]
    step = rng.choice(["card", "card", "expand-choice", "expand", "expand", "sell", "buy",
                       "buy", "successor"])
    total = n * per_hand
    played = rng.randint(0, total - 1) if step == "card" else rng.randint(1, total)
    start = rng.randrange(n)
    deck = list(range(1, 37))
    rng.shuffle(deck)
    discard = deck[:played]
    rest = deck[played:]
    hands = {}
    for q in range(n):
        size = per_hand - (played // n + (1 if (q - start) % n < played % n else 0))
        hands[q], rest = rest[:size], rest[size:]
    # the map: some companies crowded (up to exactly 10), protected tiles here and there
    board = {}
    spaces = list(range(1, 37))
    rng.shuffle(spaces)
    fill = rng.choice([0.2, 0.5, 0.8, 1.0])
    counts = dict.fromkeys(COMPANIES, 0)
    if rng.random() < 0.3:                    # one company at or next to its 10-tile limit
        crowded = rng.choice(COMPANIES)
        for s in spaces[:rng.choice([9, 10])]:
            board[s] = crowded + ("!" if rng.random() < 0.3 else "")
            counts[crowded] += 1
        spaces = spaces[counts[crowded]:]
    for s in spaces[:int(len(spaces) * fill)]:
        c = rng.choice(COMPANIES)
        if counts[c] < 10:
            counts[c] += 1
            board[s] = c + ("!" if rng.random() < 0.3 else "")
    # shares: columns of random size; the mover is sometimes given many tokens (R17)
    mover_bias = rng.random() < 0.4
    turn_player = (start + played) % n if step == "card" else (start + played - 1) % n
    shares = {}
    for c in COMPANIES:
        size = rng.choice([0, 0, 1, 2, 3, 5, 7, 8])
        col = [0] * n
        for _ in range(size):
            q = turn_player if mover_bias and rng.random() < 0.6 else rng.randrange(n)
            col[q] += 1
        shares[c] = col
    growth = {c: rng.choice([0, 1, 2, 3, 4, 5]) for c in COMPANIES}
    turn = None
    president = {}
    to_move = None
    if step != "card":
        turn = {"player": turn_player, "card": discard[-1],     # R7: sold only after the card
                "sold": step in ("buy", "successor") and rng.random() < 0.5}
    if step in ("expand-choice", "expand"):
        x = rng.choice(DECK[discard[-1]][1])  # a company the card just played can grow
        turn["expansion"] = {"company": x}
        if step == "expand-choice":
            growth[x] = 4
        else:
            growth[x] = rng.choice([4, 6])
            most = 2 if growth[x] == 4 else 3
            left = rng.randint(1, most)
            own = [s for s, v in board.items() if v.rstrip("!") == x]
            # tiles placed earlier in this expansion are not in `from`
            turn["expansion"].update(actions_left=left,
                                     **{"from": _expansion_so_far(rng, own, board, most - left)})
    if step == "successor":
        x = rng.choice(COMPANIES)
        k = rng.randint(2, n - 1) if n >= 3 else None
        if k is None:                         # two players cannot tie: make it a buy step
            step = "buy"
        else:
            # before the sale the seller presided with `top` shares, now holds top - 1
            top = rng.randint(1, 9 // (k + 1))
            mine = top - 1
            others = [q for q in range(n) if q != turn_player]
            tied = rng.sample(others, k)
            col = [0] * n
            for q in tied:
                col[q] = top
            col[turn_player] = mine
            room = 8 - top * k - mine
            for q in others:
                if q not in tied and room > 0:
                    v = rng.randint(0, min(room, top - 1))
                    col[q] = v
                    room -= v
            shares[x] = col
            president[x] = turn_player
            turn.update(company=x, candidates=sorted(tied), sold=True)
    for c in COMPANIES:
        if c in president:
            continue
        col = shares[c]
        if sum(col):
            best = max(col)
            president[c] = rng.choice([q for q in range(n) if col[q] == best])
    if step in ("expand-choice", "expand"):
        x = turn["expansion"]["company"]
        to_move = president.get(x, turn_player)
    coins = [rng.choice([0, 1, 2, 3, 5, 8, 13, 40]) for _ in range(n)]
    d = position(n, hands=hands, coins=coins, round=rng.randint(1, rounds), start=start,
                 step=step, to_move=to_move, board=board, growth=growth, shares=shares,
                 president=president, discard=discard, turn=turn,
                 variant=rng.choice(["rulebook", "bga"]), seed=rng.randrange(2**32))
    return d


def test_reference_agrees_on_synthetic_positions_and_their_successors():
    rng = random.Random(2024)
    steps = set()
    checked = 0
    for _ in range(3000):
        d = random_position(rng)
        try:
            st = load(d)
        except PositionError as e:            # the generator builds only possible states
            raise AssertionError(f"valid position refused: {e}\n{d}") from None
        ref = Ref(d)
        steps.add(d["step"])
        _check_agree(st, ref)
        moves = st.legal_actions()
        for a in rng.sample(moves, min(len(moves), 12)):
            child = st.copy()
            child.push(a)
            rchild = ref.apply(st.move_text(a), deal=_engine_hands(child))
            _check_agree(child, rchild)
            checked += 1
    assert steps == {"card", "expand-choice", "expand", "sell", "buy", "successor"}
    assert checked > 15000


# ---------------------------------------------------------------------------------------------
# Perft: decision sequences of a fixed length (forced steps are not decisions).

def engine_perft(st: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = st.legal_actions()
    if depth == 1:
        return len(moves)
    total = 0
    for a in moves:
        child = st.copy()
        child.push_unchecked(a)
        total += engine_perft(child, depth - 1)
    return total


def perft_position_small():
    """2 players, 6 cards played (3 left each), a crowded map (6 empty spaces), Crown's track at
    5 and Hydra's at 3, shares and coins so that sell, buy, expansions and presidency all occur."""
    board = {s: "Sunset" for s in range(1, 8)}
    board.update({s: "Phoenix" for s in range(8, 14)})
    board.update({s: "Panda!" for s in range(14, 20)})
    board.update({s: "Crown" for s in range(20, 25)})
    board.update({25: "Hydra", 26: "Hydra!", 27: "Gemini", 28: "Gemini", 29: "Gemini!",
                  30: "Crown!"})
    return position(2, hands={0: [1, 16, 27], 1: [4, 10, 29]}, discard=[5, 11, 17, 23, 31, 35],
                    board=board, growth={"Crown": 5, "Hydra": 3, "Gemini": 2},
                    shares={"Crown": [2, 1], "Hydra": [0, 2], "Sunset": [1, 1]},
                    president={"Crown": 0, "Hydra": 1, "Sunset": 1}, coins=[4, 2])


def test_perft_depth_1_by_hand():
    # seat 0 holds 1 (Sunset top; Panda, Crown), 16 (Panda; Phoenix, Hydra), 27 (Hydra; Sunset,
    # Crown).  Empty spaces: 31-36 = 6.
    #   1:  Sunset has 7 tiles < 10: place 6; protect Sunset 1-7 (none protected) 7; grow 2 -> 15
    #   16: Panda has 6 tiles: place 6; protect 0 (all Panda tiles protected); grow 2     ->  8
    #   27: Hydra has 2 tiles: place 6; protect 25 -> 1; grow 2                           ->  9
    # total 32.
    st = load(perft_position_small())
    assert len(st.legal_actions()) == 32
    assert perft(Ref(perft_position_small()), 1) == 32


def test_perft_depth_2_by_hand():
    # After each of seat 0's 32 card moves, the next decision (seat 0 owns Crown 2, Sunset 1, so
    # its sell step offers sell Crown, sell Sunset, pass = 3):
    #   card 1:  place x6 -> 6 x 3 = 18; protect x7 -> 21; grow Panda (0 -> 1) -> 3;
    #            grow Crown (5 -> 6): forced expansion decided by its president, seat 0.  Crown on
    #            20-24 and 30!; their neighbours outside Crown: 14, 15, 16, 17, 19 (Panda!, no),
    #            29 (Gemini!, no), 31, 35, 36 (empty, yes) -> 3 places + protect 20-24 (5) +
    #            stop = 9.                                      card 1: 18 + 21 + 3 + 9 = 51
    #   card 16: place x6 -> 18; grow Phoenix (0 -> 1) -> 3; grow Hydra (3 -> 4): expand or
    #            wait for Hydra's president, seat 1 -> 2.        card 16: 18 + 3 + 2 = 23
    #   card 27: place x6 -> 18; protect 25 -> 3; grow Sunset (0 -> 1) -> 3; grow Crown -> 9
    #                                                            card 27: 18 + 3 + 3 + 9 = 33
    # total 51 + 23 + 33 = 107.
    d = perft_position_small()
    assert engine_perft(load(d), 2) == 107
    assert perft(Ref(d), 2) == 107


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_perft_engine_matches_reference(depth):
    d = perft_position_small()
    expected = perft(Ref(d), depth)
    assert engine_perft(load(d), depth) == expected
    assert expected > 32 * depth


def test_perft_depth_3_open_position():
    d = position(3, hands={0: [7, 25], 1: [13, 19], 2: [2, 33]},
                 discard=[1, 3, 5, 8, 9, 11, 14, 15, 18, 20, 21, 22], start=0,
                 board={5: "Phoenix", 6: "Phoenix!", 12: "Hydra", 18: "Sunset", 19: "Crown"},
                 growth={"Sunset": 5, "Crown": 3, "Phoenix": 5},
                 shares={"Phoenix": [1, 1, 0], "Hydra": [0, 0, 2]},
                 president={"Phoenix": 1, "Hydra": 2}, coins=[3, 1, 0])
    expected = perft(Ref(d), 3)
    assert engine_perft(load(d), 3) == expected
