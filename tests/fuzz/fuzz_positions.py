"""Valid positions at every step, from random games, as the JSON dicts a file would hold.

Random games of 2-6 players are played with `ekonos.State` (fixed seeds: the pool is the same
on every run) and `to_dict()` is saved at card, expand-choice, expand, sell, buy, successor and
over steps, for every player count where the step exists (a successor step needs two tied
players besides the seller, so not with 2 players).  Some are saved as seen by the seat to move
(`State.view`: the other hands unknown), as a position typed in from a real table would be.
"""
from __future__ import annotations

import copy
import functools
import json
import random

from ekonos import State
from ekonos.rules import Step

STEPS = tuple(str(s) for s in Step)
PER_KIND = 4          # positions kept per (player count, step)
MAX_GAMES = 400       # per player count; every kind is found long before


@functools.lru_cache(maxsize=None)
def _pool() -> tuple[tuple[int, str, str], ...]:
    """(players, step, JSON text) of every kept position."""
    kept: list[tuple[int, str, str]] = []
    for n in range(2, 7):
        want = {s for s in STEPS if not (s == "successor" and n == 2)}
        count = {s: 0 for s in STEPS}
        for game in range(MAX_GAMES):
            if not want:
                break
            rng = random.Random(1000 * n + game)
            st = State.new(n, seed=1000 * n + game, variant=("rulebook", "bga")[game % 2])
            while True:
                step = str(st.step)
                if step in want and rng.random() < 0.35:
                    d = st.to_dict()
                    if count[step] % 2 == 1 and not st.is_over():
                        d = st.view(st.to_move).to_dict()
                    kept.append((n, step, json.dumps(d)))
                    count[step] += 1
                    if count[step] >= PER_KIND:
                        want.discard(step)
                if st.is_over():
                    break
                st.push_unchecked(rng.choice(st.legal_actions()))
        missing = sorted(s for s in want if count[s] == 0)
        assert not missing, f"no {missing} position found for {n} players"
    return tuple(kept)


@functools.lru_cache(maxsize=None)
def _decoded(step: str | None, players: int | None) -> tuple[dict, ...]:
    return tuple(json.loads(text) for n, s, text in _pool()
                 if (step is None or s == step) and (players is None or n == players))


def pool(step: str | None = None, players: int | None = None) -> list[dict]:
    """The pool's positions (optionally of one step / player count).  Shared objects: copy
    (`fresh`) before changing one."""
    return list(_decoded(step, players))


@functools.lru_cache(maxsize=None)
def pool_texts() -> tuple[str, ...]:
    return tuple(text for _, _, text in _pool())


def fresh(d: dict) -> dict:
    return copy.deepcopy(d)
