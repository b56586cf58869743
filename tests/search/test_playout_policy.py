"""The light playout policy as a move (`search._flat.light_move`): what the playouts play for
every seat, read by the policy-agreement probe (benchmarks/results/2026-11-27-flat/)."""
import math
import random

import pytest

from ekonos import State
from ekonos.rules import PLAYER_TABLE, Step
from search._flat import light_move
from search.bots import make_bot


def walk(players: int, seed: int):
    """Every decision of a random game of `players`, as the state before it."""
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    while not st.is_over():
        yield st
        st.push(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_policy_moves_legally_at_every_step(players):
    steps = set()
    for k, st in enumerate(walk(players, 40 + players)):
        view = st.view(st.to_move)
        for eps in (0.0, 1.0):
            a = light_move(view, k, eps)
            assert view.is_legal(a), (st.step_name, a)
        steps.add(st.step_name)
    assert {"card", "sell", "buy"} <= steps


def test_the_same_view_and_seed_give_the_same_move_and_eps_1_is_random():
    st = State.new(4, seed=3)
    view = st.view(st.to_move)
    assert {light_move(view, 7) for _ in range(5)} == {light_move(view, 7)}
    drawn = {light_move(view, s, 1.0) for s in range(60)}
    assert len(drawn) > 20                      # ~280 legal moves at a card step


def test_the_policy_reads_only_the_movers_hand_and_public_facts():
    for players, seed in [(2, 1), (4, 2), (6, 3)]:
        for k, st in enumerate(walk(players, seed)):
            if k % 7:
                continue
            seat = st.to_move
            other = st.copy()
            other.determinize(seat, k + 1)      # every hand the mover cannot see re-dealt
            moves = {light_move(w, k) for w in (st, st.view(seat), other, other.view(seat))}
            assert len(moves) == 1, (players, k, st.step_name)


def cards_left(st: State) -> int:
    """Cards still to be played in the game, counted from the rules' table (R2)."""
    table = PLAYER_TABLE[st.nplayers]
    later = (table.rounds - st.round) * table.cards * st.nplayers
    return later + sum(st.hand_size(q) for q in range(st.nplayers))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_at_a_growth_to_4_the_policy_waits_from_wait4_cards_left_and_else_expands(players):
    choices = [st.copy() for seed in range(60, 90) for st in walk(players, seed)
               if st.step is Step.EXPAND_CHOICE]
    assert len({cards_left(st) for st in choices}) > 5   # early and late in the game
    for k, st in enumerate(choices):
        view = st.view(st.to_move)
        left = cards_left(st)
        assert view.move_text(light_move(view, k)) == "expand"    # wait4=0: always
        for wait4 in (1, max(left, 1), left + 1, 75):   # 0 would mean: never wait
            expected = "wait" if left >= wait4 else "expand"
            assert view.move_text(light_move(view, k, 0.0, wait4)) == expected, (left, wait4)


def root_visits(players: int, params: str) -> list[tuple[int, int]]:
    """(action, visits) of each root move of a 3 000-iteration search with `params` (text after
    `ismcts:iterations=3000`) from the first decision of a `players`-player game (seed 11)."""
    st = State.new(players, seed=11)
    bot = make_bot("ismcts:iterations=3000" + params, seed=5)
    return [(m["action"], m["visits"]) for m in bot.analyse(st.view(st.to_move)).moves]


def test_the_search_hands_wait4_to_its_playouts():
    """From the first decision of a 6-player game, the first round's playouts meet growths to
    4 with 36 or more cards left: waiting there changes what the search finds; wait4=0 is the
    default (the same tree)."""
    assert root_visits(6, "") == root_visits(6, ",wait4=0")
    assert root_visits(6, "") != root_visits(6, ",wait4=36")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_wait4_counts_only_from_wait4from_players(players):
    """`wait4from=N`: the playouts wait as `wait4` says in games of N players or more, and in
    smaller games always expand (the same tree as without wait4)."""
    never, wait = root_visits(players, ",wait4=0"), root_visits(players, ",wait4=60")
    assert never != wait                                  # waiting matters in this position
    assert root_visits(players, ",wait4=60,wait4from=2") == wait   # 2: every game, the default
    assert root_visits(players, f",wait4=60,wait4from={players}") == wait
    if players < 6:
        assert root_visits(players, f",wait4=60,wait4from={players + 1}") == never


@pytest.mark.parametrize("players", [2, 4, 6])
def test_eps_counts_only_in_epsfor_games(players):
    """`eps=E`: the light playouts' rate of random moves (0.1, the default: the same tree);
    `epsfor=DIGITS` keeps it to games of those player counts (in others: 0.1)."""
    light, less = root_visits(players, ""), root_visits(players, ",eps=0.03")
    assert root_visits(players, ",eps=0.1") == light
    assert less != light                                  # the rate matters in this position
    others = "".join(str(n) for n in range(2, 7) if n != players)
    assert root_visits(players, f",eps=0.03,epsfor={players}") == less
    assert root_visits(players, f",eps=0.03,epsfor={others}") == light


def test_what_the_policy_cannot_decide_is_refused_with_the_reason():
    st = State.new(3, seed=5)
    with pytest.raises(ValueError, match="hand of the seat to move is unknown"):
        light_move(st.view((st.to_move + 1) % 3), 0)
    for eps in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="eps"):
            light_move(st, 0, eps)
    with pytest.raises(ValueError, match="wait4"):
        light_move(st, 0, 0.0, -1)
    over = st.copy()
    while not over.is_over():
        over.push(over.legal_actions()[0])
    with pytest.raises(ValueError, match="game is over"):
        light_move(over, 0)
