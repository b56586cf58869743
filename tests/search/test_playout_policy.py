"""The light playout policy as a move (`search._flat.light_move`): what the playouts play for
every seat, read by the policy-agreement probe (benchmarks/results/2026-11-27-flat/)."""
import math
import random

import pytest

from ekonos import State
from ekonos.rules import Step
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


@pytest.mark.parametrize("players", [2, 4, 6])
def test_at_a_growth_to_4_the_policy_expands(players):
    """The light policy always takes the expansion a growth to 4 offers (the search may wait;
    playouts that waited early with 6 players were not confirmed: docs/strength.md)."""
    choices = [st.copy() for seed in range(60, 90) for st in walk(players, seed)
               if st.step is Step.EXPAND_CHOICE]
    in_hands = {sum(st.hand_size(q) for q in range(players)) for st in choices}
    assert len(in_hands) > 5                              # early and late in a round
    for k, st in enumerate(choices):
        view = st.view(st.to_move)
        assert view.move_text(light_move(view, k)) == "expand"


def root_visits(players: int, params: str) -> list[tuple[int, int]]:
    """(action, visits) of each root move of a 3 000-iteration search with `params` (text after
    `ismcts:iterations=3000`) from the first decision of a `players`-player game (seed 11)."""
    st = State.new(players, seed=11)
    bot = make_bot("ismcts:iterations=3000" + params, seed=5)
    return [(m["action"], m["visits"]) for m in bot.analyse(st.view(st.to_move)).moves]


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


@pytest.mark.parametrize("players", [2, 5])
def test_c_counts_only_in_cfor_games(players):
    """`cfor=DIGITS` keeps the exploration constant c to games of those player counts; in
    others the search explores with the default c (0.3), as if c were not given."""
    default, more = root_visits(players, ""), root_visits(players, ",c=0.9")
    assert more != default                                # c matters in this position
    others = "".join(str(n) for n in range(2, 7) if n != players)
    assert root_visits(players, f",c=0.9,cfor={players}") == more
    assert root_visits(players, f",c=0.9,cfor={others}") == default


@pytest.mark.parametrize("players", [2, 3, 4])
def test_iterfor_sets_the_budget_by_player_count(players):
    """`iterfor=COUNTS:N/...`: a game of a named count searches N iterations (the same tree as
    `iterations=N`), any other count `iterations`."""
    st = State.new(players, seed=11)
    view = st.view(st.to_move)

    def search(spec):
        analysis = make_bot(spec, seed=5).analyse(view.copy())
        return analysis.iterations, [(m["action"], m["visits"]) for m in analysis.moves]

    done, tree = search(f"ismcts:iterations=3000,iterfor={players}:700/56:900")
    assert done == 700 and tree == search("ismcts:iterations=700")[1]
    others = "".join(str(n) for n in range(2, 7) if n != players)
    done, tree = search(f"ismcts:iterations=3000,iterfor={others}:700")
    assert done == 3000 and tree == search("ismcts:iterations=3000")[1]


def test_what_the_policy_cannot_decide_is_refused_with_the_reason():
    st = State.new(3, seed=5)
    with pytest.raises(ValueError, match="hand of the seat to move is unknown"):
        light_move(st.view((st.to_move + 1) % 3), 0)
    for eps in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="eps"):
            light_move(st, 0, eps)
    over = st.copy()
    while not over.is_over():
        over.push(over.legal_actions()[0])
    with pytest.raises(ValueError, match="game is over"):
        light_move(over, 0)
