"""Sequential halving at the root (`ismcts:root=halving`) and the two Searcher
primitives it drives: `forced` (every iteration takes one root move) and `run(more=True)` (go on
with the last run's tree)."""
import math
import random

import pytest

from ekonos import State
from ekonos.rules import Step
from search.bots import ISMCTSBot, SpecError, make_bot
from search.halving import run_halving
from test_bot_guarantees import random_position
from helpers import card_positions


def position_with(step: Step, players: int = 3) -> State:
    """A position of random play at `step` with at least three legal moves."""
    for seed in range(200):
        st = random_position(players, seed, 30 + seed % 50)
        rng = random.Random(seed)
        while not st.is_over() and not (st.step is step and st.count_legal() >= 3):
            st.push(rng.choice(st.legal_actions()))
        if not st.is_over():
            return st
    raise AssertionError(f"no {step} position found")


@pytest.mark.parametrize("st", card_positions(4) + [position_with(Step.SELL)],
                         ids=lambda s: f"{s.nplayers}p-{s.step.name}")
def test_forced_sends_every_iteration_through_the_root_move(st):
    view = st.view(st.to_move)
    legal = view.legal_actions()
    forced = legal[len(legal) // 2]            # a card step: a move below its card's node
    s = ISMCTSBot(iterations=500).searcher()
    s.forced = forced
    s.run(view, st.to_move, iterations=500, seed=3)
    visited = {m["action"]: m["visits"] for m in s.root_moves(0)}
    assert set(visited) == {forced}
    # the first iteration of a card step ends at the new card node, before any use of it
    assert visited[forced] == (499 if st.step is Step.CARD else 500)


def test_more_goes_on_with_the_tree_and_refuses_another_view():
    st = position_with(Step.BUY)
    view = st.view(st.to_move)
    s = ISMCTSBot(iterations=300).searcher()
    with pytest.raises(ValueError, match="last run"):
        s.run(view, st.to_move, iterations=10, more=True)           # no tree yet
    s.run(view, st.to_move, iterations=300, seed=1)
    s.run(view, st.to_move, iterations=200, more=True)
    assert s.iterations_done == 500
    assert sum(m["visits"] for m in s.root_moves(0)) == 500
    # the same budget in one run and in two is the same random stream, so the same statistics
    one = ISMCTSBot(iterations=300).searcher()
    one.run(view, st.to_move, iterations=500, seed=1)
    assert one.root_moves(0) == s.root_moves(0)
    other = position_with(Step.SELL)
    with pytest.raises(ValueError, match="last run"):
        s.run(other.view(other.to_move), other.to_move, iterations=10, more=True)
    with pytest.raises(ValueError, match="last run"):
        s.run(view, (st.to_move + 1) % st.nplayers, iterations=10, more=True)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("st", card_positions(3) + [position_with(Step.SELL, 4)],
                         ids=lambda s: f"{s.nplayers}p-{s.step.name}")
def test_halving_spends_the_budget_in_rounds_and_plays_the_survivor(st, workers):
    view = st.view(st.to_move)
    k = view.count_legal()
    budget = 40 * k * math.ceil(math.log2(k))
    bot = make_bot(f"ismcts:iterations={budget},workers={workers},root=halving")
    a = bot.analyse(view, seed=4)
    assert a.iterations == budget
    assert {m["action"] for m in a.moves} == set(view.legal_actions())   # all tried in round 1
    visits = sorted(m["visits"] for m in a.moves)
    rounds = math.ceil(math.log2(k))
    first = budget // rounds // k                  # each move's share of round 1
    # the worst leave after round 1 (a new card node ends its first iteration: one less)
    assert first - workers <= visits[0] <= first + workers
    # the last two were compared on everything they had; the survivor is played
    best, second = a.moves[0], a.moves[1]
    assert best["visits"] == pytest.approx(second["visits"], abs=workers)
    assert (best["win"], best["score"]) >= (second["win"], second["score"])
    assert bot.choose(view, seed=4) == best["action"]
    # a move that left earlier never has more visits than one that stayed (give or take the
    # one-iteration remainders of a round's split, at most one per round and worker)
    slack = workers * rounds
    assert all(x["visits"] >= y["visits"] - slack for x, y in zip(a.moves, a.moves[1:]))


def test_halving_ranks_every_move_once():
    st = position_with(Step.CARD, 2)
    view = st.view(st.to_move)
    searchers = [ISMCTSBot(iterations=1).searcher()]
    rank = run_halving(searchers, view, st.to_move, [3000], None, [7])
    assert sorted(rank) == sorted(view.legal_actions())
    assert sorted(rank.values()) == list(range(view.count_legal()))
    assert searchers[0].forced == -1                  # the searcher is left free again


def test_halving_with_a_time_budget_plays_a_legal_move():
    st = position_with(Step.BUY)
    view = st.view(st.to_move)
    action = make_bot("ismcts:time=0.05,root=halving").choose(view, seed=1)
    assert action in view.legal_actions()


def test_root_is_checked():
    assert make_bot("ismcts:root=halving").params.root == "halving"
    with pytest.raises(SpecError, match="root"):
        make_bot("ismcts:root=thompson")


def test_a_timed_run_stops_at_the_first_iteration_past_its_time():
    """The clock is read after every iteration: a run whose time is already spent does exactly
    one, so timed halving's many short runs (one per root move and round) keep to their budget
    (reading it every 32 iterations, a 228-move 6-player card step took 0.25 s of a 0.08 s one)."""
    st = card_positions(4)[0]
    searcher = ISMCTSBot(c=0.3, horizon=1, plain=1).searcher()
    for a in st.legal_actions()[:20]:
        searcher.forced = a
        before = searcher.iterations_done if searcher.node_count else 0
        searcher.run(st, st.to_move, seconds=1e-9, seed=1, more=searcher.node_count > 0)
        assert searcher.iterations_done - before == 1
