"""The steps of training the learned evaluation, behind `ekonos learn sample|fit|check`.

    ekonos learn sample -p 2 -n 300 --spec level2 --seed 1 -o selfplay_2p.npz
    ekonos learn fit selfplay_2p.npz selfplay_4p.npz ... -o search/models
    ekonos learn check eval-xxxxxxxxxxxx selfplay_4p.npz

`sample` plays self-play games (fixed seeds: game g of seed s at p players uses
derive_seed(s, p, g)) and keeps their round starts, recording its own command in the file;
`fit` fits a model on the pooled samples, measures its log loss on a held-out tenth of each
player count (fitted without them), then fits on everything and writes the model file named by
its hash, with its data manifest and those figures; `check` says how a model reads samples.
"""
from __future__ import annotations

import hashlib
import json
import shlex
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ekonos.files import FileError, read_bounded
from search.bots import derive_seed
from search.evaluation import MAX_MODEL_BYTES, model_name, model_path, read
from search.learn.fit import Samples, diagnose, fit, held_out, how_made, log_loss
from search.learn.model_file import data_entry, model_text, write_model
from search.learn.selfplay import MANIFEST, play_and_sample, read_manifest, replay_round_starts

#: Player counts a model scores unless told otherwise.
ALL_PLAYERS = (2, 3, 4, 5, 6)


def sample_command(players: int, games: int, spec: str, seed: int, first: int, out: str) -> str:
    """The command that makes (and remakes) a samples file."""
    start = f" --first {first}" if first else ""
    return (f"ekonos learn sample -p {players} -n {games}{start} --spec {shlex.quote(spec)} "
            f"--seed {seed} -o {shlex.quote(str(out))}")


def sample(players: int, games: int, spec: str, seed: int, first: int, out: Path,
           progress: Callable[[int], None] | None = None) -> Samples:
    """Play games first .. first+games-1 and write their round starts to `out` (rewritten every
    10 games, so a stopped run keeps what it played)."""
    how = sample_command(players, games, spec, seed, first, str(out))
    parts = []
    for g in range(first, first + games):
        parts.append(play_and_sample(players, spec, derive_seed(seed, players, g)))
        if (g + 1 - first) % 10 == 0:
            Samples.concat(parts).save(Path(out), how)
            if progress:
                progress(g + 1 - first)
    whole = Samples.concat(parts)
    whole.save(Path(out), how)
    return whole


def load_samples(data: list[Path]) -> Samples:
    """The samples of several files pooled, a self-play folder (`ekonos learn selfplay`) giving
    the round starts of its games replayed; ValueError naming a file that holds none."""
    parts = []
    for d in data:
        if Path(d).is_dir():
            parts.append(replay_round_starts([d]))
            continue
        try:
            parts.append(Samples.load(Path(d)))
        except FileError:                 # missing, not a regular file, too large: said so
            raise
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            raise ValueError(f"{d}: not samples of `ekonos learn sample` ({e})") from None
    return Samples.concat(parts)


def held_out_metrics(s: Samples, ridge: float, players: tuple[int, ...]) -> dict:
    """Per player count: the log loss, on a held-out tenth of its samples, of a model fitted
    without them, beside even odds' (rounded to 4 digits, as printed)."""
    held = held_out(s)
    model = fit(s.subset(~held), ridge, players)
    out = {}
    for n in sorted(set(s.players.tolist()) & set(players)):
        test = s.subset(held & (s.players == n))
        out[str(n)] = {"log_loss": round(log_loss(test, model), 4),
                       "even_odds": round(float(np.log(n)), 4),
                       "positions": len(test.players), "of": int((s.players == n).sum())}
    return {"held_out": out, "share": 0.1}


def fit_command(data: list[Path], ridge: float, players: tuple[int, ...], out: Path,
                keep: str = "") -> str:
    """The command that fits a model on `data` (recorded in the model file)."""
    opts = "" if ridge == 1.0 else f" --ridge {ridge:g}"
    opts += "" if tuple(sorted(players)) == ALL_PLAYERS else \
        "".join(f" -p {n}" for n in sorted(players))
    opts += f" --keep {shlex.quote(keep)}" if keep else ""
    return ("ekonos learn fit " + " ".join(shlex.quote(Path(d).name) for d in data) + opts
            + f" -o {shlex.quote(str(out))}")


def fit_files(data: list[Path], out: Path, ridge: float = 1.0,
              players: tuple[int, ...] = (), keep: str = "") -> tuple[str, Path, dict]:
    """Fit a model on the samples of `data` and write it (into folder `out`, named by its hash,
    or at the path `out`).  With `keep` (a shipped model's name or a model file), the player
    counts not in `players` are that model's, unchanged.  Returns its name, its file and its
    held-out metrics."""
    players = tuple(players) or ALL_PLAYERS
    if keep and set(players) >= set(ALL_PLAYERS):
        raise ValueError("--keep takes the player counts not fitted from a model: name the "
                         "counts to fit with -p")
    base = kept_model(keep) if keep else None      # a bad model: said before any fitting
    s = load_samples(data)
    metrics = held_out_metrics(s, ridge, players)
    model = fit(s, ridge, players)
    manifest = [folder_entry(Path(d)) if Path(d).is_dir()
                else data_entry(Path(d), how_made(Path(d))) for d in data]
    if base is not None:
        model, metrics, manifest = keep_counts(base, model, metrics, manifest, players)
    text = model_text(model, fit_command(data, ridge, players, out, keep), manifest, metrics)
    name, path = write_model(text, out)
    return name, path, metrics


def kept_model(keep: str) -> dict:
    """The model file `keep` names (checked as the search checks it), as a dict with its name;
    its sample counts and held-out figures only where they read as `ekonos learn fit` writes
    them (they describe the weights, which `read` checked)."""
    path = model_path(keep)
    theta, beta = read(path)                       # ModelError: not a model this build reads
    data = json.loads(read_bounded(path, MAX_MODEL_BYTES, "model file").decode("utf-8"))
    samples, metrics = data.get("samples"), data.get("metrics")
    held = metrics.get("held_out") if isinstance(metrics, dict) else None
    return {"name": model_name(path), "theta": theta, "beta": beta,
            "samples": {c: v for c, v in samples.items() if _players_of_cell(c)}
            if isinstance(samples, dict) else {},
            "held_out": {k: v for k, v in held.items() if k.isdigit()}
            if isinstance(held, dict) else {},
            "command": data["command"] if isinstance(data.get("command"), str) else ""}


def _players_of_cell(cell: str) -> int:
    """2 for a cell named "2p r3" (`fit`'s `samples`), 0 for any other text."""
    head, p, _ = cell.partition("p")
    return int(head) if p and head.isdigit() else 0


def keep_counts(base: dict, model: dict, metrics: dict, manifest: list[dict],
                players: tuple[int, ...]) -> tuple[dict, dict, list[dict]]:
    """`model` with the cells of the player counts not in `players` taken from `base`, their
    sample counts and held-out figures with them; the manifest names `base` and what it kept."""
    kept = [n for n in ALL_PLAYERS if n not in players]
    theta, beta = list(model["theta"]), list(model["beta"])
    for n in kept:
        theta[n], beta[n] = base["theta"][n], base["beta"][n]
    cells = {**{c: v for c, v in base["samples"].items() if _players_of_cell(c) in kept},
             **model["samples"]}
    samples = dict(sorted(cells.items(), key=lambda c: (_players_of_cell(c[0]), c[0])))
    held = {**{k: v for k, v in base["held_out"].items() if int(k) in kept},
            **metrics["held_out"]}
    metrics = {**metrics, "held_out": dict(sorted(held.items()))}
    entry = {"model": base["name"], "players": kept, "command": base["command"]}
    return ({"theta": theta, "beta": beta, "samples": samples}, metrics, [entry, *manifest])


def folder_entry(folder: Path) -> dict:
    """The manifest entry of a self-play folder: its name, its manifest's sha256 (which lists
    every shard's) and the command that makes it again."""
    raw = read_bounded(folder / MANIFEST, 1 << 24, "self-play manifest")
    return {"folder": folder.name, "manifest_sha256": hashlib.sha256(raw).hexdigest(),
            "command": read_manifest(folder)["command"]}


def check(model_file: Path, data: list[Path]) -> list[dict]:
    """How the model file reads the samples of `data`, per (players, rounds left) cell
    (`diagnose`); ValueError for a file that is no model or holds no samples."""
    theta, beta = read(model_file)
    return diagnose(load_samples(data), {"theta": theta, "beta": beta})
