"""The learned evaluation at play time: which model the search reads, checked before it is read.

A playout of a search with `horizon=h` stops when the h-th round after the searched one begins,
and the position is scored by a model (search/_eval.pxd computes it at C level): per player
count n and rounds left r, each company's final value is its tiles now plus
``theta[n][r] . f(c)`` (the features of ``_eval.pxd`` `company_features`), each seat's expected
score is its coins plus its shares times those values, and the win shares are a softmax of the
expected scores with sharpness ``beta[n][r]``.  search/learn/ makes models; this module only
loads them.

A model file (JSON) says what it is: ``format`` (FORMAT), ``kind`` (KIND), ``features`` (the
hash of the feature code it was fitted for, which must equal the compiled
``EVAL_FEATURES_HASH``), the command that made it, its data (each sample file's sha256, size
and the command that regenerates it), its held-out metrics, and ``theta``/``beta``.  A model
is named by its content: ``eval-`` and the first 12 hex digits of the sha256 of its bytes
(`model_name`).  The shipped models are package data in search/models/; `SHIPPED` names the
default one.  A file of another format, of other features, or whose bytes do not hash to the
name it bears is refused with the reason, never read silently.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from pathlib import Path

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded
from ekonos.rules import NUM_COMPANIES
from search._ismcts import EVAL_FEATURES, EVAL_FEATURES_HASH, EVAL_MAX_BETA, EVAL_MAX_ROUNDS

NCOMP = NUM_COMPANIES
MAXP = 6                # seats of a model's tables (R2: at most 6 players)
#: The model file format this code reads and `ekonos learn fit` writes.
FORMAT = 1
#: What the model computes: a linear value per company, a softmax of the expected scores.
KIND = "linear-eval"
#: The folder of the shipped models (package data).
MODELS = Path(__file__).with_name("models")
#: The model a search reads when its spec names none (levels 3 and 4, the hint, the review):
#: `eval-5ec0e708e0a8` with its 6-player cell refit on generations 2 and 3's self-play, +23 Elo
#: [+10, +36] with 6 players, SPRT [0, 15] H1 (docs/strength.md).  `eval-5ec0e708e0a8` itself
#: stays beside it for `linear`, which names it.
SHIPPED = "eval-0678b3d9c83c"
#: Its file.
MODEL_PATH = MODELS / f"{SHIPPED}.json"
#: The model `linear` names, frozen with it.
LINEAR_MODEL = "eval-5ec0e708e0a8"
#: A model's name: `eval-` and 12 hex digits of the sha256 of its file.
NAME = re.compile(r"eval-[0-9a-f]{12}")
#: A model file is a few kilobytes; anything much larger is not one.
MAX_MODEL_BYTES = 1 << 20
RETRAIN = "retrain it with `ekonos learn fit` (samples: `ekonos learn sample`)"


class ModelError(EkonosError):
    """A model that cannot be used: missing, damaged, of another format or other features."""


def name_of_bytes(data: bytes) -> str:
    """The name of a model file with these bytes."""
    return "eval-" + hashlib.sha256(data).hexdigest()[:12]


def model_name(path: str | Path) -> str:
    """The name of the model file at `path` (from its content), to record which model was used."""
    try:
        return name_of_bytes(read_bounded(path, MAX_MODEL_BYTES, "model file"))
    except FileError as e:
        raise ModelError(str(e)) from None


def model_path(name: str = "") -> Path:
    """The file of a shipped model's name, of a path, or ("") of the shipped default."""
    if not name:
        return MODEL_PATH
    if NAME.fullmatch(name):
        path = MODELS / f"{name}.json"
        if not path.is_file():
            shipped = ", ".join(sorted(p.stem for p in MODELS.glob("eval-*.json")))
            raise ModelError(f"no shipped model is named {name} (shipped: {shipped}); give a "
                             f"model file's path instead")
        return path
    return Path(name)


def _table(value, shape: tuple[int, ...], what: str, path: Path) -> list:
    """`value` as nested lists of floats of `shape`, or ModelError saying what is wrong."""
    if len(shape) == 0:
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ModelError(f"{path}: every weight of {what} must be a finite number")
        return float(value)
    if not isinstance(value, list) or len(value) != shape[0]:
        raise ModelError(f"{path}: {what} must be {list(shape)} numbers")
    return [_table(v, shape[1:], what, path) for v in value]


def read(path: str | Path) -> tuple[list, list]:
    """theta and beta of the model file at `path`, checked: ModelError (or OSError) saying what
    is wrong and what to do."""
    path = Path(path)
    try:                           # a regular file of at most MAX_MODEL_BYTES, never a FIFO
        raw = read_bounded(path, MAX_MODEL_BYTES, "model file")
    except FileError as e:
        raise ModelError(str(e)) from None
    if NAME.fullmatch(path.stem) and name_of_bytes(raw) != path.stem:
        raise ModelError(f"{path}: its bytes hash to {name_of_bytes(raw)}, not to the name it "
                         f"bears: the file was changed after it was made; restore it or "
                         f"{RETRAIN}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError, ValueError):   # ValueError: JSON, long ints
        data = None
    if not isinstance(data, dict) or "theta" not in data or "beta" not in data:
        raise ModelError(f"{path} is not a model file (`ekonos learn fit` writes them)")
    if data.get("format") != FORMAT or data.get("kind") != KIND:
        raise ModelError(f"{path}: a model file of format {data.get('format')!r}, kind "
                         f"{data.get('kind')!r}; this version reads format {FORMAT}, kind "
                         f"{KIND!r}: {RETRAIN}")
    if data.get("features") != EVAL_FEATURES_HASH:
        raise ModelError(f"{path}: fitted for features {data.get('features')!r}, but this build "
                         f"computes features {EVAL_FEATURES_HASH} (search/_eval.pxd changed): "
                         f"{RETRAIN}")
    shape = (MAXP + 1, EVAL_MAX_ROUNDS + 1)
    theta = _table(data["theta"], (*shape, EVAL_FEATURES), "theta", path)
    beta = _table(data["beta"], shape, "beta", path)
    if not all(0 <= b <= EVAL_MAX_BETA for row in beta for b in row):
        raise ModelError(f"{path}: every weight must be finite and beta from 0 to "
                         f"{EVAL_MAX_BETA}")
    return theta, beta


@functools.cache
def model(name: str = "") -> tuple[list, list]:
    """theta and beta of a model, read and checked once: `name` is a shipped model's name
    (`eval-…`), a model file's path, or "" for the shipped default (`SHIPPED`)."""
    return read(model_path(name))
