"""Think time per decision of two or more bot specs on the same positions, measured in turn.

Equal think time is the condition of every strength comparison of issue 11: a new search
parameter may cost time per iteration, so its Elo at equal iterations is only half the story.
This plays random 2-player games (fixed seeds), takes every real decision (more than one legal
move) of a sample of them, and times each spec's `choose` on the seat's view, the specs
alternating position by position so that a drift of the shared machine weighs on all alike.

    python benchmarks/think_time.py "ismcts:iterations=10000,group=2,pick=tree" baseline

prints per spec the median and 95th percentile of seconds per decision, and the ratio of the
medians to the first spec's.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from ekonos import State
from search.bots import SpecError, make_bot


def positions(count: int, players: int, seed: int) -> list[State]:
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        bots = [make_bot(s, seed=7) for s in args.specs]
    except SpecError as e:
        ap.error(str(e))                                # one line and exit status 2
    times: list[list[float]] = [[] for _ in bots]
    for k, st in enumerate(positions(args.positions, args.players, args.seed)):
        view = st.view(st.to_move)
        order = range(len(bots)) if k % 2 == 0 else reversed(range(len(bots)))
        for i in order:
            t0 = time.perf_counter()
            bots[i].choose(view.copy())
            times[i].append(time.perf_counter() - t0)
    base = statistics.median(times[0])
    for spec, ts in zip(args.specs, times):
        med = statistics.median(ts)
        p95 = statistics.quantiles(ts, n=20)[-1]
        print(f"{spec:50s} median {med * 1000:8.1f} ms  p95 {p95 * 1000:8.1f} ms  "
              f"ratio {med / base:.3f}")


if __name__ == "__main__":
    main()
