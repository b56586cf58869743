"""Calibration: do the win shares an estimate gives come true as often as it says?

Given predicted and realized win shares per (position, seat), the pairs are sorted by predicted
share (stably) and cut into deciles, ten groups of counts as equal as can be; per decile: the
count, the mean predicted share, the mean realized share and their difference
(realized - predicted: positive means the estimate is too modest).  A calibrated estimate has
differences near zero (within sampling: about sqrt(p(1 - p) / count)).

Two estimates are measured this way: the value network's win shares of every seat present
(`net_pairs`), and the search's own estimate recorded in self-play data (``q``: the mover's mean
win share of the move played, against the mover's realized share; `search_pairs`), so that
today's search can be shown beside a new network.
"""
from __future__ import annotations

import numpy as np

from search.evaluation import MAXP

#: The groups of a table.
BINS = 10


def table(predicted: np.ndarray, realized: np.ndarray, bins: int = BINS) -> list[dict]:
    """The calibration table of these pairs: per group of predicted share (lowest first), its
    count, mean predicted, mean realized and difference (realized - predicted).  Fewer pairs
    than `bins`: one group per pair; no pairs, no group."""
    p = np.asarray(predicted, dtype=np.float64).ravel()
    r = np.asarray(realized, dtype=np.float64).ravel()
    if p.shape != r.shape:
        raise ValueError(f"{p.size} predictions but {r.size} outcomes")
    order = np.argsort(p, kind="stable")
    rows = []
    for part in np.array_split(order, max(1, min(bins, p.size))):
        if part.size:
            mp, mr = float(p[part].mean()), float(r[part].mean())
            rows.append({"count": int(part.size), "predicted": mp, "realized": mr,
                         "difference": mr - mp})
    return rows


def error(rows: list[dict]) -> float:
    """The table's calibration error: the mean |difference| weighted by count."""
    total = sum(r["count"] for r in rows)
    return sum(r["count"] * abs(r["difference"]) for r in rows) / total if total else 0.0


def by_players(predicted: np.ndarray, realized: np.ndarray, players: np.ndarray,
               bins: int = BINS) -> dict[str, list[dict]]:
    """`table` per player count (keys "2" to "6"), the pairs given with each one's count."""
    players = np.asarray(players).ravel()
    return {str(n): table(np.asarray(predicted).ravel()[players == n],
                          np.asarray(realized).ravel()[players == n], bins)
            for n in sorted(set(players.tolist()))}


def net_pairs(shares: np.ndarray, win: np.ndarray, players: np.ndarray):
    """(predicted, realized, players) of every seat present of every position: `shares` and
    `win` [N, 6] per relative seat (the network's and the game's), `players` [N]."""
    players = np.asarray(players).astype(int)
    present = np.arange(MAXP)[None, :] < players[:, None]
    each = np.broadcast_to(players[:, None], present.shape)
    return (np.asarray(shares, dtype=np.float64)[present],
            np.asarray(win, dtype=np.float64)[present], each[present])


def search_pairs(q: np.ndarray, win: np.ndarray, players: np.ndarray):
    """(predicted, realized, players) of the search's own estimate: each position's `q` (the
    mover's mean win share of the move played) against the mover's realized share (relative
    seat 0); positions without one (a bot that does not search: NaN) are left out."""
    q = np.asarray(q, dtype=np.float64).ravel()
    known = np.isfinite(q)
    return (q[known], np.asarray(win, dtype=np.float64)[known, 0],
            np.asarray(players).astype(int)[known])
