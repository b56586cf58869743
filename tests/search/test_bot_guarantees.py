"""Bots, arena and analysis: determinism, honesty (R21), legality, and obvious moves."""
import random

import pytest

from ekonos import State
from helpers import small_net_file
from ekonos.notation import action_text
from search.lab import arena
from search.analysis import analyse, even
from search.bots import LEVELS, SpecError, make_bot, parse_spec

SMALL_SPECS = ["random", "greedy", "flat:iterations=300", "ismcts:iterations=300",
               "ismcts:iterations=300,c=0.7,horizon=0,plain=0,root=uct",
               f"ismcts:iterations=300,net={small_net_file()}",
               f"ismcts:iterations=300,net={small_net_file()},rollout=0",
               f"ismcts:iterations=300,pnet={small_net_file(kind='policy-net')},ptop=4"]


def random_position(players: int, seed: int, decisions: int) -> State:
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if st.is_over():
            break
        st.push(rng.choice(st.legal_actions()))
    return st


def shuffle_hidden(st: State, seat: int, seed: int) -> State:
    """The same information set for `seat`: every hand it cannot see is re-dealt at random."""
    other = st.copy()
    other.determinize(seat, seed)
    assert other.view(seat) == st.view(seat)
    return other


# -- honesty (R21) ---------------------------------------------------------------------------------

def choices_in_other_worlds(spec: str, players: int, seed: int, depth: int) -> set[int]:
    """What `spec` chooses for the seat to move in a random position and in two others that
    differ only in the hands that seat cannot see (checked to differ)."""
    st = random_position(players, seed, depth)
    seat = st.to_move
    worlds = [st] + [shuffle_hidden(st, seat, s) for s in (11, 12)]
    hands = [[w.hand(q) for q in range(players)] for w in worlds]
    assert any(h != hands[0] for h in hands[1:])
    return {make_bot(spec, seed=9).choose(w.view(seat)) for w in worlds}


@pytest.mark.parametrize("spec", SMALL_SPECS)
def test_r21_every_bot_decides_the_same_whatever_the_hidden_hands(spec):
    for players, seed, depth in [(2, 1, 5), (4, 2, 40), (6, 3, 70), (3, 4, 0)]:
        choices = choices_in_other_worlds(spec, players, seed, depth)
        assert len(choices) == 1, (spec, players, [action_text(a) for a in choices])


@pytest.mark.parametrize("players, seed, depth",
                         [(3, 4, 0), (3, 6, 30), (4, 2, 40), (4, 8, 60), (5, 3, 20),
                          (5, 9, 50)])
def test_r21_level_3_with_its_policy_priors_decides_the_same_whatever_the_hidden_hands(
        players, seed, depth):
    """Level 3 carries policy networks with 3, 4 and 5 players (search/models/): their inputs and
    so their priors come from the deciding seat's view only."""
    assert parse_spec(LEVELS[3])[1]["pnet"]
    choices = choices_in_other_worlds("level3", players, seed, depth)
    assert len(choices) == 1, [action_text(a) for a in choices]


def test_r21_view_hides_other_hands_and_the_deal_stream():
    st = random_position(4, 5, 10)
    v = st.view(1)
    assert v.hand(1) == st.hand(1)
    assert all(v.hand(q) is None for q in (0, 2, 3))
    assert [v.hand_size(q) for q in range(4)] == [st.hand_size(q) for q in range(4)]
    assert v.rng_state != st.rng_state


def test_r21_arena_hands_bots_only_views(monkeypatch):
    seen = []
    real = arena.make_bot

    def spy_make_bot(spec, seed=0):
        bot = real(spec, seed)
        choose = bot.choose

        def spying_choose(view, seed=None):
            seen.append([view.hand_known(q) for q in range(view.nplayers)] + [view.to_move])
            return choose(view, seed)
        bot.choose = spying_choose
        return bot

    monkeypatch.setattr(arena, "make_bot", spy_make_bot)
    arena.play_game(["greedy", "random", "greedy"], 3, seed=1, game=0)
    assert seen
    for *known, mover in seen:
        assert known == [q == mover for q in range(3)]


def test_r21_hint_is_identical_with_or_without_hidden_hands():
    st = random_position(4, 8, 30)
    data = st.to_dict()
    for q, p in enumerate(data["players"]):
        if q != st.to_move:
            p["hand"] = None
    stripped = State.from_dict(data)
    a = analyse(st, iterations=1500, seed=3, top=5)
    b = analyse(stripped, iterations=1500, seed=3, top=5)
    assert a == b
    assert len(a["moves"]) == 5


# -- determinism -------------------------------------------------------------------------------------

@pytest.mark.parametrize("root", ["uct", "halving"])
@pytest.mark.parametrize("workers", [1, 2])
def test_ismcts_same_position_seed_budget_same_move(workers, root):
    st = random_position(4, 21, 12)
    view = st.view(st.to_move)
    spec = f"ismcts:iterations=2000,workers={workers},root={root}"
    first = make_bot(spec).analyse(view, seed=77)
    again = make_bot(spec).analyse(view.copy(), seed=77)
    assert [(m["action"], m["visits"]) for m in first.moves] == \
        [(m["action"], m["visits"]) for m in again.moves]
    assert first.iterations == 2000
    other = make_bot(spec).analyse(view, seed=78)
    assert [(m["visits"], m["win"]) for m in other.moves] != \
        [(m["visits"], m["win"]) for m in first.moves]


def test_arena_same_arguments_same_result_and_workers_do_not_matter():
    a = arena.run_arena(["greedy", "random"], 2, 4, seed=3, workers=1)
    b = arena.run_arena(["greedy", "random"], 2, 4, seed=3, workers=2)
    assert arena.untimed(a) == arena.untimed(b)      # think times vary from run to run
    assert [r["games"] for r in a["bots"]] == [4, 4]


def test_arena_rotates_every_bot_through_every_seat():
    for players in range(2, 7):
        counts = [[0] * players for _ in range(players)]
        for g in range(players * 3):
            for seat, entrant in enumerate(arena.seating(players, players, g)):
                counts[entrant][seat] += 1
        assert all(c == 3 for row in counts for c in row)


def test_arena_win_shares_add_up_and_interval_contains_share():
    r = arena.run_arena(["random", "random", "greedy"], 3, 6, seed=5)
    total = sum(b["win_share"] * b["games"] for b in r["bots"])
    assert total == pytest.approx(6)
    for b in r["bots"]:
        low, high = b["ci95"]
        assert low <= b["win_share"] <= high


def test_wilson_interval_known_values():
    # 50 of 100: the Wilson interval is 0.4038-0.5962 (a textbook value)
    low, high = arena.wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert arena.wilson(1.0, 20)[1] == pytest.approx(1.0)


# -- legality ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_choose_only_legal_actions(players):
    rng = random.Random(players)
    cheap = [make_bot("random", 1), make_bot("greedy", 2)]
    costly = [make_bot("flat:iterations=60", 3), make_bot("ismcts:iterations=60", 4)]
    positions = 0
    for game in range(4):
        st = State.new(players, seed=1000 * players + game)
        while not st.is_over():
            view = st.view(st.to_move)
            bots = cheap + (costly if rng.random() < 0.1 else [])
            for bot in bots:
                assert bot.choose(view) in st.legal_moves
            positions += 1
            st.push(rng.choice(st.legal_actions()))
    assert positions > 300


# -- obvious moves -----------------------------------------------------------------------------------

def last_turn_buy_position() -> State:
    """2 players, last round, last turn, buy step.  Anna (seat 0) has 50, Bruno 55.  Crown has
    8 tiles and one share (a share costs 2): buying it gives Anna 50 - 2 + 8 = 56 and the win;
    Sunset (1 tile) or passing loses."""
    board = {str(s): "Crown" for s in range(1, 9)}
    board["20"] = "Sunset"
    return State.from_dict({
        "format": "ekonos-position", "version": 1, "variant": "rulebook",
        "players": [{"name": "Anna", "coins": 50, "hand": []},
                    {"name": "Bruno", "coins": 47, "hand": []}],
        "round": 6, "start_player": 1, "to_move": 0, "step": "buy",
        "board": board,
        "growth": {c: 0 for c in ["Sunset", "Phoenix", "Panda", "Crown", "Hydra", "Gemini"]},
        "shares": {"Sunset": [0, 0], "Phoenix": [0, 0], "Panda": [0, 0], "Crown": [0, 1],
                   "Hydra": [0, 0], "Gemini": [0, 0]},
        "president": {"Sunset": None, "Phoenix": None, "Panda": None, "Crown": 1,
                      "Hydra": None, "Gemini": None},
        "discard": list(range(1, 13)),
        "turn": {"player": 0, "card": 12, "sold": False},
    })


def test_obvious_last_turn_buy_wins():
    st = last_turn_buy_position()
    assert st.scores() == [50, 55]
    for spec in ["ismcts:iterations=500", "flat:iterations=200", "greedy"]:
        assert action_text(make_bot(spec, 1).choose(st.view(0))) == "buy Crown", spec
    result = analyse(st, iterations=500, top=2)
    assert result["moves"][0]["move"] == "buy Crown"
    assert result["moves"][0]["win"] == 1.0
    assert result["moves"][0]["score"] == 56


def test_obvious_sell_before_the_end():
    """Last turn, sell step: Anna can sell her single Panda share (column of 6 pays 6 coins; Panda
    has 1 tile, so the share is worth 1).  Selling wins 60 to 57; not selling loses 55 to 57."""
    st = last_turn_buy_position()
    data = st.to_dict()
    data["step"] = "sell"
    data["players"][0]["coins"] = 54
    data["players"][1]["coins"] = 52
    data["board"]["20"] = "Panda"
    data["shares"]["Panda"] = [1, 5]
    data["president"]["Panda"] = 1
    data["shares"]["Crown"] = [0, 0]
    data["president"]["Crown"] = None
    st = State.from_dict(data)
    assert st.scores() == [55, 57]
    assert action_text(make_bot("ismcts:iterations=400", 2).choose(st.view(0))) == "sell Panda"


# -- specs ---------------------------------------------------------------------------------------------

def test_specs_parse_and_levels_exist():
    assert parse_spec("ismcts:iterations=20000,c=0.7,workers=2") == \
        ("ismcts", {"iterations": 20000, "c": 0.7, "workers": 2})
    assert parse_spec("GREEDY") == ("greedy", {})
    assert sorted(LEVELS) == [1, 2, 3, 4]
    for spec in LEVELS.values():
        make_bot(spec)


@pytest.mark.parametrize("spec, words", [
    ("mcts", "unknown bot"), ("ismcts:iters=5", "no parameter 'iters'"),
    ("ismcts:iterations=lots", "not an int"), ("flat:iterations", "not key=value"),
    ("ismcts:root=money", "root must be"), ("level9", "levels are 1-4"), ("level5", "level 5 was retired"),
])
def test_bad_specs_are_refused_with_the_reason(spec, words):
    with pytest.raises(SpecError, match=words):
        make_bot(spec)


@pytest.mark.parametrize("wins, expected", [
    ([0.3334, 0.3330, 0.3290], True),      # within one point
    ([0.40, 0.38], False),                 # two points apart
    ([0.5], False),                        # one move: nothing to tell apart
    ([None], False),                       # a forced move
    ([0.30, None], False),                 # not every move has a share
])
def test_even_means_win_shares_within_one_point(wins, expected):
    assert even([{"win": w} for w in wins]) is expected


@pytest.mark.parametrize("scores, expected", [
    ([41.0, 40.5, 40.2], True),            # within one point of score
    ([41.0, 38.0, 40.0], False),           # one move costs three points
])
def test_even_also_needs_expected_scores_within_one_point(scores, expected):
    assert even([{"win": 0.333, "score": s} for s in scores]) is expected
