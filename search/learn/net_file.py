"""Writing a network file that says what it is (search/network.py documents the format, reads
and checks it).

The text is laid out a line per entry (each data folder, each point of the curve, each player
count's metrics, each weight) so that two networks diff readably; the keys come in a fixed
order and every number is rounded as written, so the same training gives the same bytes, hence
the same name.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from search._net import NET_FEATURES_HASH, NET_INPUT_COUNT, NET_SCORE_SCALE
from search.learn.model_file import write_named
from search.network import (ACTIONS_HASH, FORMAT, KIND, MAX_NET_BYTES, WEIGHTS, encode,
                            name_of_bytes, outputs_of)


def net_text(weights: dict[str, np.ndarray], command: str, data: list[dict], training: dict,
             metrics: dict, base: str | None = None, kind: str = KIND) -> str:
    """The file's text: `weights` by name (float32), the command that made it, the data
    entries of its folders, how it was trained (with its curve), its held-out metrics, and its
    base (the name of the linear evaluation it corrects, or None).  A policy network
    (`kind` POLICY_KIND) says the action table it was trained for instead of a score scale and
    a base."""
    h1, h2 = weights["w1"].shape[1], weights["w2"].shape[1]
    head = {"format": FORMAT, "kind": kind, "features": NET_FEATURES_HASH,
            "inputs": NET_INPUT_COUNT, "outputs": outputs_of(kind)}
    head.update({"score_scale": NET_SCORE_SCALE} if kind == KIND else {"actions": ACTIONS_HASH})
    head.update({"hidden": [h1, h2]}, **({"base": base or None} if kind == KIND else {}),
                command=command)
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(' "data": [\n' + ",\n".join("  " + json.dumps(d) for d in data) + "\n ],")
    rest = {k: v for k, v in training.items() if k != "curve"}
    curve = ",\n".join("   " + json.dumps(p) for p in training["curve"])
    lines.append(' "training": ' + json.dumps(rest)[:-1] + (", " if rest else "")
                 + '"curve": [\n' + curve + "\n ]},")
    lines.append(' "metrics": {\n' + ",\n".join(f"  {json.dumps(n)}: {json.dumps(m)}"
                                                  for n, m in metrics.items()) + "\n },")
    coded = (f"  {json.dumps(k)}: {json.dumps(encode(weights[k]))}" for k in WEIGHTS)
    lines.append(' "weights": {\n' + ",\n".join(coded) + "\n }")
    return "{\n" + "\n".join(lines) + "\n}\n"


def write_net(text: str, out: Path) -> tuple[str, Path]:
    """Write a network file: into folder `out` as `<name>.json`, or (`out` not a folder) at the
    path `out` itself; atomically.  Returns the network's name and its file.  ValueError for a
    network too large for a network file."""
    return write_named(text, out, name_of_bytes, MAX_NET_BYTES, "network",
                       ": use narrower hidden layers")
