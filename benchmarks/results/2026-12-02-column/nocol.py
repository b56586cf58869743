"""A model with the market column taken out of the company values (docs/strength.md, "The market
column in the evaluation"): every cell's column weight (feature 6, the shares in the company's
column) set to 0 and its mean contribution moved into the constant, so each cell's mean
predicted value stays where it was while a buy or a sale no longer moves it.

    PYTHONPATH=. python nocol.py [--times K] BASE_MODEL OUT_DIR SAMPLES.npz [SAMPLES.npz ...]

--times K: the column weight multiplied by K instead (K = 0 is the default; the constant takes
the difference the same way).

BASE_MODEL: a model's name or file; SAMPLES: `ekonos learn sample` files, read only for each
cell's mean column (a cell without samples keeps its weights).  Prints per cell the weight, the
mean column, and the log loss of both models on the samples (they were not fitted on them).

The two models here were made by earlier versions of this script, whose text in the file's
`metrics` and `data` differed: run again, it writes the same weights under another name (a
model is named by its bytes)."""
import json
import sys
from pathlib import Path

import numpy as np

from search import evaluation
from search.learn.fit import Samples, log_loss
from search.learn.model_file import data_entry, model_text, write_model

COLUMN = 6      # _eval.pxd company_features: f[6] is ek_column, the shares in the column

args = sys.argv[1:]
times = 0.0
if args[0] == "--times":
    times, args = float(args[1]), args[2:]
base_path = evaluation.model_path(args[0])
base = json.loads(base_path.read_text())
out = Path(args[1])
files = [Path(a) for a in args[2:]]
s = Samples.concat([Samples.load(f) for f in files])
theta = np.array(base["theta"], dtype=float)
beta = np.array(base["beta"], dtype=float)
new = theta.copy()
for n in range(2, 7):
    for r in range(1, theta.shape[1]):
        rows = (s.players == n) & (s.rounds_left == r)
        if not beta[n, r] or not rows.any():
            continue
        mean = float(s.features[rows][:, :, COLUMN].mean())
        new[n, r, 0] += (1 - times) * theta[n, r, COLUMN] * mean
        new[n, r, COLUMN] = times * theta[n, r, COLUMN] + 0.0     # never -0.0
        print(f"{n}p r{r}: column weight {theta[n, r, COLUMN]:+.3f}, mean column {mean:.2f} "
              f"({int(rows.sum())} positions)")
model = {"theta": new.tolist(), "beta": beta.tolist(), "samples": base["samples"]}
old = {"theta": theta.tolist(), "beta": beta.tolist()}
metrics = {"base": evaluation.name_of_bytes(base_path.read_bytes()),
           "change": f"column weight x {times:g}, the difference of its mean contribution "
                     "in the constant"}
for n in range(2, 7):
    part = s.subset(s.players == n)
    if len(part.players):
        a, b = log_loss(part, old), log_loss(part, model)
        metrics[f"{n}p log loss on the samples, base / this"] = [round(a, 4), round(b, 4)]
        print(f"{n}p: log loss on {len(part.players)} positions, base {a:.4f}, this {b:.4f}")
command = "python benchmarks/results/2026-12-02-column/nocol.py " + " ".join(sys.argv[1:])
data = [data_entry(f, "ekonos learn sample -p P -n 30 --spec level3 --seed 560 -o FILE")
        for f in files]
name, path = write_model(model_text(model, command, data, metrics), out)
print(name, path)
