"""The value network at play time: which network file the search reads, checked before it is read.

The network (search/_net.pxd) reads a position from the side of one seat, its perspective p,
and gives per relative seat j (seat (p + j) % n) a win logit (a softmax over the n seats present
gives the win shares) and the final score over NET_SCORE_SCALE.  search/learn/net_train.py
trains it (`ekonos learn train`); this module only loads it.

A network file (JSON) says what it is: ``format`` (FORMAT), ``kind`` (KIND), ``features`` (the
hash of the input code it was trained for, which must equal the compiled NET_FEATURES_HASH),
``inputs``, ``outputs``, ``score_scale`` and ``hidden`` (its widths), the command that made it,
its data (each folder with its manifest's sha256, positions and games), how it was trained (seed,
steps, batch, learning rate, weight decay, score weight, held-out fraction and the loss curve),
its held-out metrics per player count, ``base`` (the linear evaluation whose reading the network
corrects: a model's name, or null for none), and ``weights``: w1 b1 w2 b2 w3 b3, each ``{"shape",
"data"}`` with data the base64 of its little-endian float32 numbers, row-major (w1 [inputs, h1],
b1 [h1], w2 [h1, h2], b2 [h2], w3 [h2, outputs], b3 [outputs]).  A network is named by its
content: ``net-`` and the first 12 hex digits of the sha256 of its bytes (`name_of_bytes`).
Networks shipped with the package are in search/models/.  A file of another format, of other
inputs, whose bytes do not hash to the name it bears, of bad shapes or non-finite weights is
refused with the reason, never read silently.

A policy network (``kind`` POLICY_KIND, read by search/policy.py, trained by
search/learn/policy_train.py, `ekonos learn train-policy`) is the same perceptron in the same
format with one output per action of the engine's table (ekonos/moves.py): its logit of that
move for the deciding seat.  Its file says ``actions`` (ACTIONS_HASH, the hash of the table it
was trained for) instead of ``score_scale`` and ``base``; it is named ``net-…`` by its content
as a value network is, and each kind is refused where the other is wanted.
"""
from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import re
from pathlib import Path

import numpy as np

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded
from ekonos.moves import NUM_ACTIONS, Move
from ekonos.rules import MAX_SHARES, MAX_TILES
from search import evaluation
from search._ismcts import EVAL_MAX_ROUNDS
from search._net import (NET_COMPANY_FEATURES, NET_COMPANY_SCALES, NET_FEATURES_HASH,
                         NET_INPUT_COUNT, NET_LAYOUT, NET_MAX_HIDDEN, NET_OUTPUT_COUNT,
                         NET_SCORE_SCALE, Net)
from search.evaluation import MAXP, MODELS, NCOMP

#: The network file format this code reads and `ekonos learn train` writes.
FORMAT = 1
#: What the file holds: a multilayer perceptron, inputs -> h1 (ReLU) -> h2 (ReLU) -> outputs.
KIND = "value-net"
#: The same perceptron giving a logit per action of the engine's table (search/policy.py).
POLICY_KIND = "policy-net"
#: Each kind in words, and the command that makes it.
KIND_WORDS = {KIND: "value network", POLICY_KIND: "policy network"}
MAKER = {KIND: "ekonos learn train", POLICY_KIND: "ekonos learn train-policy"}
#: A network's name: `net-` and 12 hex digits of the sha256 of its file.
NAME = re.compile(r"net-[0-9a-f]{12}")
#: The largest network file read (a 644-128-32 network is about 450 KB).
MAX_NET_BYTES = 8 << 20
#: The weights in their order, and their shapes given the hidden widths.
WEIGHTS = ("w1", "b1", "w2", "b2", "w3", "b3")
#: The hash of the engine's action table (every action's move, in action order): a policy's
#: outputs mean these moves, and a file trained for another table is refused.
ACTIONS_HASH = hashlib.sha256("\n".join(
    repr((m.step.name, m.kind.name, m.card, m.space, m.company and m.company.name, m.seat))
    for m in map(Move.from_action, range(NUM_ACTIONS))).encode()).hexdigest()[:16]


class NetError(EkonosError):
    """A network file that cannot be used: missing, damaged, of another format or other inputs."""


def outputs_of(kind: str) -> int:
    """How many outputs a network of this kind has."""
    return NUM_ACTIONS if kind == POLICY_KIND else NET_OUTPUT_COUNT


def shapes(h1: int, h2: int, kind: str = KIND) -> dict[str, tuple[int, ...]]:
    """The shape of each weight of a network of hidden widths h1, h2 (and of this kind)."""
    out = outputs_of(kind)
    return {"w1": (NET_INPUT_COUNT, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,),
            "w3": (h2, out), "b3": (out,)}


def name_of_bytes(data: bytes) -> str:
    """The name of a network file with these bytes."""
    return "net-" + hashlib.sha256(data).hexdigest()[:12]


def net_path(name: str) -> Path:
    """The file of a shipped network's name (`net-…`, in search/models/), or a path."""
    if NAME.fullmatch(name):
        path = MODELS / f"{name}.json"
        if not path.is_file():
            shipped = ", ".join(sorted(p.stem for p in MODELS.glob("net-*.json"))) or "none"
            raise NetError(f"no shipped network is named {name} (shipped: {shipped}); give a "
                           f"network file's path instead")
        return path
    if not name:
        raise NetError("no network named: give a network's name (net-…) or a file's path")
    return Path(name)


def encode(a: np.ndarray) -> dict:
    """A weight as the file holds it: its shape and the base64 of its little-endian float32."""
    a = np.ascontiguousarray(a, dtype="<f4")
    return {"shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode("ascii")}


def _decode(entry, name: str, want: tuple[int, ...], path: Path, retrain: str) -> np.ndarray:
    if not isinstance(entry, dict) or not isinstance(entry.get("shape"), list) \
            or not isinstance(entry.get("data"), str):
        raise NetError(f"{path}: weight {name} must be {{\"shape\": [...], \"data\": base64}}")
    if entry["shape"] != list(want):
        raise NetError(f"{path}: weight {name} has shape {entry['shape']}, not {list(want)} "
                       f"(hidden widths and inputs disagree): {retrain}")
    try:
        raw = base64.b64decode(entry["data"].encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise NetError(f"{path}: weight {name}: data is not base64") from None
    if len(raw) != 4 * int(np.prod(want)):
        raise NetError(f"{path}: weight {name}: {len(raw)} bytes of data, not "
                       f"{4 * int(np.prod(want))} ({list(want)} float32)")
    a = np.frombuffer(raw, dtype="<f4").reshape(want).astype(np.float32)
    if not np.isfinite(a).all():
        raise NetError(f"{path}: weight {name} holds a number that is not finite: {retrain}")
    return a


def _width(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) \
        and 1 <= value <= NET_MAX_HIDDEN


def read(path: str | Path, kind: str = KIND) -> tuple[dict[str, np.ndarray], dict]:
    """The weights (float32 arrays by name) and the whole document of the network file at
    `path`, a network of `kind` (KIND, a value network, or POLICY_KIND), checked: NetError
    saying what is wrong and what to do."""
    path = Path(path)
    retrain = f"retrain it with `{MAKER[kind]}`"
    try:                           # a regular file of at most MAX_NET_BYTES, never a FIFO
        raw = read_bounded(path, MAX_NET_BYTES, "network file")
    except FileError as e:
        raise NetError(str(e)) from None
    if NAME.fullmatch(path.stem) and name_of_bytes(raw) != path.stem:
        raise NetError(f"{path}: its bytes hash to {name_of_bytes(raw)}, not to the name it "
                       f"bears: the file was changed after it was made; restore it or "
                       f"{retrain}")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError, ValueError):   # ValueError: JSON, long ints
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("weights"), dict):
        raise NetError(f"{path} is not a network file (`{MAKER[kind]}` writes them)")
    other = doc.get("kind")
    if doc.get("format") == FORMAT and isinstance(other, str) and other in KIND_WORDS \
            and other != kind:
        raise NetError(f"{path} is a {KIND_WORDS[other]}, not a {KIND_WORDS[kind]} "
                       f"(`{MAKER[kind]}` makes those)")
    if doc.get("format") != FORMAT or other != kind:
        raise NetError(f"{path}: a network file of format {doc.get('format')!r}, kind "
                       f"{other!r}; this version reads format {FORMAT}, kind "
                       f"{kind!r}: {retrain}")
    if doc.get("features") != NET_FEATURES_HASH:
        raise NetError(f"{path}: trained for other inputs (hash {doc.get('features')}; this "
                       f"build computes {NET_FEATURES_HASH}): {retrain}")
    sizes = {"inputs": NET_INPUT_COUNT, "outputs": outputs_of(kind)}
    sizes.update({"score_scale": NET_SCORE_SCALE} if kind == KIND else
                 {"actions": ACTIONS_HASH})
    for key, want in sizes.items():
        if doc.get(key) != want:
            raise NetError(f"{path}: {key} {doc.get(key)!r}, but this build's network has "
                           f"{want}: {retrain}")
    hidden = doc.get("hidden")
    if not isinstance(hidden, list) or len(hidden) != 2 or not all(map(_width, hidden)):
        raise NetError(f"{path}: hidden must be two widths from 1 to {NET_MAX_HIDDEN}, got "
                       f"{hidden!r}")
    want = shapes(*hidden, kind=kind)
    if sorted(doc["weights"]) != sorted(WEIGHTS):
        raise NetError(f"{path}: weights must be exactly {', '.join(WEIGHTS)}")
    weights = {k: _decode(doc["weights"][k], k, want[k], path, retrain) for k in WEIGHTS}
    base = doc.get("base") if kind == KIND else None
    if base is not None:
        if not isinstance(base, str) or not evaluation.NAME.fullmatch(base):
            raise NetError(f"{path}: base must be a shipped model's name (eval-…) or null, "
                           f"got {base!r}")
        try:
            evaluation.model(base)
        except (OSError, ValueError) as e:
            raise NetError(f"{path}: its base: {e}") from None
    return weights, doc


@functools.cache
def load_net(name: str) -> Net:
    """The network `name` (a shipped network's name `net-…`, or a network file's path) as the
    search's C `Net`, read and checked once (with its base, the linear evaluation it corrects)."""
    weights, doc = read(net_path(name))
    base = doc.get("base")
    return Net(*(weights[k] for k in WEIGHTS), base=evaluation.model(base) if base else None)


def linear_reading(x: np.ndarray, players: np.ndarray, model: str = "") -> tuple:
    """The linear evaluation (search/_eval.pxd `evaluate`; the shipped model unless `model`
    names another) of the positions whose network inputs are `x`, read back from the inputs
    (they hold every feature it reads), per relative seat: its win logits (beta x the expected
    score; a softmax over the seats present gives its win shares) and its expected final
    scores, zero past the `players` seats."""
    theta, beta = (np.asarray(a, dtype=np.float64) for a in evaluation.model(model))
    x = np.asarray(x).reshape(-1, NET_INPUT_COUNT)
    players = np.asarray(players, dtype=np.int64).reshape(-1)
    parts = [_linear_block(x[a:a + READING_BLOCK], players[a:a + READING_BLOCK], theta, beta)
             for a in range(0, max(len(x), 1), READING_BLOCK)]
    return tuple(np.concatenate([p[i] for p in parts]) for i in (0, 1))


#: Positions read at a time by `linear_reading` (its float64 copies stay small whatever the data).
READING_BLOCK = 1 << 16


def _linear_block(x: np.ndarray, players: np.ndarray, theta: np.ndarray,
                  beta: np.ndarray) -> tuple:
    L, k = NET_LAYOUT, NET_COMPANY_FEATURES
    x = np.asarray(x, dtype=np.float64)
    f = x[:, L["company"]:L["company"] + NCOMP * k].reshape(-1, NCOMP, k) * NET_COMPANY_SCALES
    f = np.concatenate([np.ones((len(x), NCOMP, 1)), f], axis=2)          # the constant first
    left = x[:, L["rounds_left"]:L["rounds_left"] + EVAL_MAX_ROUNDS].argmax(axis=1) + 1
    th, b = theta[players, left], beta[players, left]                    # (N, NFEAT), (N,)
    value = np.clip(f[:, :, 1] + np.einsum("nck,nk->nc", f, th), 0, MAX_TILES)
    shares = x[:, L["shares"]:L["shares"] + MAXP * NCOMP].reshape(-1, MAXP, NCOMP) * MAX_SHARES
    score = x[:, L["coins"]:L["coins"] + MAXP] * NET_SCORE_SCALE + \
        np.einsum("njc,nc->nj", shares, value)
    present = np.arange(MAXP)[None, :] < players[:, None]
    return np.where(present, b[:, None] * score, 0.0), np.where(present, score, 0.0)


def with_base(outputs: np.ndarray, x: np.ndarray, players: np.ndarray,
              base: str | None) -> np.ndarray:
    """A network's raw outputs with its base's reading added (as _net.pxd `net_evaluate` adds
    it): what `win_shares` and `scores` read.  No base: the outputs as they are."""
    outputs = np.asarray(outputs, dtype=np.float64).reshape(-1, NET_OUTPUT_COUNT)
    if not base:
        return outputs
    logits, score = linear_reading(x, players, base)
    return np.concatenate([outputs[:, :MAXP] + logits,
                           outputs[:, MAXP:] + score / NET_SCORE_SCALE], axis=1)


def forward_numpy(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The reference forward pass in numpy (float64): the raw outputs of inputs x [N, inputs]
    (or one vector), ReLU after the two hidden layers, as _net.pxd `net_forward` computes."""
    w = {k: np.asarray(v, dtype=np.float64) for k, v in weights.items()}
    a = np.maximum(np.asarray(x, dtype=np.float64) @ w["w1"] + w["b1"], 0)
    b = np.maximum(a @ w["w2"] + w["b2"], 0)
    return b @ w["w3"] + w["b3"]


def win_shares(outputs: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Per row, the win share of each relative seat: a softmax of the win logits (outputs 0 to
    5) over the row's `players` seats, zero past them (as _net.pxd `net_evaluate`)."""
    out = np.asarray(outputs, dtype=np.float64).reshape(-1, NET_OUTPUT_COUNT)[:, :MAXP]
    present = np.arange(MAXP)[None, :] < np.asarray(players).reshape(-1, 1)
    logits = np.where(present, out, -np.inf)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def scores(outputs: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Per row, the final score of each relative seat the network expects, zero past the
    `players` seats."""
    out = np.asarray(outputs, dtype=np.float64).reshape(-1, NET_OUTPUT_COUNT)[:, MAXP:]
    present = np.arange(MAXP)[None, :] < np.asarray(players).reshape(-1, 1)
    return np.where(present, out * NET_SCORE_SCALE, 0.0)
