"""Fitting a calibration map of the search's win shares on self-play (`ekonos learn
calibration-map`; search/calibration_map.py documents the file, reads and applies it).

The pairs are the search's recorded estimate ``q`` of each position (the mover's mean win share
of the move played) and the mover's realized share (relative seat 0 of ``win``), per player
count.  The games are split by game (search/learn/net_data.py `held_out`): the map is fitted on
the training games only, and the held-out games measure it (decile tables of
search/learn/calibration.py before and after the map, with their calibration error).

The fit, per player count (`fit_knots`):

1. The training pairs, sorted by predicted share, are cut into BINS groups of equal count (fewer
   when there are fewer than MIN_BIN pairs a group): a bin's mean realized share is an average
   over hundreds of positions, never a handful.  A bin whose mean predicted share lies within
   MIN_GAP of the previous one's is pooled with it (no knots closer than that, so no steep
   step between two nearly equal shares).
2. A bin's positions come from few games when data is thin, and one game's positions share one
   outcome: each bin's realized mean is blended with its predicted mean (the identity map) in
   the proportion games / (games + PRIOR_GAMES), so a bin of 5 games moves halfway from the
   search's figure, one of 100 games nearly all the way.
3. Isotonic regression (scipy.optimize.isotonic_regression, weighted by the bins' counts) makes
   the bins' shares non-decreasing; each block of pooled bins becomes one knot at its weighted
   mean predicted share, so the curve rises strictly from knot to knot and keeps the order of
   the moves a hint ranks.
4. The ends are pinned: (0, 0) and (1, 1).  A share of exactly 0 or 1 is a search whose every
   iteration lost or won, at the end of a game; on the gen1 data those come true (0.000-0.005
   and 0.988-1.000 realized) whatever the player count.

Only this module of the project imports scipy (`ekonos[calibrate]`); playing needs numpy only.
"""
from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path

import numpy as np
from scipy.optimize import isotonic_regression

from ekonos.files import read_bounded
from ekonos.files import read_json_file
from search import calibration_map
from search.calibration_map import FORMAT, KIND, MAX_MAP_BYTES, WinCalibration, name_of_bytes
from search.learn import calibration, net_data, selfplay
from search.learn.model_file import write_named
from search.learn import shards as shards_mod

#: Equal-count groups of the training pairs of one player count.
BINS = 40
#: The fewest pairs a group holds (fewer pairs: fewer groups).
MIN_BIN = 50
#: Bins whose mean predicted shares lie closer than this are pooled: many positions share
#: nearly one share (1/3 early in a 3-player game), and a curve steep between such close knots
#: would make a hint's near-equal moves look far apart.
MIN_GAP = 0.02
#: A bin's realized share counts as much as this many games' worth of the identity map.
PRIOR_GAMES = 5
#: The digits of the knots and of the tables as written.
DIGITS = 6
METHOD = (f"isotonic regression (scipy.optimize.isotonic_regression, weighted by count) of the "
          f"mean realized share of up to {BINS} equal-count bins of predicted share (at least "
          f"{MIN_BIN} positions each; bins whose means lie within {MIN_GAP} pooled), each bin's "
          f"mean first blended with its mean predicted share in the proportion games / (games + "
          f"{PRIOR_GAMES}); a knot per block at its mean predicted share; end points pinned at "
          f"(0, 0) and (1, 1)")


def fit_knots(predicted: np.ndarray, realized: np.ndarray, games: np.ndarray) -> list[list]:
    """The knots [[x, y], ...] of a map from `predicted` to `realized` win shares (the module's
    method), `games` naming each pair's game.  x rises strictly from 0 to 1, y never falls and
    stays within [0, 1].  No pairs: the identity."""
    p = np.clip(np.asarray(predicted, dtype=np.float64).ravel(), 0.0, 1.0)
    r = np.clip(np.asarray(realized, dtype=np.float64).ravel(), 0.0, 1.0)
    g = np.asarray(games).ravel()
    if not (p.size == r.size == g.size):
        raise ValueError(f"{p.size} predictions, {r.size} outcomes and {g.size} games")
    knots = [[0.0, 0.0]]
    if p.size:
        order = np.argsort(p, kind="stable")
        parts: list[np.ndarray] = []
        for a in np.array_split(order, max(1, min(BINS, p.size // MIN_BIN))):
            if parts and p[a].mean() - p[parts[-1]].mean() < MIN_GAP:
                parts[-1] = np.concatenate([parts[-1], a])     # too close to tell apart
            elif a.size:
                parts.append(a)
        x = np.array([p[a].mean() for a in parts])
        n = np.array([a.size for a in parts], dtype=np.float64)
        k = np.array([len(np.unique(g[a])) for a in parts], dtype=np.float64)
        y = (k * np.array([r[a].mean() for a in parts]) + PRIOR_GAMES * x) / (k + PRIOR_GAMES)
        fit = isotonic_regression(y, weights=n, increasing=True)
        for s, e in zip(fit.blocks[:-1], fit.blocks[1:]):
            kx = round(float(np.average(x[s:e], weights=n[s:e])), DIGITS)
            ky = round(float(min(max(fit.x[s], 0.0), 1.0)), DIGITS)
            if knots[-1][0] < kx < 1.0:        # shares of exactly 0 or 1 are the pinned ends
                knots.append([kx, max(ky, knots[-1][1])])
    knots.append([1.0, 1.0])
    return knots


# ---------------------------------------------------------------------------------------------
# The data

def read_folder(folder: str | Path, games: int | None = None) -> tuple[dict, dict]:
    """The pairs of a self-play folder with a manifest (predicted ``q``, realized share of the
    mover, players, game; only games below `games` if given) and its data entry: the folder,
    spec, players, seed, the command that makes its games used, game_limit (the games used are
    numbered below it), the shards used with the sha256 of their list ("name sha256" lines;
    each shard's sha256 is checked against the manifest as it is read), positions and games.
    A folder being filled is read as one manifest lists it (read again if it changed while its
    shards were read); the manifest's own sha256 is left out, as it changes while the folder
    grows."""
    manifest = Path(folder) / selfplay.MANIFEST
    for _ in range(5):
        before = read_bounded(manifest, selfplay.MAX_MANIFEST_BYTES, "self-play manifest")
        m = selfplay.read_manifest(folder)
        data = selfplay.load_dataset([folder])
        if read_bounded(manifest, selfplay.MAX_MANIFEST_BYTES, "self-play manifest") == before:
            break
    else:
        raise ValueError(f"{folder}: its manifest changed on every one of 5 reads; try again")
    keep = np.ones(len(data["q"]), dtype=bool) if games is None else data["game"] < games
    shards = [e for e in m["shards"] if games is None or e["first_game"] < games]
    listing = "".join(f"{e['file']} {e['sha256']}\n" for e in shards)
    pairs = {"q": data["q"][keep].astype(np.float64),
             "win": data["win"][keep, 0].astype(np.float64),
             "players": data["players"][keep].astype(np.int64),
             "game": data["game"][keep].astype(np.int64)}
    run = shards_mod.Run(m["players"], m["spec"], m["seed"], m["games_per_shard"], m["explore"])
    made = max((e["first_game"] + e["games"] for e in shards), default=0)
    entry = {"folder": str(folder), "spec": m["spec"], "players": m["players"],
             "seed": m["seed"], "command": run.command(made, folder), "game_limit": made,
             "shards": len(shards),
             "shards_sha256": hashlib.sha256(listing.encode()).hexdigest(),
             "positions": int(keep.sum()), "games": net_data.games(pairs)}
    return pairs, entry


def read_folders(folders: list, games: int | None = None) -> tuple[dict, list[dict], str]:
    """The pairs of several folders pooled (a game keyed by its folder too), their data
    entries and the spec they share; ValueError when they were recorded by different searches
    or hold no estimate."""
    parts, entries = [], []
    for i, folder in enumerate(folders):
        pairs, entry = read_folder(folder, games)
        pairs["key"] = pairs["game"] + (i << 32)
        parts.append(pairs)
        entries.append(entry)
    specs = sorted({e["spec"] for e in entries})
    if len(specs) > 1:
        raise ValueError("the folders were recorded by different searches (" + "; ".join(specs)
                         + "): a map is fitted for one search; fit one per search")
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    known = np.isfinite(data["q"])
    if not known.any():
        raise ValueError("no position holds the search's estimate (q): the folders' bot does "
                         "not search")
    return {k: v[known] for k, v in data.items()}, entries, specs[0]


# ---------------------------------------------------------------------------------------------
# The map

def _rows(rows: list[dict]) -> list[dict]:
    return [{k: round(v, DIGITS) if isinstance(v, float) else v for k, v in r.items()}
            for r in rows]


def fit(data: dict, heldout: float, seed: int) -> dict:
    """Per player count ("2" to "6"): its knots fitted on the training games, positions and
    games fitted on, and the held-out decile tables before and after with their errors
    (None without held-out games)."""
    out = {}
    test = net_data.held_out(data, seed, heldout)
    for n in sorted(set(data["players"].tolist())):
        train, held = (data["players"] == n) & ~test, (data["players"] == n) & test
        if not train.any():
            continue
        knots = fit_knots(data["q"][train], data["win"][train], data["key"][train])
        curve = WinCalibration("", "", {n: tuple(np.array(k) for k in zip(*knots))})
        entry = {"positions": int(train.sum()), "games": len(np.unique(data["key"][train])),
                 "knots": knots}
        before = calibration.table(data["q"][held], data["win"][held])
        after = calibration.table(curve.shares(data["q"][held], n), data["win"][held])
        entry["held_out"] = {
            "positions": int(held.sum()), "games": len(np.unique(data["key"][held])),
            "error_before": round(calibration.error(before), DIGITS) if before else None,
            "error_after": round(calibration.error(after), DIGITS) if after else None,
            "before": _rows(before), "after": _rows(after)}
        out[str(n)] = entry
    return out


def map_text(spec: str, command: str, data: list[dict], how: dict, players: dict) -> str:
    """The file's text: a line per data folder, per player count its figures, knots, and
    held-out tables on lines of their own, so that two maps diff readably."""
    head = {"format": FORMAT, "kind": KIND, "spec": spec, "command": command}
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(' "data": [\n' + ",\n".join("  " + json.dumps(d) for d in data) + "\n ],")
    lines.append(f' "fit": {json.dumps(how)},')
    counts = []
    for n, e in players.items():
        h = e["held_out"]
        inner = [f'   "positions": {e["positions"]}, "games": {e["games"]},',
                 f'   "knots": {json.dumps(e["knots"])},',
                 '   "held_out": {' + ", ".join(f"{json.dumps(k)}: {json.dumps(h[k])}" for k in
                                                ("positions", "games", "error_before",
                                                 "error_after")) + ",",
                 *(f'    {json.dumps(k)}: [\n' + ",\n".join("     " + json.dumps(r)
                                                            for r in h[k]) + "\n    ]"
                   + ("," if k == "before" else "}") for k in ("before", "after"))]
        counts.append(f"  {json.dumps(n)}: {{\n" + "\n".join(inner) + "\n  }")
    lines.append(' "players": {\n' + ",\n".join(counts) + "\n }")
    return "{\n" + "\n".join(lines) + "\n}\n"


def command_of(folders: list, heldout: float, seed: int, games: int | None) -> str:
    """The command that fits this map again (the output folder left out: it does not change
    the map)."""
    return ("ekonos learn calibration-map " + " ".join(shlex.quote(str(f)) for f in folders)
            + f" --heldout {heldout:g} --seed {seed}"
            + (f" --games {games}" if games is not None else ""))


def write_map(text: str, out: Path) -> tuple[str, Path]:
    """Write a map file: into folder `out` as `<name>.json`, or (`out` not a folder) at the
    path `out` itself; atomically.  Returns the map's name and its file."""
    return write_named(text, out, name_of_bytes, MAX_MAP_BYTES, "map")


def make_map(folders: list, out: Path, heldout: float = 0.3, seed: int = 1,
                    games: int | None = None) -> tuple[str, Path, dict]:
    """Fit a map on the self-play folders and write it (into folder `out`, named by its hash,
    or at the path `out`).  Returns its name, its file and its per-player-count entries."""
    data, entries, spec = read_folders(folders, games)
    players = fit(data, heldout, seed)
    how = {"method": METHOD, "bins": BINS, "min_bin": MIN_BIN, "min_gap": MIN_GAP,
           "prior_games": PRIOR_GAMES,
           "heldout": heldout, "seed": seed, "games": games}
    text = map_text(spec, command_of(folders, heldout, seed, games), entries, how, players)
    name, path = write_map(text, out)
    return name, path, players


def check(name: str, folders: list, games: int | None = None) -> dict:
    """How the map `name` (a shipped map's name or a file) calibrates the search's shares of
    the self-play `folders` (only games below `games` if given): per player count the decile
    tables before and after with their errors.  A folder of the run the map was fitted on
    (same spec, seed and players as one of its data entries) counts only the games the map
    was not fitted on (held out, or recorded since); any other folder every game.  Returns
    the map's name and spec, the folders (positions used, of how many, which) and the player
    counts."""
    curve = calibration_map.load(name)
    doc = read_json_file(calibration_map.map_path(name), MAX_MAP_BYTES, "calibration map")
    fit_of = doc.get("fit") if isinstance(doc.get("fit"), dict) else {}
    seed, fraction = fit_of.get("seed"), fit_of.get("heldout")
    parts, used = [], []
    for i, folder in enumerate(folders):
        pairs, entry = read_folder(folder, games)
        pairs["key"] = pairs["game"] + (i << 32)            # a game keyed by its folder too
        run = (entry["spec"], entry["seed"], entry["players"])
        fitted = next((d for d in doc.get("data", []) if isinstance(d, dict)
                       and (d.get("spec"), d.get("seed"), d.get("players")) == run), None)
        if fitted is not None:
            if not isinstance(seed, int) or not isinstance(fraction, (int, float)) \
                    or not isinstance(fitted.get("game_limit"), int):
                raise ValueError(f"{name}: its record does not say which games of {folder} it "
                                 f"was fitted on")
            keep = net_data.held_out(pairs, seed, fraction) | \
                (pairs["game"] >= fitted["game_limit"])
            which = "the games the map was not fitted on"
        else:
            keep = np.ones(len(pairs["q"]), dtype=bool)
            which = "not in the map's data: every game"
        keep &= np.isfinite(pairs["q"])
        parts.append({k: v[keep] for k, v in pairs.items()})
        used.append({"folder": str(folder), "positions": int(keep.sum()),
                     "of": len(keep), "which": which, "spec": entry["spec"]})
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    out = {}
    for n in sorted(set(data["players"].tolist())):
        at = data["players"] == n
        before = calibration.table(data["q"][at], data["win"][at])
        after = calibration.table(curve.shares(data["q"][at], n), data["win"][at])
        out[str(n)] = {"positions": int(at.sum()), "games": len(np.unique(data["key"][at])),
                       "error_before": calibration.error(before),
                       "error_after": calibration.error(after),
                       "before": before, "after": after}
    return {"map": curve.name, "spec": curve.spec, "folders": used, "players": out}
