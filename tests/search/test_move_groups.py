"""Issue 11, idea 1 (structure of the place action): move groups at the card step (group=2) and
a final choice that descends the tree (pick=tree)."""
import random

import pytest

from ekonos import State
from ekonos.moves import NUM_ACTIONS, Move
from ekonos.rules import Step
from search.bots import ISMCTSBot, make_bot
from search.roots import merge


def card_positions(count: int = 6) -> list[State]:
    """Card steps of 2-6 player games after random play (the seat to move knows its hand)."""
    out = []
    for k in range(count):
        st = State.new(2 + k % 5, seed=100 + k)
        rng = random.Random(k)
        for _ in range(rng.randrange(0, 120)):
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
        while not st.is_over() and st.step is not Step.CARD:
            st.push(rng.choice(st.legal_actions()))
        if not st.is_over():
            out.append(st)
    return out


@pytest.mark.parametrize("st", card_positions(), ids=lambda s: f"{s.nplayers}p-r{s.round}")
def test_group_2_searches_only_legal_moves_and_groups_places_and_protects(st):
    view = st.view(st.to_move)
    s = ISMCTSBot(iterations=3000, group=2).searcher()
    s.run(view, st.to_move, iterations=3000, seed=5)
    moves = s.root_moves()
    legal = set(view.legal_actions())
    assert moves and {m["action"] for m in moves} <= legal
    for m in moves:
        move = Move.from_action(m["action"])
        kinds = [a for a, _ in m["path"]]
        assert len(kinds) == (1 if move.kind.name.lower() == "grow" else 2), (str(move), kinds)
        assert all(a >= NUM_ACTIONS for a in kinds)          # pseudo-actions, above the table
    # every iteration passes through exactly one card, so the cards' visits add up to the root's
    cards = {m["path"][0] for m in moves}
    assert sum(v for _, v in cards) == 3000
    # a group's visits are its moves' visits (an expanded group has tried at least one space)
    groups: dict[tuple, list] = {}
    for m in moves:
        if len(m["path"]) == 2:
            groups.setdefault(tuple(m["path"]), []).append(m["visits"])
    for path, visits in groups.items():
        assert path[1][1] >= sum(visits) >= path[1][1] - 1


def card_visits(searchers) -> dict[int, int]:
    """Visits of each card's pseudo-node, summed over the trees."""
    out: dict[int, int] = {}
    for s in searchers:
        seen = set()
        for m in s.root_moves():
            card, visits = m["path"][0]
            if card not in seen:
                seen.add(card)
                out[card] = out.get(card, 0) + visits
    return out


@pytest.mark.parametrize("trees", [1, 2])
def test_pick_tree_plays_under_the_most_visited_card_then_group(trees):
    st = card_positions()[trees - 1]
    view = st.view(st.to_move)
    searchers = [ISMCTSBot(group=2).searcher() for _ in range(trees)]
    for k, s in enumerate(searchers):
        s.run(view, st.to_move, iterations=2000, seed=20 + k)
    best = merge(searchers, 8, tree=True)[0]["action"]
    path = next(m["path"] for m in searchers[0].root_moves() if m["action"] == best)
    cards = card_visits(searchers)
    assert cards[path[0][0]] == max(cards.values())
    # within that card: its growths and its groups, visits summed over the trees
    below: dict[tuple, int] = {}
    for s in searchers:
        seen = set()
        for m in s.root_moves():
            if m["path"][0][0] != path[0][0]:
                continue
            key, visits = (m["path"][1] if len(m["path"]) == 2 else (-m["action"], m["visits"]))
            if key not in seen:
                seen.add(key)
                below[key] = below.get(key, 0) + visits
    mine = path[1][0] if len(path) == 2 else -best
    assert below[mine] == max(below.values())
    # the flat order (pick=visits) is the most visited move, whatever its card
    flat = merge(searchers, 8)
    assert flat[0]["visits"] == max(m["visits"] for m in flat)


@pytest.mark.parametrize("spec", ["ismcts:iterations=500,group=2,pick=tree",
                                  "ismcts:iterations=500,group=2",
                                  "ismcts:iterations=500,pick=tree",
                                  "ismcts:iterations=500,mast=0.5",
                                  "cheat:iterations=300,mast=1"])
def test_new_parameters_are_reproducible_and_play_whole_games(spec):
    def game(seed):
        st = State.new(3, seed=seed)
        bots = [make_bot(spec, seed=seed + q) for q in range(3)]
        played = []
        while not st.is_over():
            seat = st.to_move
            a = bots[seat].choose(st.copy() if bots[seat].sees_all else st.view(seat))
            played.append(a)
            st.push(a)
        return played, st.scores()
    assert game(4) == game(4)


def test_mast_changes_the_search_and_off_it_changes_nothing():
    st = first_step(Step.CARD)
    view = st.view(st.to_move)
    runs = {}
    for mast in (0.0, 0.0, 0.7):
        s = ISMCTSBot(mast=mast).searcher()
        s.run(view, st.to_move, iterations=1500, seed=2)
        runs.setdefault(mast, []).append(s.root_moves())
    assert runs[0.0][0] == runs[0.0][1]
    assert runs[0.7][0] != runs[0.0][0]


def test_baseline_keeps_the_old_values_of_the_new_parameters():
    p = make_bot("baseline").params
    assert (p.group, p.pick) == (1, "visits")


# -- issue 11, idea 4: the budget spent where it matters ---------------------------------------

def first_step(step: Step) -> State:
    """The first real decision of `step` in random 3-player games (seeds 3, 4, ...)."""
    for seed in range(3, 100):
        st = State.new(3, seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            if st.step is step and st.count_legal() > 1:
                return st
            st.push(rng.choice(st.legal_actions()))
    raise AssertionError(f"no {step} decision in 97 random games")


@pytest.mark.parametrize("step, factor", [(Step.CARD, 3.0), (Step.SELL, 0.5), (Step.BUY, 0.5),
                                          (Step.EXPAND, 1.0)])
def test_card_and_market_multiply_the_budget_of_their_steps(step, factor):
    st = first_step(step)
    bot = ISMCTSBot(iterations=400, card=3.0, market=0.5, workers=2)
    analysis = bot.analyse(st.view(st.to_move), seed=1)
    assert analysis.iterations == round(400 * factor)
    assert bot.budget(st.view(st.to_move)) == (round(400 * factor), None)
    timed = ISMCTSBot(time=0.2, card=3.0, market=0.5)
    assert timed.budget(st.view(st.to_move))[1] == pytest.approx(0.2 * factor)


def test_the_default_budget_is_the_same_at_every_step():
    for step in (Step.CARD, Step.SELL, Step.BUY, Step.EXPAND):
        st = first_step(step)
        assert ISMCTSBot(iterations=700).budget(st.view(st.to_move)) == (700, None)
