"""Writing a model file that says what it is (search/evaluation.py reads and checks it).

The file is JSON, laid out one line per (players, rounds left) row so that a retrained model
diffs readably, with, in this order: ``format``, ``kind``, ``features`` (the hash of the
feature code the weights were fitted for, ``EVAL_FEATURES_HASH``), ``command`` (what made it),
``data`` (the manifest of its samples: each file's name, sha256, size and the command that
regenerates it), ``metrics`` (held-out figures), ``samples`` (positions per cell), ``theta``
and ``beta``.  It is named by its content (`search.evaluation.name_of_bytes`), so a model's
name changes with any byte of it and two equal models share one name.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from ekonos.files import read_bounded, write_atomic
from search._ismcts import EVAL_FEATURES_HASH
from search.evaluation import FORMAT, KIND, name_of_bytes
from search.learn.fit import MAX_SAMPLES_BYTES


def data_entry(path: Path, command: str) -> dict:
    """The manifest entry of a samples file: its name, sha256, size and regenerating command."""
    raw = read_bounded(path, MAX_SAMPLES_BYTES, "samples file")
    return {"file": Path(path).name, "sha256": hashlib.sha256(raw).hexdigest(),
            "size": len(raw), "command": command}


def model_text(model: dict, command: str, data: list[dict], metrics: dict,
               features: str = EVAL_FEATURES_HASH) -> str:
    """The file's text: `model` is `fit`'s result (theta, beta, samples)."""
    def rows(table: list) -> str:
        return ",\n".join("  [" + ",\n   ".join(json.dumps([round(x, 6) for x in r]) for r in n)
                          + "]" for n in table)
    entries = ",\n".join("  " + json.dumps(d) for d in data)
    return ("{\n"
            f' "format": {FORMAT},\n "kind": {json.dumps(KIND)},\n'
            f' "features": {json.dumps(features)},\n "command": {json.dumps(command)},\n'
            f' "data": [\n{entries}\n ],\n "metrics": {json.dumps(metrics)},\n'
            f' "samples": {json.dumps(model["samples"])},\n'
            f' "theta": [\n{rows(model["theta"])}\n ],\n'
            ' "beta": [\n' + ",\n".join("  " + json.dumps([round(x, 6) for x in r])
                                        for r in model["beta"]) + "\n ]\n}\n")


def output_path(out: Path, name: str) -> Path:
    """Where a file named `name` goes for the output `out`: into folder `out` as `<name>.json`
    when `out` is a folder or (nothing there yet) a path not ending in ``.json``, which is then
    made (its parent must exist); else at the path `out` itself."""
    out = Path(out)
    if out.is_dir():
        return out / f"{name}.json"
    if out.suffix.lower() == ".json" or out.exists() or out.is_symlink():
        return out
    out.mkdir()
    return out / f"{name}.json"


def write_model(text: str, out: Path) -> tuple[str, Path]:
    """Write a model file where `output_path` says (`out` a folder: as `<name>.json`);
    atomically.  Returns the model's name and its file."""
    return write_named(text, out, name_of_bytes, sys.maxsize, "model")


def write_named(text: str, out: Path, name_of: Callable[[bytes], str], limit: int, what: str,
                advice: str = "") -> tuple[str, Path]:
    """Write a file named by its content (`name_of` its bytes) where `output_path` says (`out`
    a folder: as `<name>.json`); atomically.  Returns the name and the file.  ValueError when
    it would be more than `limit` bytes (`what`: "network", "map"; `advice`: what to do then)."""
    raw = text.encode("utf-8")
    if len(raw) > limit:
        raise ValueError(f"the {what}'s file would be {len(raw)} bytes, more than a {what} file "
                         f"may be ({limit}){advice}")
    name = name_of(raw)
    path = output_path(out, name)
    write_atomic(path, text)
    return name, path
