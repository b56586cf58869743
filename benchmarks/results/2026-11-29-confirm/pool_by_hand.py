"""The single-count steps asked again on new deals, each pooled with its first test, all games.

Each first test named its rule otherwise than the confirmation does (`cutnext=23456` and
`eps=0.03` then, `cutnext=4` in level 3 and `eps=0.03,epsfor=4` now; the 6-player wait was the
test's spec then and is level 3's now, so each side is named otherwise, and so is generation
4's 6-player cell, then a file's path and now level 3's shipped model): in a game of that
count they play alike, but `ekonos lab pool-sprt` compares specs as written and stops at the
first shard that crossed a bound, and here both parts of a pool may have crossed one.  So this
gives every shard's unit histogram to one `Sprt` at once (it checks its bounds after them all)
and reads its LLR and Elo estimate, always at SPRT [0, 30] (the 6-player cell's first test ran
[0, 15]).

    python benchmarks/results/2026-11-29-confirm/pool_by_hand.py cutnext   # pool-cutnext-4p.txt
    python benchmarks/results/2026-11-29-confirm/pool_by_hand.py eps       # pool-eps-4p-all.txt
    python benchmarks/results/2026-11-29-confirm/pool_by_hand.py wait4     # pool-wait4-6p.txt
    python benchmarks/results/2026-11-29-confirm/pool_by_hand.py cell6     # pool-cell6-6p-all.txt
"""
import json
import sys
from pathlib import Path

from search.lab.sprt import Sprt

HERE = Path(__file__).resolve().parent

#: Per rule: its player count, what its test spec holds, then the first test's shards and the
#: confirmation's.
RESULTS = HERE.parent
RULES = {
    "cutnext": (4, "cutnext=",
                [RESULTS / "2026-11-29-cutnext" / "arena-cutnext-vs-level3-4p-seed427.json"],
                [HERE / f"arena-cutnext4-confirm-4p-seed{s}.json" for s in (445, 446)]),
    "eps": (4, "eps=0.03",
            [RESULTS / "2026-11-28-playouts" / f"arena-eps03-4p-seed{s}.json"
             for s in (392, 395, 396, 397)],
            [HERE / f"arena-eps03-confirm-4p-seed{s}.json" for s in (447, 448)]),
    "wait4": (6, "wait4=30",
              [RESULTS / "2026-11-27-infer" / "arena-wait4-vs-level3-6p-seed381.json",
               RESULTS / "2026-11-27-wait4" / "arena-6p-seed382.json"],
              [HERE / "arena-wait4-confirm-6p-seed450.json"]),
    "cell6": (6, "eval-0678b3d9c83c",
              [RESULTS / "2026-11-27-phase" / "arena-6p-cell-vs-level3-6p-seed341.json",
               RESULTS / "2026-11-27-cells" / "arena-cell6-vs-level3-6p-seed362.json",
               RESULTS / "2026-11-27-cells" / "arena-cell6-vs-level3-6p-seed364.json",
               RESULTS / "2026-11-27-flat" / "arena-6p-cell-vs-level3-6p-seed354.json"],
              [HERE / f"arena-cell6-confirm-6p-seed{s}.json" for s in (449, 451)]),
}


def line(label: str, files: list[Path], players: int, rule: str) -> str:
    """The pooled test of `files` (each an SPRT of `players` of a spec holding `rule`) in one
    line: every shard's units given to one test at once, which checks its bounds only after
    them all."""
    test = Sprt(0, 30, model="block")
    outcomes: list[tuple[float, int]] = []
    games = 0
    for path in files:
        run = json.loads(path.read_text())
        s = run["sprt"]
        spec = run.get("specs", {}).get(s["test"], s["test"])
        assert run["players"] == players and rule in spec, path
        outcomes += s["outcomes"]
        games += s["games"]
    test.add_outcomes(outcomes, games)
    e = test.elo()
    return (f"{label}: {games} games, LLR [0, 30] {test.llr:+.2f} "
            f"(bounds {test.lower:+.2f}, {test.upper:+.2f}), "
            f"Elo {e.elo:+.0f} [{e.low:+.0f}, {e.high:+.0f}]")


if __name__ == "__main__":
    players, rule, first, confirm = RULES[sys.argv[1]]
    print(line("first test", first, players, rule))
    print(line("confirmation", confirm, players, rule))
    print(line("all", first + confirm, players, rule))
