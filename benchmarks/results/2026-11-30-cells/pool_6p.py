"""One SPRT [0, 40] over the 6-player runs of the refit 6-player cell against level 3.

Run 1 (2026-11-29-refit, seed 306) named the whole refit model, run 2 (seed 307) the model with
only its 6-player cell (`eval-0678b3d9c83c`, `ekonos learn fit … -p 6 --keep
eval-5ec0e708e0a8`).  A 6-player game reads only the 6-player cell (search/_eval.pxd indexes
theta and beta by the game's player count), and the two files' 6-player cells are equal, so
they are one bot there; the check below says so, and `pool` is told that run 1's label names
run 2's spec.  The same pooled test from the command line:

    ekonos lab pool-sprt RUN1 RUN2 --spec "ismcts:…,model=…/eval-05a597b4bba6.json=ismcts:…,model=…/eval-0678b3d9c83c.json"

    .venv/bin/python benchmarks/results/2026-11-30-cells/pool_6p.py
"""
import json
from pathlib import Path

from search.lab.pool_sprt import report

HERE = Path(__file__).parent
RUNS = [HERE.parent / "2026-11-29-refit" / "arena-refit-vs-level3-6p-seed306.json",
        HERE / "arena-6p-cell-vs-level3-6p-seed307.json"]
L3 = "ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving"
REFIT = "benchmarks/results/2026-11-29-refit/eval-05a597b4bba6.json"
CELL = "benchmarks/results/2026-11-30-cells/eval-0678b3d9c83c.json"

root = HERE.parents[2]
refit, cell = (json.loads((root / f).read_text()) for f in (REFIT, CELL))
assert refit["theta"][6] == cell["theta"][6] and refit["beta"][6] == cell["beta"][6]
runs = [json.loads(p.read_text()) for p in RUNS]
print("\n".join(report([p.name for p in RUNS], runs,
                        {f"{L3},model={REFIT}": f"{L3},model={CELL}"})))
