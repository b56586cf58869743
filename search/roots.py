"""What root parallelism shares between the plain search (`bots.ISMCTSBot.analyse`) and
sequential halving (`halving.run_halving`): running one job per tree side by side, stopping
them all on Ctrl-C, the trees' memory bound, and merging the trees' statistics of the root
moves."""
from __future__ import annotations

import contextlib
import os
import resource
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait

from search._ismcts import MAX_NODES, NODE_BYTES, Searcher

#: The share of the memory available to this process that the search trees may take, all
#: together; the rest is left to Python, the other programs and the tree's own growth by doubling.
MEMORY_SHARE = 0.25
#: ... and never more than this without the setting below (36 million nodes: far beyond any
#: level's budget, an hour of search on one thread).
MEMORY_CEILING = 2 * 2 ** 30
#: A tree may always hold this many nodes, whatever the memory reads (a small search fits).
MIN_NODES = 100_000
#: A setting: the memory of the search trees, in megabytes (all the trees of a search together).
MEMORY_VARIABLE = "EKONOS_SEARCH_MB"


def _available_bytes() -> int | None:
    """What this process may still allocate: MemAvailable, and the room left under
    RLIMIT_AS and RLIMIT_DATA when they are set (None when none can be read)."""
    room: list[int] = []
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    room.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        try:
            room.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (OSError, ValueError):
            pass
    used = {}
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmSize", "VmData"):
                    used[key] = int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    for limit, key in ((resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")):
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY:
            room.append(max(0, soft - used.get(key, 0)))
    return min(room) if room else None


def node_limit(trees: int = 1) -> int:
    """The most nodes each of `trees` search trees searched at once may hold: MEMORY_SHARE of
    the memory available, at most MEMORY_CEILING (or EKONOS_SEARCH_MB megabytes), shared among
    them, at least MIN_NODES.
    Past it a search ends with what its tree holds (`Searcher.full`)."""
    setting = os.environ.get(MEMORY_VARIABLE, "").strip()
    budget: float | None
    try:
        budget = float(setting) * 2 ** 20 if setting else None
    except ValueError:
        budget = None
    if budget is None or not budget >= 0:
        room = _available_bytes()
        budget = MEMORY_CEILING if room is None else min(MEMORY_CEILING, room * MEMORY_SHARE)
    return int(max(MIN_NODES, min(MAX_NODES, budget / NODE_BYTES / max(1, trees))))


class Stop:
    """The searchers of one search, stopped together: stop() stops every one tracked so far
    and every one tracked later (thread-safe; for searchers made on other threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._searchers: list[Searcher] = []
        self.stopped = False

    def track(self, searcher: Searcher) -> Searcher:
        with self._lock:
            self._searchers.append(searcher)
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
