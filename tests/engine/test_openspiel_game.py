"""The OpenSpiel adapter (ekonos/openspiel_game.py, docs/openspiel.md): the game `python_ekonos`.

Skipped when the optional extra is not installed; `make` installs it.
"""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel extra not installed: pip install '.[openspiel]'")

import numpy as np  # noqa: E402

from ekonos import State  # noqa: E402
from ekonos import openspiel_game as og  # noqa: E402  (registers python_ekonos)
from ekonos.rules import PLAYER_TABLE  # noqa: E402

A_EXPAND = og.A["A_EXPAND"]


def load(players: int = 3, **params):
    return pyspiel.load_game("python_ekonos", {"players": players, **params})


def sample_chance(state, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes())
    return rng.choices(actions, weights=probs)[0]


def random_step(state, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


class Sampler:
    """Stands in for pyspiel.UniformProbabilitySampler, reproducibly."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


# -- OpenSpiel's own checks -------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test(players):
    pyspiel.random_sim_test(load(players), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"players": 3, "seed": 7},
                                    {"players": 4, "variant": "bga"}])
def test_random_sim_test_parameters(params):
    pyspiel.random_sim_test(pyspiel.load_game("python_ekonos", params), num_sims=1,
                            serialize=True, verbose=False)


# -- the game -----------------------------------------------------------------------------------

def test_game_parameters_and_sizes():
    game = pyspiel.load_game("python_ekonos")
    assert game.num_players() == 4
    assert game.get_parameters() == {"players": 4, "variant": "rulebook", "seed": -1}
    assert game.num_distinct_actions() == 2759
    assert game.max_chance_outcomes() == 42
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    for bad, words in (({"players": 7}, "players must be 2-6"), ({"players": 1}, "players"),
                       ({"variant": "house"}, "variant must be"), ({"seed": -2}, "seed must be")):
        with pytest.raises(ValueError, match=words):
            pyspiel.load_game("python_ekonos", bad)


@pytest.mark.parametrize("players", [2, 5])
def test_r3_r4_chance_start_player_then_deal_card_by_card(players):
    n, h, coins = players, PLAYER_TABLE[players].cards, PLAYER_TABLE[players].coins
    s = load(players).new_initial_state()
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(36 + q, pytest.approx(1 / n)) for q in range(n)]
    s.apply_action(36 + 1)                                  # seat 1 starts
    dealt = {q: [] for q in range(n)}
    for k in range(n * h):
        assert s.is_chance_node()
        outcomes = s.chance_outcomes()
        assert len(outcomes) == 36 - k                       # the cards not dealt yet, uniform
        assert all(p == pytest.approx(1 / (36 - k)) for _, p in outcomes)
        card = outcomes[(7 * k) % len(outcomes)][0]
        dealt[(1 + k) % n].append(card + 1)                  # round-robin from the start player
        s.apply_action(card)
    assert s.current_player() == 1
    st = s.ekonos_state()
    assert [st.hand(q) for q in range(n)] == [sorted(dealt[q]) for q in range(n)]
    assert [st.coins(q) for q in range(n)] == [coins] * n   # R4, paid once
    assert st.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("players", [2, 4])
def test_r20_returns_are_the_win_share(players):
    rng = random.Random(players)
    for _ in range(3):
        s = load(players).new_initial_state()
        while not s.is_terminal():
            assert s.returns() == [0.0] * players
            random_step(s, rng)
        winners = s.ekonos_state().winners()
        assert s.returns() == [1 / len(winners) if q in winners else 0.0
                               for q in range(players)]
        assert sum(s.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12), (6, 13)])
def test_fixed_seed_deals_are_the_engines(players, seed):
    """seed >= 0: each chance node has the engine's outcome, so the game is the engine's own game
    with that seed (the same struct, byte for byte, at every decision)."""
    rng = random.Random(seed)
    s = load(players, seed=seed).new_initial_state()
    eng = State.new(players=players, seed=seed)
    while not s.is_terminal():
        if s.is_chance_node():
            [(outcome, p)] = s.chance_outcomes()
            assert p == 1.0
            s.apply_action(outcome)
            continue
        assert s.ekonos_state()._same_core(eng)
        action = rng.choice(s.legal_actions())
        s.apply_action(action)
        eng.push(action)
    assert eng.is_over() and s.ekonos_state()._same_core(eng)


# -- information (R21) --------------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (3, 3), (5, 4)])
def test_r21_strings_of_a_seat_ignore_the_other_hands(players, seed):
    """Two games that differ only in one card of seat 1 (swapped with seat 2's, or with an
    undealt card): while that card stays in hand, seat 0's strings are identical in both."""
    n, h = players, PLAYER_TABLE[players].cards
    rng = random.Random(seed)
    perm = rng.sample(range(36), 36)
    deal_a = perm[:n * h]
    deal_b = list(deal_a)
    if n >= 3:
        deal_b[1], deal_b[2] = deal_a[2], deal_a[1]       # seat 1 <-> seat 2
    else:
        deal_b[1] = perm[n * h]                            # seat 1 <-> the undealt cards
    avoid = {deal_a[1], deal_b[1]}
    a, b = load(n).new_initial_state(), load(n).new_initial_state()
    for s, deal in ((a, deal_a), (b, deal_b)):
        s.apply_action(36 + 0)
        for card in deal:
            s.apply_action(card)
    compared = 0
    while not a.is_chance_node() and not a.is_terminal():
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_string(0) == b.observation_string(0)
        assert a.information_state_string(1) != b.information_state_string(1)
        assert a.observation_string(1) != b.observation_string(1)
        assert str(a) != str(b)
        choices = [x for x in a.legal_actions() if x >= A_EXPAND or x // 74 not in avoid]
        if not choices:
            break
        action = rng.choice(choices)
        assert action in b.legal_actions()
        a.apply_action(action)
        b.apply_action(action)
        compared += 1
    assert compared >= 3


def _check_consistent(s, players):
    """Outside a deal: hands have the engine's sizes, no card is in two places, and each seat's
    information state lists, for this round, the cards it holds and the ones it played."""
    if s.is_dealing():
        return
    st = s.ekonos_state()
    seen = set(st.discard)
    for q in range(players):
        hand = set(st.hand(q))
        assert len(hand) == st.hand_size(q)
        assert not seen & hand
        seen |= hand
        tokens = s.information_state_string(q).split(" r")[-1].split()
        dealt = {int(t[1:]) for t in tokens if t.startswith("+")}
        played = {a // 74 + 1 for t in tokens if ":" in t
                  for seat, a in [map(int, t.split(":"))] if seat == q and a < A_EXPAND}
        assert dealt == hand | played


@pytest.mark.parametrize("players,seed", [(2, 0), (4, 5), (6, 9)])
def test_resample_from_infostate_keeps_what_the_seat_knows(players, seed):
    rng = random.Random(seed)
    sampler = Sampler(seed)
    s = load(players, seed=seed).new_initial_state() if seed else load(players).new_initial_state()
    changed = 0
    step = 0
    while not s.is_terminal():
        if step % 7 == 0:
            for p in range(players):
                r = s.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert r.observation_string(p) == s.observation_string(p)
                assert r.is_chance_node() == s.is_chance_node()
                assert r.history() == s.history()
                if s.current_player() == p:
                    assert r.legal_actions() == s.legal_actions()
                _check_consistent(r, players)
                changed += str(r) != str(s)
        random_step(s, rng)
        step += 1
    assert changed > 0                          # the hidden hands really are re-dealt
    # a resampled state plays on to the end
    s = load(players).new_initial_state()
    for _ in range(60):
        random_step(s, rng)
    r = s.resample_from_infostate(s.current_player() if not s.is_chance_node() else 0, sampler)
    while not r.is_terminal():
        random_step(r, rng)
    assert sum(r.returns()) == pytest.approx(1.0)


def test_resample_with_fixed_seed_redraws_the_future_deals():
    """With a fixed seed the next deal is in the hidden state (the engine's stream); a resample
    must not keep it, while an ordinary clone does."""
    rng = random.Random(0)
    s = load(2, seed=3).new_initial_state()
    while True:                                  # to the last decision of round 1
        random_step(s, rng)
        if not s.is_chance_node():
            before = s.clone()
            random_step(s, rng)
            if s.is_chance_node():
                break
    last = s.history()[-1]
    p = 0

    def next_hand(state):
        state.apply_action(last)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        return tuple(state.ekonos_state().hand(p))

    assert len({next_hand(before.clone()) for _ in range(5)}) == 1
    assert len({next_hand(before.resample_from_infostate(p, Sampler(k)))
                for k in range(10)}) > 1


# -- OpenSpiel's Python ISMCTS ------------------------------------------------------------------

@pytest.mark.parametrize("players,ismcts_seats,use_obs", [(2, (0, 1), False),
                                                         (5, (2,), True)])
def test_python_ismcts_bot_plays_complete_games(players, ismcts_seats, use_obs):
    from open_spiel.python.algorithms import ismcts, mcts
    game = load(players)
    rng = random.Random(players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = {q: ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=3,
                                random_state=np.random.RandomState(q),
                                use_observation_string=use_obs)
            for q in ismcts_seats}
    s = game.new_initial_state()
    searched = 0
    while not s.is_terminal():
        if s.is_chance_node() or s.current_player() not in bots:
            random_step(s, rng)
            continue
        legal = s.legal_actions()
        action = int(bots[s.current_player()].step(s))
        assert action in legal
        searched += len(legal) > 1
        s.apply_action(action)
    assert searched > 10
    assert sum(s.returns()) == pytest.approx(1.0)
