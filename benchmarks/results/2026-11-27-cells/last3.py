"""The shipped model with only its 3-player last-round cell (1 round left) taken from the refit
of generations 2 and 3 (eval-05a597b4bba6): the refit as a whole lost with 3 players (-75,
H0) while sharpening the early cells; this isolates the cell whose held-out log loss gained
most (1.049 -> 1.019 on the seed-38 games).

    .venv/bin/python benchmarks/results/2026-11-27-cells/last3.py
"""
import json
from pathlib import Path

from search.learn.model_file import model_text, write_model

HERE = Path(__file__).parent
shipped = json.loads(Path("search/models/eval-5ec0e708e0a8.json").read_text())
refit = json.loads(Path("benchmarks/results/2026-11-29-refit/eval-05a597b4bba6.json").read_text())
model = {k: shipped[k] for k in ("theta", "beta", "samples")}
model["theta"][3][1] = refit["theta"][3][1]
model["beta"][3][1] = refit["beta"][3][1]
model["samples"]["3p r1"] = refit["samples"]["3p r1"]
command = ("benchmarks/results/2026-11-27-cells/last3.py: eval-5ec0e708e0a8 with its 3p r1 cell "
           "from eval-05a597b4bba6")
text = model_text(model, command, shipped["data"] + refit["data"], shipped["metrics"],
                  features=shipped["features"])
name, path = write_model(text, HERE)
print(name, path)
