"""What root parallelism shares between the plain search (`bots.ISMCTSBot.analyse`) and
sequential halving (`halving.run_halving`): running one job per tree side by side, and merging
the trees' statistics of the root moves."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from search._ismcts import Searcher


def side_by_side(job: Callable[[int], object], n: int) -> None:
    """job(0) … job(n-1), each on its own thread (the search releases the GIL); a single job
    runs on the caller's thread.  Returns when all have finished; the first failure reaches
    the caller."""
    if n == 1:
        job(0)
        return
    with ThreadPoolExecutor(max_workers=n) as pool:
        futures = [pool.submit(job, i) for i in range(n)]
    for f in futures:
        f.result()


def merge(searchers: Sequence[Searcher], line_length: int = 0) -> list[dict]:
    """The root moves of every tree merged by action, the most visited first: visits, win and
    score summed (then averaged), the line of the tree that visited the move most.  A tree that
    has not run adds nothing."""
    merged: dict[int, dict] = {}
    for s in searchers:
        for m in s.root_moves(line_length):
            cur = merged.get(m["action"])
            if cur is None:
                merged[m["action"]] = dict(m, best_visits=m["visits"])
                continue
            if m["visits"] > cur["best_visits"]:
                cur["line"], cur["best_visits"] = m["line"], m["visits"]
            for k in ("visits", "win", "score"):
                cur[k] += m[k]
    moves = [{"action": m["action"], "visits": m["visits"], "win": m["win"] / max(m["visits"], 1),
              "score": m["score"] / max(m["visits"], 1), "line": m["line"]}
             for m in merged.values()]
    moves.sort(key=lambda m: (-m["visits"], -m["win"], m["action"]))
    return moves
