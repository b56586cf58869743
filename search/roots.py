"""What root parallelism shares between the plain search (`bots.ISMCTSBot.analyse`) and
sequential halving (`halving.run_halving`): running one job per tree side by side, stopping
them all on Ctrl-C, and merging the trees' statistics of the root moves.  The trees' memory
bound is search/memory.py."""
from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait

from search._ismcts import Searcher

class Stop:
    """The searchers of one search, stopped together: stop() stops every one tracked so far
    and every one tracked later (thread-safe; for searchers made on other threads).  Held
    weakly: a finished search's tree is freed, not kept until the whole search ends (a review
    makes two searchers a decision)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._searchers: weakref.WeakSet[Searcher] = weakref.WeakSet()
        self.stopped = False

    def track(self, searcher: Searcher) -> Searcher:
        with self._lock:
            self._searchers.add(searcher)
            if self.stopped:
                searcher.stop()
        return searcher

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            for s in self._searchers:
                s.stop()


_here = threading.local()


@contextlib.contextmanager
def stopped_by(stop: Stop) -> Iterator[Stop]:
    """Every searcher made on this thread meanwhile (`tracked`) is tracked by `stop`: a pool's
    job searched under it is stopped by the thread that runs the pool."""
    before = getattr(_here, "stop", None)
    _here.stop = stop
    try:
        yield stop
    finally:
        _here.stop = before


def tracked(searcher: Searcher) -> Searcher:
    """`searcher`, tracked by this thread's `stopped_by` Stop if there is one."""
    stop = getattr(_here, "stop", None)
    return searcher if stop is None else stop.track(searcher)


def stop_all(searchers: Sequence[Searcher]) -> None:
    for s in searchers:
        stop = getattr(s, "stop", None)
        if stop is not None:
            stop()


def side_by_side(job: Callable[[int], object], searchers: Sequence[Searcher]) -> None:
    """job(0) … job(n-1) for the n `searchers`, each on its own thread (the search releases the
    GIL); a single job runs on the caller's thread.  Returns when all have finished; the first
    failure reaches the caller.  Ctrl-C (or any exception) while waiting stops every searcher
    (each within a batch of iterations), waits for the threads and propagates."""
    n = len(searchers)
    if n == 1:
        job(0)
        return
    pool = ThreadPoolExecutor(max_workers=n)
    try:
        futures = [pool.submit(job, i) for i in range(n)]
        wait(futures)                   # Ctrl-C reaches this thread here
    except BaseException:
        stop_all(searchers)
        raise
    finally:
        pool.shutdown(wait=True)
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
