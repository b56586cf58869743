"""Think time per decision of two or more bot specs on the same positions, measured in turn,
behind `ekonos lab think-time`.

Equal think time is the condition of every strength comparison: a new search parameter may cost
time per iteration, so its Elo at equal iterations is only half the story.  This plays random
games (fixed seeds), takes every real decision (more than one legal move) of a sample of them,
and times each spec's `choose` on the seat's view, the specs alternating position by position
so that a drift of the shared machine weighs on all alike.

    ekonos lab think-time "ismcts:iterations=75000,root=uct" linear

prints per spec the median and 95th percentile of seconds per decision, and the ratio of the
medians to the first spec's.
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from ekonos import State
from search.bots import make_bot


@dataclass(frozen=True)
class ThinkTime:
    """One spec's seconds per decision."""
    spec: str
    median: float
    p95: float
    ratio: float            # its median over the first spec's


def positions(count: int, players: int, seed: int) -> list[State]:
    """`count` real decisions (more than one legal move) of random games of `players`."""
    rng = random.Random(seed)
    out: list[State] = []
    game = 0
    while len(out) < count:
        st = State.new(players, seed=seed + game)
        game += 1
        while not st.is_over():
            if st.count_legal() > 1 and rng.random() < 0.1:
                out.append(st.copy())
            st.push(rng.choice(st.legal_actions()))
    return out[:count]


def think_times(specs: list[str], count: int = 40, players: int = 2,
                seed: int = 1) -> list[ThinkTime]:
    """Each spec's think time on the same `count` positions (SpecError for a bad spec, before
    any search)."""
    bots = [make_bot(s, seed=7) for s in specs]
    times: list[list[float]] = [[] for _ in bots]
    for k, st in enumerate(positions(count, players, seed)):
        view = st.view(st.to_move)
        order = range(len(bots)) if k % 2 == 0 else reversed(range(len(bots)))
        for i in order:
            t0 = time.perf_counter()
            bots[i].choose(view.copy())
            times[i].append(time.perf_counter() - t0)
    base = statistics.median(times[0])
    out = []
    for spec, ts in zip(specs, times):
        med = statistics.median(ts)
        p95 = statistics.quantiles(ts, n=20)[-1] if len(ts) > 1 else ts[0]
        out.append(ThinkTime(spec, med, p95, med / base if base > 0 else float("nan")))
    return out
