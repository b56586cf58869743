"""Paired differences between bots scored on the same suite (`ekonos suite run --json`), behind
`ekonos lab suite-pairs`.

    ekonos lab suite-pairs benchmarks/results/2026-11-22-suite-eval-judge.json \
        --pair level3 baseline --pair level5 level4
    ekonos lab suite-pairs benchmarks/results/2026-11-23-suite-eval-judge-refit.json \
        benchmarks/results/2026-11-23-suite-heldout-level3.json \
        --pair level3 baseline   # two suites pooled

Every bot decides the same positions, so a per-position difference of losses is far tighter
than two separate intervals; several results (of different suites) pool their positions.  For
each pair A B: the mean of A's loss minus B's with its 95% interval, the ratio of their mean
losses with its 95% interval (delta method), the gifts of each, and the positions where they
chose the same move.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from search.lab.arena import Z95
from search.lab.suite_score import GIFT


#: The largest `suite run --json` result read: a real one is a few hundred KB.
MAX_RESULT_BYTES = 64 << 20


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    diff: float
    diff_ci: tuple[float, float]
    ratio: float
    ratio_ci: tuple[float, float]
    gifts: tuple[int, int]
    same: int
    positions: int


def decisions(results: list[dict], name: str) -> dict[tuple[int, int], dict]:
    """Bot `name`'s decisions in every result, keyed by (result's index, position id)."""
    out = {}
    for k, result in enumerate(results):
        bots = {x["bot"]: x for x in result["bots"]}
        if name not in bots:
            where = f" {k + 1}" if len(results) > 1 else ""
            raise ValueError(f"no bot {name!r} in the result{where} (bots: {', '.join(bots)})")
        out.update(((k, d["id"]), d) for d in bots[name]["decisions"])
    return out


def paired(result: dict | list[dict], a: str, b: str, gift: float = GIFT) -> Pair:
    """The paired comparison of bots `a` and `b` in a `suite run --json` result, or over the
    positions of several results pooled (each bot must be in all of them)."""
    results = result if isinstance(result, list) else [result]
    da, db = decisions(results, a), decisions(results, b)
    ids = sorted(set(da) & set(db))
    if len(ids) < 2:
        raise ValueError(f"{a} and {b} share fewer than two positions")
    x = [da[i]["loss"] for i in ids]
    y = [db[i]["loss"] for i in ids]
    n = len(ids)
    mx, my = statistics.fmean(x), statistics.fmean(y)
    md = mx - my
    half = Z95 * statistics.stdev([u - v for u, v in zip(x, y)]) / math.sqrt(n)
    if my > 0:
        r = mx / my
        var = (statistics.variance(x) - 2 * r * statistics.covariance(x, y)
               + r * r * statistics.variance(y))
        se = math.sqrt(max(0.0, var) / n) / my
        ratio, ratio_ci = r, (r - Z95 * se, r + Z95 * se)
    else:
        ratio, ratio_ci = math.nan, (math.nan, math.nan)
    return Pair(a, b, md, (md - half, md + half), ratio, ratio_ci,
                (sum(u >= gift for u in x), sum(v >= gift for v in y)),
                sum(da[i]["move"] == db[i]["move"] for i in ids), n)


def report(names: list[str], results: list[dict], pairs: list[tuple[str, str]]) -> list[str]:
    """One line per pair A B over the results pooled (their file names in `names`, for the
    message of a result that lacks a bot); ValueError naming what is missing."""
    out = []
    for a, b in pairs:
        try:
            p = paired(results, a, b)
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{', '.join(names)}: not `suite run --json` results with both "
                             f"bots ({type(e).__name__}: {e})") from None
        out.append(f"{a} - {b}: {p.diff:+.2f} [{p.diff_ci[0]:+.2f}, {p.diff_ci[1]:+.2f}] "
                   f"points, ratio {p.ratio:.2f} [{p.ratio_ci[0]:.2f}, {p.ratio_ci[1]:.2f}], "
                   f"gifts {p.gifts[0]} against {p.gifts[1]}, the same move in {p.same} of "
                   f"{p.positions}")
    return out
