"""The 4-player cut rule's first test and its confirmation, pooled into one SPRT [0, 30].

The first test (seed 427, 2026-11-29-cutnext/) named the rule `cutnext=23456` against level 3
without it; the confirmation shards (seeds 445, 446) put level 3, which now plays `cutnext=4`,
against the same search without it.  In a 4-player game the two specs play alike (the mask only
reads the game's player count) and the base is the same spec, so `ekonos lab pool-sprt`, which
compares specs as written, refuses to pool them; this adds their unit histograms by hand.

    python benchmarks/results/2026-11-29-confirm/pool_cutnext_4p.py
"""
import json
import sys
from pathlib import Path

from search.lab.ratings import elo_estimate
from search.lab.sprt import bounds, llr

HERE = Path(__file__).resolve().parent
FIRST = HERE.parent / "2026-11-29-cutnext" / "arena-cutnext-vs-level3-4p-seed427.json"
BASE = ("ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving,wait4=30,wait4from=6,"
        "eps=0.03,epsfor=4")
MODEL = ",model=eval-0678b3d9c83c"
LOWER, UPPER = bounds()


def units(path: Path) -> tuple[dict, str]:
    run = json.loads(path.read_text())
    specs = run["specs"]
    test, base = run["sprt"]["test"], run["sprt"]["base"]
    full_base = specs.get(base, base)
    assert full_base.replace(MODEL, "") == BASE, full_base
    assert "cutnext=" in specs.get(test, test) and run["players"] == 4
    return run["sprt"], path.name


class Tally:
    """Units' outcome counts and games, read as one test whatever any part decided: a part that
    stopped at a bound is still counted (its units are real games), which `Sprt` refuses."""

    def __init__(self) -> None:
        self.counts: dict[float, int] = {}
        self.games = 0

    def add(self, outcomes: list, games: int) -> None:
        for value, count in outcomes:
            key = round(float(value), 12)
            self.counts[key] = self.counts.get(key, 0) + int(count)
        self.games += games

    def line(self, label: str) -> str:
        values = sorted(set(self.counts) | {0.0, 1.0})
        counts = [self.counts.get(v, 0) for v in values]
        e = elo_estimate(values, [1.0] * len(values), counts)
        return (f"{label}: {self.games} games, LLR [0, 30] {llr(counts, values, 0, 30):+.2f} "
                f"(bounds {LOWER:+.2f}, {UPPER:+.2f}), Elo {e.elo:+.0f} [{e.low:+.0f}, {e.high:+.0f}]")


def main(confirm: list[Path]) -> None:
    everything = Tally()
    for label, files in (("first test", [FIRST]), ("confirmation", confirm)):
        alone = Tally()
        for path in files:
            s, name = units(path)
            for t in (alone, everything):
                t.add(s["outcomes"], s["games"])
            print(f"  {name}: {s['games']} games, Elo {s['elo']['elo']:+.0f} "
                  f"[{s['elo']['ci95'][0]:+.0f}, {s['elo']['ci95'][1]:+.0f}], {s['state']}")
        print(alone.line(label))
    print(everything.line("all"))


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]]
         or sorted(HERE.glob("arena-cutnext4-confirm-4p-seed*.json")))
