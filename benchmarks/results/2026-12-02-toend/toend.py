"""The shipped model with some cells left out, so that a search whose horizon lands there plays
its playouts to the game's end instead of reading the model (docs/strength.md, "Early rounds
played to the end"): a cell is absent where its beta is 0 (search/_eval.pxd `has_cell`).

    PYTHONPATH=. python toend.py BASE_MODEL OUT_DIR P:R [P:R ...]

P:R names the cell of P players with R rounds left; its beta is set to 0 (theta is kept and
unread).  Prints the new model's name and path.
"""
import json
import sys
from pathlib import Path

from search import evaluation
from search.learn.model_file import model_text, write_model

base_path = evaluation.model_path(sys.argv[1])
base = json.loads(base_path.read_text())
out = Path(sys.argv[2])
cells = [tuple(int(x) for x in a.split(":")) for a in sys.argv[3:]]
model = {k: base[k] for k in ("theta", "beta", "samples")}
for n, r in cells:
    model["beta"][n][r] = 0.0
    model["samples"].pop(f"{n}p r{r}", None)
command = ("benchmarks/results/2026-12-02-toend/toend.py " + " ".join(sys.argv[1:]))
text = model_text(model, command, base["data"], base["metrics"], features=base["features"])
name, path = write_model(text, out)
print(name, path)
