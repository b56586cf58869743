"""The 4-player rate of random moves (eps = 0.03): its first test and its confirmation, all games.

The first test's four shards (2026-11-28-playouts/, seeds 392, 395, 396, 397) named the rule
`eps=0.03` against level 3 as it then was; the confirmation (seeds 447, 448) names it
`eps=0.03,epsfor=4` against the same search without it.  In a 4-player game the two play alike,
but `ekonos lab pool-sprt` compares specs as written, so this adds the unit histograms by hand
(the first test had crossed its bound, which `Sprt` would not let more units follow).

    python benchmarks/results/2026-11-29-confirm/pool_eps_4p.py
"""
import json
from pathlib import Path

from search.lab.ratings import elo_estimate
from search.lab.sprt import llr

HERE = Path(__file__).resolve().parent
FIRST = [HERE.parent / "2026-11-28-playouts" / f"arena-eps03-4p-seed{s}.json"
         for s in (392, 395, 396, 397)]
CONFIRM = [HERE / f"arena-eps03-confirm-4p-seed{s}.json" for s in (447, 448)]


def line(label: str, files: list[Path]) -> str:
    counts: dict[float, int] = {}
    games = 0
    for path in files:
        run = json.loads(path.read_text())
        assert run["players"] == 4 and "eps=0.03" in run["sprt"]["test"], path
        for value, count in run["sprt"]["outcomes"]:
            counts[round(value, 12)] = counts.get(round(value, 12), 0) + count
        games += run["sprt"]["games"]
    values = sorted(set(counts) | {0.0, 1.0})
    n = [counts.get(v, 0) for v in values]
    e = elo_estimate(values, [1.0] * len(values), n)
    return (f"{label}: {games} games, LLR [0, 30] {llr(n, values, 0, 30):+.2f}, "
            f"Elo {e.elo:+.0f} [{e.low:+.0f}, {e.high:+.0f}]")


if __name__ == "__main__":
    print(line("first test", FIRST))
    print(line("confirmation", CONFIRM))
    print(line("all", FIRST + CONFIRM))
