"""The shipped model with one player count's cells replaced by an SPSA run's estimate (the mean
of the numbers over the last half of its steps), written as a model file named by its content.

PYTHONPATH=. python benchmarks/results/2026-12-01-spsa/tuned_model.py LOG OUT_DIR
"""
import copy
import hashlib
import json
import sys
from pathlib import Path

from search import evaluation
from search.learn.model_file import model_text, write_model

sys.path.insert(0, str(Path(__file__).parent))
from spsa import model_at  # noqa: E402


def main(log: str, out: str) -> None:
    lines = Path(log).read_text().splitlines()
    head = json.loads(lines[0])
    rows = [json.loads(line) for line in lines[1:]]
    half = rows[len(rows) // 2:]
    n = len(half[0]["u"])
    u = [sum(r["u"][i] for r in half) / len(half) for i in range(n)]
    a = head["args"]
    base = a["model"] or evaluation.SHIPPED
    theta, beta = evaluation.model(base)
    th, be = model_at(theta, beta, a["players"], a["cells"], u)
    raw = json.loads(evaluation.model_path(base).read_text())
    command = (f"spsa.py --players {a['players']} --cells {' '.join(map(str, a['cells']))} "
               f"--spec {a['spec']} --seed {a['seed']} --a {a['a']} --c {a['c']} "
               f"(stopped after {len(rows)} steps); tuned_model.py")
    data = [{"model": base, "players": [p for p in range(2, 7) if p != a["players"]],
             "command": raw["command"]},
            {"spsa": Path(log).name, "sha256": hashlib.sha256(Path(log).read_bytes()).hexdigest(),
             "steps": len(rows), "players": a["players"], "cells": a["cells"],
             "units": [round(x, 5) for x in u]}]
    model = {"theta": th, "beta": be, "samples": raw.get("samples", {})}
    name, path = write_model(model_text(model, command, data, raw.get("metrics", {})), Path(out))
    print(name, path, [round(x, 3) for x in u])


if __name__ == "__main__":
    main(*sys.argv[1:])
