"""How large a search tree may grow: a share of the memory this process may still allocate,
split among the trees searched at once (`ISMCTSBot.searcher` sets `Searcher.node_limit` from
it).  Past it a search ends with what its tree holds (`Searcher.full`) instead of failing."""
from __future__ import annotations

import os
import resource

from search._ismcts import MAX_NODES, NODE_BYTES

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
