"""The shipped model (generation 4) with the sharpness (beta) of its two early 3-player cells
taken from the refit of generations 2 and 3 (eval-05a597b4bba6), every company value (theta) kept:
0.0001 -> 0.0207 with three rounds left, 0.0076 -> 0.0702 with two (docs/strength.md, "Sharper
early 3-player cells").

    PYTHONPATH=. .venv/bin/python benchmarks/results/2026-12-02-beta3/beta3.py
"""
import json
from pathlib import Path

from search.learn.model_file import model_text, write_model

HERE = Path(__file__).parent
shipped = json.loads(Path("search/models/eval-0678b3d9c83c.json").read_text())
refit = json.loads(Path("benchmarks/results/2026-11-29-refit/eval-05a597b4bba6.json").read_text())
model = {k: shipped[k] for k in ("theta", "beta", "samples")}
for r in (2, 3):
    model["beta"][3][r] = refit["beta"][3][r]
command = ("benchmarks/results/2026-12-02-beta3/beta3.py: eval-0678b3d9c83c with the beta of its "
           "3p r2 and r3 cells from eval-05a597b4bba6")
text = model_text(model, command, shipped["data"] + refit["data"], shipped["metrics"],
                  features=shipped["features"])
name, path = write_model(text, HERE)
print(name, path)
