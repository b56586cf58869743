"""The shipped model (generation 4) with its 4-player cells taken from the refit of generations 2
and 3 (eval-05a597b4bba6, docs/strength.md "The linear model refit on all of it"): the refit was
measured with 2, 3 and 6 players (its 6-player cell became generation 4) and its 5-player cells
alone, never its 4-player cells alone.

    PYTHONPATH=. .venv/bin/python benchmarks/results/2026-12-02-refit4/refit4.py
"""
import json
from pathlib import Path

from search.learn.model_file import model_text, write_model

HERE = Path(__file__).parent
shipped = json.loads(Path("search/models/eval-0678b3d9c83c.json").read_text())
refit = json.loads(Path("benchmarks/results/2026-11-29-refit/eval-05a597b4bba6.json").read_text())
model = {k: shipped[k] for k in ("theta", "beta", "samples")}
for r in (1, 2):
    model["theta"][4][r] = refit["theta"][4][r]
    model["beta"][4][r] = refit["beta"][4][r]
    model["samples"][f"4p r{r}"] = refit["samples"][f"4p r{r}"]
command = ("benchmarks/results/2026-12-02-refit4/refit4.py: eval-0678b3d9c83c with its 4p cells "
           "from eval-05a597b4bba6")
text = model_text(model, command, shipped["data"] + refit["data"], shipped["metrics"],
                  features=shipped["features"])
name, path = write_model(text, HERE)
print(name, path)
