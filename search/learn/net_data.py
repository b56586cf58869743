"""The value network's data: self-play folders read, split by game, and a network measured on them.

A folder holds ``shard-*.npz`` files (the arrays of search/learn/selfplay.py `record_game`,
games concatenated) and, when `ekonos learn selfplay` wrote it, a ``manifest.json``; a network
file names each folder it learnt from with the sha256 of its manifest (of its shards when it has
none), its positions and games.  `read_folder` is the reader until the self-play command's own
`load_dataset` replaces it; training and measuring take the arrays dict, whoever read it.

The held-out split is by game, never by position (the positions of one game are correlated): a
game (players, number) is held out when a hash of (seed, players, number) falls below the
fraction, so the same games are held out whatever else the data holds, and `ekonos learn
calibrate` finds again the games a network did not learn from.  Folders of other seeds number
their games alike, and a number is held out in each of them: the split is by game number
(counted as games, they are told apart by their folder, `source`).
"""
from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np

from ekonos.files import FileError, read_bounded
from search._net import NET_INPUT_COUNT, Net
from search.bots import derive_seed
from search.evaluation import MAXP
from search.learn import calibration, selfplay
from search.network import (WEIGHTS, linear_reading, net_path, read, scores, win_shares,
                            with_base)

#: The arrays the network learns from and is measured on (selfplay.ARRAYS has them all).
NEEDED = ("x", "players", "win", "score", "game", "q")
#: The largest shard read, and the largest manifest.
MAX_SHARD_BYTES = 1 << 30
MAX_MANIFEST_BYTES = 16 << 20
#: What the held-out hash mixes in, so that it draws apart from every game's own seed.
HELD_OUT_TAG = 0x4E45545F484F4C44


def _shard(path: Path, raw: bytes) -> dict:
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            arrays = {k: z[k] for k in NEEDED if k in z}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path}: not a self-play shard ({e})") from None
    missing = [k for k in NEEDED if k not in arrays]
    if missing:
        raise ValueError(f"{path}: not a self-play shard (no {', '.join(missing)})")
    n = len(arrays["players"])
    want = {"x": (n, NET_INPUT_COUNT), "players": (n,), "win": (n, MAXP),
            "score": (n, MAXP), "game": (n,), "q": (n,)}
    for k, shape in want.items():
        if arrays[k].shape != shape:
            raise ValueError(f"{path}: {k} has shape {arrays[k].shape}, not {shape}")
    if not np.isin(arrays["players"], range(2, MAXP + 1)).all():
        raise ValueError(f"{path}: players must be 2 to {MAXP}")
    if not all(np.isfinite(arrays[k]).all() for k in ("x", "win", "score")):
        raise ValueError(f"{path}: holds a number that is not finite")
    return arrays


def concat(parts: list[dict], sources: bool = True) -> dict:
    """Blocks of positions as one (the NEEDED arrays); with `sources`, each block's positions
    marked with its number in `source` (folders number their games alike: game 7 of two
    folders is two games), without, the blocks are parts of one folder."""
    out = {k: np.concatenate([p[k] for p in parts]) for k in NEEDED}
    if sources:
        out["source"] = np.concatenate([np.full(len(p["players"]), i, dtype=np.int32)
                                        for i, p in enumerate(parts)])
    return out


def read_folder(folder: str | Path) -> tuple[dict, dict]:
    """The positions of a self-play folder (its shards in name order) and its data entry:
    folder, manifest_sha256 (None without a manifest), shards_sha256, positions, games.
    FileError or ValueError naming what is wrong."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileError(f"{folder}: not a folder (a self-play folder of shard-*.npz files "
                        f"was expected)")
    shards = sorted(folder.glob("shard-*.npz"))
    if not shards:
        raise ValueError(f"{folder}: no shard-*.npz files (`ekonos learn selfplay` writes them)")
    manifest = folder / "manifest.json"
    digest = None
    if manifest.exists():
        digest = hashlib.sha256(read_bounded(manifest, MAX_MANIFEST_BYTES,
                                             "self-play manifest")).hexdigest()
        # the manifest's shards, each checked against its sha256, recorded for these inputs
        listed = {e["file"] for e in selfplay.read_manifest(folder)["shards"]}
        shards = [s for s in shards if s.name in listed]
        arrays = {k: v for k, v in selfplay.load_dataset([folder]).items() if k in NEEDED}
    whole = hashlib.sha256()
    parts = []
    for path in shards:
        raw = read_bounded(path, MAX_SHARD_BYTES, "self-play shard")
        if digest is None:
            parts.append(_shard(path, raw))
        whole.update(f"{path.name} {hashlib.sha256(raw).hexdigest()}\n".encode())
    if digest is None:
        arrays = concat(parts, sources=False)
    entry = {"folder": str(folder), "manifest_sha256": digest,
             "shards_sha256": whole.hexdigest(), "positions": len(arrays["players"]),
             "games": games(arrays)}
    return arrays, entry


def read_folders(folders: list) -> tuple[dict, list[dict]]:
    """The positions of several folders pooled, and their data entries."""
    read = [read_folder(f) for f in folders]
    return concat([a for a, _ in read]), [e for _, e in read]


def games(arrays: dict) -> int:
    """How many games the positions come from (a game: its source when the positions were
    pooled from several folders, its player count and its number)."""
    source = arrays.get("source", np.zeros(len(arrays["players"]), dtype=np.int32))
    return len(set(zip(source.tolist(), arrays["players"].tolist(), arrays["game"].tolist())))


def game_draw(arrays: dict, seed: int) -> np.ndarray:
    """Per position, a number from 0 to 1 drawn for its game by `seed` (the split's key)."""
    keys = {}
    for n, g in set(zip(arrays["players"].tolist(), arrays["game"].tolist())):
        keys[n, g] = derive_seed(seed, HELD_OUT_TAG, n, g) / 2.0 ** 64
    return np.array([keys[n, g] for n, g in zip(arrays["players"].tolist(),
                                                  arrays["game"].tolist())])


def held_out(arrays: dict, seed: int, fraction: float) -> np.ndarray:
    """Per position, whether its game is held out (`fraction` of the games, drawn by `seed`):
    never trained on.  The first half of them (draw below fraction / 2) chooses when training
    stops, the other half is measured (search/learn/net_train.py)."""
    return game_draw(arrays, seed) < fraction


def needed(arrays: dict) -> dict:
    """The NEEDED arrays of a data set (load_dataset's or read_folders'; with `source` where it
    has one), without the others (the root visits are not one per position)."""
    return {k: arrays[k] for k in NEEDED + ("source",) if k in arrays}


def subset(arrays: dict, mask: np.ndarray) -> dict:
    return {k: v[mask] for k, v in arrays.items()}


def metrics(outputs: np.ndarray, arrays: dict) -> dict:
    """How a network's raw outputs read these positions, per player count ("2" to "6"):
    positions, games, the win log loss (cross-entropy of its win shares against the realized
    ones) beside even odds' (log n), the score RMSE (points), how much the seat it favours
    wins beside chance (1/n), and the calibration table of its win shares with its error; and
    the linear evaluation's win log loss on the same positions (`linear_shares`)."""
    shares = win_shares(outputs, arrays["players"])
    expected = scores(outputs, arrays["players"])
    out = {}
    for n in sorted(set(arrays["players"].tolist())):
        m = arrays["players"] == n
        s, w = shares[m][:, :n], arrays["win"][m][:, :n].astype(np.float64)
        loss = win_log_loss(s, w).mean()
        err = expected[m][:, :n] - arrays["score"][m][:, :n]
        favourite = w[np.arange(len(w)), s.argmax(axis=1)].mean()
        rows = calibration.table(s, w)
        lin = linear_shares(arrays["x"][m], arrays["players"][m].astype(np.int64))[:, :n]
        lin_loss = win_log_loss(lin, w).mean()
        out[str(n)] = {"positions": int(m.sum()), "games": games(subset(arrays, m)),
                       "win_log_loss": _r(loss), "even_odds_log_loss": _r(np.log(n)),
                       "linear_win_log_loss": _r(lin_loss),
                       "score_rmse": _r(np.sqrt((err ** 2).mean())),
                       "favourite_wins": _r(favourite), "chance": _r(1 / n),
                       "calibration_error": _r(calibration.error(rows)),
                       "calibration": [{k: _r(v) if isinstance(v, float) else v
                                        for k, v in r.items()} for r in rows]}
    return out


def win_log_loss(shares: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Per position, the cross-entropy of predicted win shares against the realized ones (the
    seats given: columns past the players left out by the caller)."""
    return -(won * np.log(np.maximum(shares, 1e-300))).sum(axis=1)


def linear_shares(x: np.ndarray, players: np.ndarray, model: str = "") -> np.ndarray:
    """The win shares the linear evaluation gives each relative seat of the positions whose
    inputs are `x` (search/network.py `linear_reading`): the baseline a network must beat.  The
    model is fitted for round starts; elsewhere it reads a position as if a round began there."""
    logits, _ = linear_reading(x, players, model)
    return win_shares(np.concatenate([logits, np.zeros_like(logits)], axis=1), players)


def _r(x) -> float:
    return round(float(x), 6)


def calibrate(net: str, folders: list) -> dict:
    """How the network `net` (a name or a file) and the search's own estimate read the
    positions of `folders` the network did not learn from: of a folder among its training data
    (same manifest, or same shards) only the games it held out, of any other every position.
    Per player count: the network's `metrics` (its outputs computed by the search's C pass) and
    the calibration table of the search's recorded estimate with its error; and per folder the
    positions used.  ValueError when no position is left."""
    weights, doc = read(net_path(net))
    c_net = Net(*(weights[k] for k in WEIGHTS))        # raw outputs; the base is added below
    seen = {(d.get("manifest_sha256"), d.get("shards_sha256")) for d in doc.get("data", [])
            if isinstance(d, dict)}
    training = doc.get("training") if isinstance(doc.get("training"), dict) else {}
    seed, fraction = training.get("seed", 0), training.get("heldout", 0.0)
    if isinstance(seed, bool) or not isinstance(seed, int) or isinstance(fraction, bool) \
            or not isinstance(fraction, (int, float)) or not 0 <= fraction < 1:
        raise ValueError(f"{net}: its training record does not say which games it held out "
                         f"(seed {seed!r}, heldout {fraction!r})")
    parts, used = [], []
    for folder in folders:
        arrays, entry = read_folder(folder)
        arrays = needed(arrays)
        trained = any((m is not None and m == entry["manifest_sha256"])
                      or s == entry["shards_sha256"] for m, s in seen)
        if trained:
            keep = held_out(arrays, seed, fraction)
            which = "the games the network held out"
        else:
            keep = np.ones(len(arrays["players"]), dtype=bool)
            which = "not in the network's training data: every game"
        parts.append(subset(arrays, keep))
        used.append({"folder": str(folder), "positions": int(keep.sum()),
                     "of": len(keep), "which": which})
    data = concat(parts)
    if not len(data["players"]):
        raise ValueError(f"no position left: {net} learnt from every game of these folders")
    measured = metrics(with_base(c_net.forward(data["x"]), data["x"], data["players"],
                                 doc.get("base")), data)
    pred, real, players = calibration.search_pairs(data["q"], data["win"], data["players"])
    search = calibration.by_players(pred, real, players)
    report = {}
    for n, m in measured.items():
        rows = search.get(n, [])
        report[n] = {"network": m, "search": rows, "search_error": calibration.error(rows)}
    return {"net": net, "folders": used, "players": report}
