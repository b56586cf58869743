"""The policy network's data: what the search chose at each recorded root, as targets over the
root's legal moves (search/learn/policy_train.py trains on them; numpy only).

Each recorded decision (search/learn/selfplay.py `record_game`) holds the root's moves with
their visits, and the move played.  Its target is the visits, normalised, mixed with the move
the search played (weight `mix`): halving's last two moves share equal visits, so the visits
alone do not say which one the search chose.  In a game's first `explore` decisions (the
folder's manifest says how many) the move played was drawn from the visits, not chosen, so
there the target is the visits alone.  The split is the value network's, by game
(search/learn/net_data.py `game_draw`).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from ekonos.files import read_bounded
from search.learn import net_data, selfplay

#: How much of a target is the move the search played (the rest: its root visits).
MIX = 0.5


class Targets(dict):
    """Per position i: x, players, game, and its root moves `cand[i, :width[i]]` (action numbers,
    zero past the width) with `target[i]` (summing to 1) and `played[i]` (the column of the
    move the search chose, -1 where it was drawn or not among the root's moves)."""


def targets(arrays: dict, explore: int | np.ndarray, mix: float = MIX) -> Targets:
    """The targets of positions read by `selfplay.load_dataset` (`explore`: the drawn first
    decisions of each game, one number or one per position).  Positions whose root recorded no
    visits (a bot that does not search) are left out."""
    starts = arrays["pol_start"].astype(np.int64)
    width = np.diff(starts)
    visits = arrays["pol_visits"].astype(np.float64)
    n = len(width)
    row = np.repeat(np.arange(n), width)
    col = np.arange(len(row)) - np.repeat(starts[:-1], width)
    total = np.bincount(row, weights=visits, minlength=n)
    keep = (width > 0) & (total > 0)
    w = int(width.max(initial=1))
    cand = np.zeros((n, w), dtype=np.int32)
    target = np.zeros((n, w), dtype=np.float32)
    cand[row, col] = arrays["pol_action"]
    share = visits / np.maximum(total[row], 1)
    chosen = np.asarray(arrays["ply"]) >= np.broadcast_to(explore, (n,))
    hit = (arrays["pol_action"] == arrays["action"][row]) & chosen[row]
    played = np.full(n, -1, dtype=np.int32)
    played[row[hit]] = col[hit]
    weight = np.where(played[row] >= 0, 1 - mix, 1.0)
    target[row, col] = share * weight + np.where(hit, mix, 0.0)
    out = Targets(x=arrays["x"][keep], players=arrays["players"][keep],
                  game=arrays["game"][keep], cand=cand[keep], target=target[keep],
                  played=played[keep], width=width[keep].astype(np.int32))
    if "source" in arrays:
        out["source"] = arrays["source"][keep]
    return out


def read_folders(folders: list, mix: float = MIX) -> tuple[Targets, list[dict]]:
    """The targets of the self-play folders pooled (each read and checked by
    `selfplay.load_dataset`, its manifest's `explore` applied), and each folder's data entry:
    folder, manifest_sha256 (the manifest lists every shard's sha256), positions, games."""
    parts, entries = [], []
    for i, folder in enumerate(folders):
        manifest = selfplay.read_manifest(folder)
        arrays = selfplay.load_dataset([folder])
        arrays["source"] = np.full(len(arrays["players"]), i, dtype=np.int32)
        part = targets(arrays, manifest["explore"], mix)
        parts.append(part)
        raw = read_bounded(Path(folder) / selfplay.MANIFEST, net_data.MAX_MANIFEST_BYTES,
                           "self-play manifest")
        entries.append({"folder": str(folder),
                        "manifest_sha256": hashlib.sha256(raw).hexdigest(),
                        "positions": len(part["players"]), "games": net_data.games(part)})
    return concat(parts), entries


def concat(parts: list[Targets]) -> Targets:
    """Targets of several parts as one (the root moves padded to the widest)."""
    w = max(p["cand"].shape[1] for p in parts)

    def pad(a: np.ndarray) -> np.ndarray:
        return np.pad(a, ((0, 0), (0, w - a.shape[1])))
    return Targets({k: np.concatenate([pad(p[k]) if k in ("cand", "target") else p[k]
                                       for p in parts]) for k in parts[0]})


def subset(t: Targets, mask: np.ndarray) -> Targets:
    return Targets({k: v[mask] for k, v in t.items()})
