"""Self-play games for the learned evaluation (fitted by search/learn/fit.py): their round
starts and how they ended, each seat deciding from its own view (R21)."""
from __future__ import annotations

import numpy as np

from ekonos import State
from ekonos.rules import Step
from search._ismcts import EVAL_FEATURES, company_features_of
from search.bots import derive_seed, make_bot
from search.evaluation import MAXP, NCOMP
from search.learn.fit import Samples


def play_and_sample(players: int, spec: str, seed: int) -> Samples:
    """One self-play game of `spec` in every seat (each seat's view only, R21); its round starts."""
    state = State.new(players, seed=derive_seed(seed, 0))
    bots = [make_bot(spec, seed=derive_seed(seed, 1, q)) for q in range(players)]
    rows: list[tuple] = []
    seen_round = 1
    while not state.is_over():
        if state.round != seen_round and state.step is Step.CARD:
            seen_round = state.round
            coins = [state.coins(q) for q in range(players)] + [0] * (MAXP - players)
            shares = [[state.shares(q, c) for c in range(NCOMP)] for q in range(players)]
            shares += [[0] * NCOMP] * (MAXP - players)
            rows.append((state.rounds - state.round + 1, company_features_of(state), coins,
                         shares))
        seat = state.to_move
        state.push(bots[seat].choose(state.view(seat)))
    final = [state.value(c) for c in range(NCOMP)]
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    win += [0.0] * (MAXP - players)
    k = len(rows)
    return Samples(np.full(k, players), np.array([r[0] for r in rows]),
                   np.array([r[1] for r in rows], dtype=float).reshape(k, NCOMP, EVAL_FEATURES),
                   np.array([r[2] for r in rows], dtype=float).reshape(k, MAXP),
                   np.array([r[3] for r in rows], dtype=float).reshape(k, MAXP, NCOMP),
                   np.array([final] * k, dtype=float).reshape(k, NCOMP),
                   np.array([win] * k, dtype=float).reshape(k, MAXP))
