"""Calibrated win shares: the search's win share mapped to how often such a share comes true.

The search's root estimate of a move (its mean win share over the iterations through it) is
overconfident: measured on self-play, the 4-player positions it rated 0.78 on average were won
0.44 of the time (docs/strength.md, "Calibrated win shares").  A calibration map, fitted on
self-play by `ekonos learn calibration-map` (search/learn/calibration_fit.py), maps a win share
to the share realized, per player count: a non-decreasing curve through knots (x, y), read by
linear interpolation (`np.interp`).  It reads nothing but the share and the player count.

A map file (JSON) says what it is: ``format`` (FORMAT), ``kind`` (KIND), ``spec`` (the search it
was fitted for: the self-play's bot; for another budget or search the map is an approximation),
the command that made it, its data (each self-play folder with its manifest's sha256, the shards
used, positions and games), how it was fitted, and per player count ("2" to "6") its ``knots``
([x, y] pairs, x rising strictly from 0 to 1, y non-decreasing within [0, 1]), the positions and
games it was fitted on and the held-out calibration tables before and after.  A player count the
map does not name is left as the search said it.  A map is named by its content: ``calib-`` and
the first 12 hex digits of the sha256 of its bytes.  The shipped map is package data in
search/models/; `SHIPPED` names it.  A file of another format or kind, whose bytes do not hash to
the name it bears, or whose knots are not such a curve is refused with the reason.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded
from search.evaluation import MAXP, MODELS

#: The map file format this code reads and `ekonos learn calibration-map` writes.
FORMAT = 1
#: What the file holds: per player count, knots of a non-decreasing map of win shares.
KIND = "win-calibration"
#: A map's name: `calib-` and 12 hex digits of the sha256 of its file.
NAME = re.compile(r"calib-[0-9a-f]{12}")
#: The map the hint, the review and the web board apply.
SHIPPED = "calib-5106ecf945a7"
#: A map file is a few tens of kilobytes; anything much larger is not one.
MAX_MAP_BYTES = 1 << 20
#: The most knots of one player count's curve.
MAX_KNOTS = 1000
REFIT = "fit it again with `ekonos learn calibration-map`"


class CalibrationError(EkonosError):
    """A map that cannot be used: missing, damaged, of another format, or not a curve."""


def name_of_bytes(data: bytes) -> str:
    """The name of a map file with these bytes."""
    return "calib-" + hashlib.sha256(data).hexdigest()[:12]


def map_path(name: str = "") -> Path:
    """The file of a shipped map's name (`calib-…`, in search/models/), of a path, or ("") of
    the shipped one."""
    if not name:
        name = SHIPPED
    if NAME.fullmatch(name):
        path = MODELS / f"{name}.json"
        if not path.is_file():
            shipped = ", ".join(sorted(p.stem for p in MODELS.glob("calib-*.json"))) or "none"
            raise CalibrationError(f"no shipped calibration map is named {name} (shipped: "
                                   f"{shipped}); give a map file's path instead")
        return path
    return Path(name)


@dataclass(frozen=True)
class WinCalibration:
    """A map read and checked: its name (from its content), the search it was fitted for, and
    per player count the knots (x rising strictly from 0 to 1, y non-decreasing within
    [0, 1])."""

    name: str
    spec: str
    knots: dict[int, tuple[np.ndarray, np.ndarray]]

    def share(self, win: float | None, players: int) -> float | None:
        """The calibrated win share of a seat the search gives `win` in a game of `players`
        (None stays None; a player count without knots keeps the search's share)."""
        if win is None:
            return None
        curve = self.knots.get(players)
        return float(win) if curve is None else float(np.interp(win, *curve))

    def shares(self, win: np.ndarray, players: np.ndarray) -> np.ndarray:
        """`share` of each element: win shares and their player counts, arrays alike."""
        win = np.asarray(win, dtype=np.float64)
        players = np.broadcast_to(np.asarray(players), win.shape)
        out = win.copy()
        for n, curve in self.knots.items():
            at = players == n
            out[at] = np.interp(win[at], *curve)
        return out


def _knots(value, where: str) -> tuple[np.ndarray, np.ndarray]:
    """The knots of one player count, checked: CalibrationError saying what is wrong."""
    if not isinstance(value, list) or not 2 <= len(value) <= MAX_KNOTS or not all(
            isinstance(k, list) and len(k) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in k) for k in value):
        raise CalibrationError(f"{where}: knots must be 2 to {MAX_KNOTS} pairs [x, y] of finite "
                               f"numbers")
    x, y = (np.array([k[i] for k in value], dtype=np.float64) for i in (0, 1))
    if x[0] != 0 or x[-1] != 1 or (np.diff(x) <= 0).any():
        raise CalibrationError(f"{where}: the knots' x must rise strictly from 0 to 1")
    if (y < 0).any() or (y > 1).any() or (np.diff(y) < 0).any():
        raise CalibrationError(f"{where}: the knots' y must stay within [0, 1] and never fall "
                               f"(a calibrated share keeps the order of the search's)")
    return x, y


def read(path: str | Path) -> WinCalibration:
    """The map file at `path`, checked: CalibrationError saying what is wrong and what to do."""
    path = Path(path)
    try:                           # a regular file of at most MAX_MAP_BYTES, never a FIFO
        raw = read_bounded(path, MAX_MAP_BYTES, "calibration map")
    except FileError as e:
        raise CalibrationError(str(e)) from None
    if NAME.fullmatch(path.stem) and name_of_bytes(raw) != path.stem:
        raise CalibrationError(f"{path}: its bytes hash to {name_of_bytes(raw)}, not to the "
                               f"name it bears: the file was changed after it was made; "
                               f"restore it or {REFIT}")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError, ValueError):   # ValueError: JSON, long ints
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), dict):
        raise CalibrationError(f"{path} is not a calibration map (`ekonos learn "
                               f"calibration-map` writes them)")
    if doc.get("format") != FORMAT or doc.get("kind") != KIND:
        raise CalibrationError(f"{path}: a file of format {doc.get('format')!r}, kind "
                               f"{doc.get('kind')!r}; this version reads format {FORMAT}, kind "
                               f"{KIND!r}: {REFIT}")
    if not isinstance(doc.get("spec"), str):
        raise CalibrationError(f"{path}: spec (the search the map was fitted for) must be a "
                               f"bot spec")
    knots = {}
    for key, entry in doc["players"].items():
        if key not in [str(n) for n in range(2, MAXP + 1)] or not isinstance(entry, dict):
            raise CalibrationError(f"{path}: players must map player counts 2 to {MAXP} to "
                                   f"their knots, got {key!r}")
        knots[int(key)] = _knots(entry.get("knots"), f"{path}: {key} players")
    return WinCalibration(name_of_bytes(raw), doc["spec"], knots)


@functools.cache
def load(name: str = "") -> WinCalibration:
    """A map, read and checked once: a shipped map's name (`calib-…`), a map file's path, or
    "" for the shipped one (`SHIPPED`)."""
    return read(map_path(name))
