"""Sequential halving at the root of the search (`ismcts:root=halving`).

UCB at the root spends its visits to play well *during* the search (cumulative regret), but the
root only has to *name* the best move at the end (simple regret).  Where a move needs its own
follow-up decisions to show its worth (an expansion's growth actions, a growth that triggers
one), a few visits value it low, UCB stops visiting it, and the search locks onto whichever move
got ahead first.  Sequential halving (Karnin, Koren & Somekh 2013) applied at the root with UCT
below (H-MCTS: Pepels, Cazenave, Winands & Lanctot 2014) gives every root move the same share
of a round's budget, keeps the better half by mean win share, and repeats until one is left: no
move is judged on a handful of visits while another has thousands.

Every iteration of a round takes its root move through the tree (`Searcher.forced`); below it
the search is the usual one.  The searchers of root parallelism run each round side by side and
their statistics are pooled before each halving, so the workers agree on the survivors.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ekonos import State
from search._ismcts import Searcher
from search.roots import merge, side_by_side


#: Gumbel AlphaZero's c_visit: the visits at which the prior weighs half what it does at none.
VISIT_BASE = 50


def _shares(total: int, k: int) -> list[int]:
    """`total` split into k near-equal integer parts, the larger ones first."""
    return [total // k + (1 if i < total % k else 0) for i in range(k)]


def run_halving(searchers: Sequence[Searcher], view: State, seat: int, budgets: Sequence[int],
                seconds: float | None, seeds: Sequence[int],
                cands: Sequence[int] | None = None,
                logits: Mapping[int, float] | None = None, weight: float = 0.0) -> dict[int, int]:
    """Search `view` for `seat` by sequential halving over its legal moves, one tree per
    searcher: searcher i spends budgets[i] iterations (or, with `seconds`, every searcher that
    many seconds) and starts from seeds[i].  Returns each root move's rank, 0 for the survivor,
    then by the round a move left in (later is better) and, within a round, its pooled mean win
    share.  A move below the searchers' consideration (plain=1's buy-back) is searched freely
    in its share of the first round, gets no visits and leaves at once.  `cands`: the legal
    moves to search (a policy's prior keeps them, search/policy.py); the others are never
    searched and rank below every searched move (None: every legal move).  `logits` (a policy's,
    by move) and `weight` > 0 add the prior to each halving's ranking, as Gumbel AlphaZero
    (Danihelka et al. 2022) completes it: a move's mean win share plus weight × its logit over
    (VISIT_BASE + the most visits of a move still in): the prior counts while visits are few
    and fades as they grow."""
    legal = list(view.legal_actions())
    kept = set(legal if cands is None else cands)
    cands = [a for a in legal if a in kept]
    out: list[int] = [a for a in legal if a not in kept]   # pruned by a prior: worst of all
    rounds = max(1, math.ceil(math.log2(len(cands))))
    left = list(budgets)
    time_left = seconds

    def work(i: int, shares: list[float]) -> None:
        s = searchers[i]
        for a, k in zip(cands, shares):
            if k <= 0:
                continue
            s.forced = a
            budget = {"iterations": int(k)} if seconds is None else {"seconds": k}
            s.run(view, seat, seed=seeds[i], more=s.node_count > 0, **budget)
        s.forced = -1

    for r in range(rounds):
        if seconds is None:
            plan = [_shares(left[i] // (rounds - r), len(cands)) for i in range(len(searchers))]
            for i in range(len(searchers)):
                left[i] -= sum(plan[i])
        else:
            per = time_left / (rounds - r)
            time_left -= per
            plan = [[per / len(cands)] * len(cands) for _ in searchers]
        side_by_side(lambda i: work(i, plan[i]), searchers)
        stats = {m["action"]: m for m in merge(searchers)}

        scale = 0.0
        if logits is not None and weight:
            most = max((stats[a]["visits"] for a in cands if a in stats), default=0)
            scale = weight / (VISIT_BASE + most)

        def value(a: int) -> tuple[float, float]:
            m = stats.get(a)
            if not m or m["visits"] == 0:
                return (-1.0, 0.0)
            return (m["win"] + scale * logits[a] if scale else m["win"], m["score"])

        cands.sort(key=lambda a: (value(a), -a), reverse=True)
        keep = 1 if r == rounds - 1 else math.ceil(len(cands) / 2)
        out.extend(reversed(cands[keep:]))
        cands = cands[:keep]
    out.extend(reversed(cands))
    return {a: len(out) - 1 - k for k, a in enumerate(out)}
