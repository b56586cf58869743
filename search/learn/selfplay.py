"""Self-play games: what the learned evaluation and the value network learn from.

`play_and_sample` keeps a game's round starts for the linear evaluation (search/learn/fit.py);
`record_game` keeps every real decision of a game for the network: the deciding seat's inputs
(its view only, R21: the public state and its own hand), the search's root visits, the move
played, and how the game ended, each seat relative to the deciding one (relative seat j is seat
(p + j) % n, as the network reads them; search/_net.pxd).

A self-play folder (made by `ekonos learn selfplay`, search/learn/shards.py) holds shards,
``shard-{k:05d}.npz`` (games k*G .. k*G+G-1 of one run, `concat_games` of them), and
``manifest.json``: the run's settings, the hash of the network's input code they were recorded
for, and each shard's sha256 (docs/learning.md).  `load_dataset` reads folders back, checked."""
from __future__ import annotations

import hashlib
import io
import os
import random
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded, read_json_file
from ekonos.rules import Step
from search._ismcts import EVAL_FEATURES, company_features_of
from search._net import NET_FEATURES_HASH, NET_INPUT_COUNT, net_inputs_of
from search.bots import ISMCTSBot, derive_seed, make_bot
from search.evaluation import MAXP, NCOMP
from search.learn.fit import Samples

#: The arrays of a recorded game (or of a shard: games concatenated), and their types.  Per
#: position i: x its inputs, players, seat (absolute), game, ply (its number among the game's
#: recorded decisions), win/score/rank of each relative seat at the end (zero past the players),
#: action played, q (the search's mean win share of that move for the mover, NaN for a bot that
#: does not search), legal (moves to choose from), and the root visits of its moves:
#: pol_action[pol_start[i]:pol_start[i + 1]] with pol_visits alike.
ARRAYS = {"x": np.float32, "players": np.int8, "seat": np.int8, "game": np.int32,
          "ply": np.int16, "win": np.float32, "score": np.float32, "rank": np.float32,
          "action": np.int16, "q": np.float32, "legal": np.int16, "pol_start": np.int32,
          "pol_action": np.int16, "pol_visits": np.int32}


def game_seed(seed: int, players: int, game: int) -> int:
    """The seed of game `game` of a self-play run (its deal and every seat's search)."""
    return derive_seed(seed, players, game)


def record_game(players: int, spec: str, seed: int, game: int, explore: int = 0) -> dict:
    """Self-play game `game` of run `seed`: `spec` in every seat, each deciding from its own
    view.  Every decision with more than one legal move is recorded (ARRAYS).  `explore`: the
    first that many recorded decisions play a move drawn in proportion to its root visits
    instead of the search's choice (variety of positions; 0: the bot's own choice always)."""
    gseed = game_seed(seed, players, game)
    state = State.new(players, seed=derive_seed(gseed, 0))
    bots = [make_bot(spec, seed=derive_seed(gseed, 1, q)) for q in range(players)]
    draw = random.Random(derive_seed(gseed, 2))
    xs, seats, actions, qs, legal, pol_a, pol_v, starts = [], [], [], [], [], [], [], [0]
    while not state.is_over():
        seat = state.to_move
        view = state.view(seat)
        count = view.count_legal()
        if count == 1:
            state.push(view.nth_legal(0))
            continue
        bot = bots[seat]
        moves = bot.analyse(view).moves if isinstance(bot, ISMCTSBot) else []
        if moves:
            action, q = moves[0]["action"], moves[0]["win"]
            if len(xs) < explore:
                picked = draw.choices(moves, weights=[m["visits"] for m in moves])[0]
                action, q = picked["action"], picked["win"]
        else:
            action, q = bot.choose(view), float("nan")
        xs.append(net_inputs_of(view, seat))
        seats.append(seat)
        actions.append(action)
        qs.append(q)
        legal.append(count)
        pol_a += [m["action"] for m in moves]
        pol_v += [m["visits"] for m in moves]
        starts.append(len(pol_a))
        state.push(action)
    scores = state.scores()
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    rank = [sum(1 for s in scores if s > scores[q]) + (sum(1 for s in scores if s == scores[q])
                                                        + 1) / 2 for q in range(players)]
    k = len(xs)

    def relative(values):
        out = np.zeros((k, MAXP), dtype=np.float32)
        for i, p in enumerate(seats):
            for j in range(players):
                out[i, j] = values[(p + j) % players]
        return out

    arrays = {"x": np.array(xs, dtype=np.float32).reshape(k, NET_INPUT_COUNT),
              "players": np.full(k, players), "seat": np.array(seats),
              "game": np.full(k, game), "ply": np.arange(k),
              "win": relative(win), "score": relative(scores), "rank": relative(rank),
              "action": np.array(actions), "q": np.array(qs), "legal": np.array(legal),
              "pol_start": np.array(starts), "pol_action": np.array(pol_a),
              "pol_visits": np.array(pol_v)}
    return {name: np.asarray(a, dtype=ARRAYS[name]) for name, a in arrays.items()}


def concat_games(games: list[dict]) -> dict:
    """Recorded games as one block of positions (a shard)."""
    out = {}
    for name, dtype in ARRAYS.items():
        if name == "pol_start":
            starts, base = [np.zeros(1, dtype=dtype)], 0
            for g in games:
                starts.append(g["pol_start"][1:] + base)
                base += int(g["pol_start"][-1])
            out[name] = np.concatenate(starts).astype(dtype)
        else:
            out[name] = np.concatenate([g[name] for g in games]).astype(dtype)
    return out


def game_arrays(arrays: dict, game: int) -> dict:
    """The arrays of game `game` of a shard (its rows are consecutive), as `record_game`
    returned them; KeyError if the shard does not hold it."""
    rows = np.flatnonzero(arrays["game"] == game)
    if not len(rows):
        raise KeyError(game)
    i, j = int(rows[0]), int(rows[-1]) + 1
    starts = arrays["pol_start"]
    out = {name: arrays[name][i:j] for name in ARRAYS if not name.startswith("pol_")}
    out["pol_start"] = (starts[i:j + 1] - starts[i]).astype(ARRAYS["pol_start"])
    for name in ("pol_action", "pol_visits"):
        out[name] = arrays[name][starts[i]:starts[j]]
    return out


def play_and_sample(players: int, spec: str, seed: int) -> Samples:
    """One self-play game of `spec` in every seat (each seat's view only, R21); its round starts."""
    state = State.new(players, seed=derive_seed(seed, 0))
    bots = [make_bot(spec, seed=derive_seed(seed, 1, q)) for q in range(players)]
    return _round_starts(state, lambda s: bots[s.to_move].choose(s.view(s.to_move)))


def replay_round_starts(folders: list) -> Samples:
    """The round starts of every game of self-play folders, as `play_and_sample` keeps them for
    the linear evaluation's fit (search/learn/fit.py): each game is replayed from its deal with
    the moves recorded (a decision with one legal move is not recorded: it is the only one), so
    the company values at its end are known.  DatasetError for folders load_dataset refuses, or
    a game that does not replay (its moves do not fit its deal)."""
    parts = []
    for folder in folders:
        m = read_manifest(folder)
        arrays = load_dataset([folder])
        players, seed = int(m["players"]), int(m["seed"])
        for game in sorted(set(arrays["game"].tolist())):
            moves = iter(game_arrays(arrays, game)["action"].tolist())
            state = State.new(players, seed=derive_seed(game_seed(seed, players, game), 0))

            def recorded(s: State, moves=moves, game=game) -> int:
                if s.count_legal() == 1:
                    return s.nth_legal(0)
                a = next(moves, None)
                if a is None or not s.is_legal(a):
                    raise _not_replaying(folder, game)
                return a
            parts.append(_round_starts(state, recorded))
    return Samples.concat(parts)


def replayed_decisions(folder: str | os.PathLike,
                       games: int | None = None) -> Iterator[tuple[int, int, State, dict]]:
    """The recorded decisions of a self-play folder's games (the first `games` of them, all
    when None), each game replayed from its deal: (game, k, state, arrays) for its decision k,
    `state` the whole position before it (read it, do not change it: the replay plays the
    recorded move on it next) and `arrays` its game's (`game_arrays`).  A decision with one
    legal move is not recorded: it is played on the way.  DatasetError as `load_dataset`, or
    for a game whose moves do not fit its deal."""
    m = read_manifest(folder)
    arrays = load_dataset([folder])
    players, seed = int(m["players"]), int(m["seed"])
    for game in sorted(set(arrays["game"].tolist()))[:games]:
        g = game_arrays(arrays, game)
        state = State.new(players, seed=derive_seed(game_seed(seed, players, game), 0))
        for k, a in enumerate(g["action"].tolist()):
            while not state.is_over() and state.count_legal() == 1:
                state.push(state.nth_legal(0))
            if state.is_over() or not state.is_legal(a):
                raise _not_replaying(folder, game)
            yield game, k, state, g
            state.push(a)


def _not_replaying(folder: str | os.PathLike, game: int) -> Exception:
    return DatasetError(f"{folder}: game {game} does not replay from its deal (its recorded "
                        "moves do not fit it)")


def _round_starts(state: State, decide) -> Samples:
    """Play `state` to its end with `decide(state) -> action`; the start of every round after
    the first (features, coins, shares, rounds left), and the company values and win shares at
    the end."""
    players = state.nplayers
    rows: list[tuple] = []
    seen_round = 1
    while not state.is_over():
        if state.round != seen_round and state.step is Step.CARD:
            seen_round = state.round
            coins = [state.coins(q) for q in range(players)] + [0] * (MAXP - players)
            shares = [[state.shares(q, c) for c in range(NCOMP)] for q in range(players)]
            shares += [[0] * NCOMP] * (MAXP - players)
            rows.append((state.rounds - state.round + 1, company_features_of(state), coins,
                         shares))
        state.push(decide(state))
    final = [state.value(c) for c in range(NCOMP)]
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    win += [0.0] * (MAXP - players)
    k = len(rows)
    return Samples(np.full(k, players), np.array([r[0] for r in rows]),
                   np.array([r[1] for r in rows], dtype=float).reshape(k, NCOMP, EVAL_FEATURES),
                   np.array([r[2] for r in rows], dtype=float).reshape(k, MAXP),
                   np.array([r[3] for r in rows], dtype=float).reshape(k, MAXP, NCOMP),
                   np.array([final] * k, dtype=float).reshape(k, NCOMP),
                   np.array([win] * k, dtype=float).reshape(k, MAXP))


# -- self-play folders: the manifest and the shards, read back ---------------------------------

FORMAT = 1
KIND = "selfplay"
MANIFEST = "manifest.json"
SHARD = re.compile(r"shard-([0-9]{5,})\.npz")
#: The largest shard and manifest read: a shard of 10 games is a few MB compressed.
MAX_SHARD_BYTES = 1 << 30
MAX_MANIFEST_BYTES = 64 << 20
#: What identifies a folder's run: a second run into it must agree on all of them.
SETTINGS = ("format", "kind", "features", "inputs", "spec", "players", "seed",
            "games_per_shard", "explore")
_ENTRY = {"file": str, "first_game": int, "games": int, "positions": int, "sha256": str,
          "bytes": int}


class DatasetError(EkonosError):
    """A self-play folder or shard that cannot be used: the message names the file and why."""


def shard_name(k: int) -> str:
    return f"shard-{k:05d}.npz"


def sha256_of(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def read_manifest(folder: str | os.PathLike, missing_ok: bool = False) -> dict | None:
    """The manifest of a self-play folder, its fields checked (None if there is none and
    `missing_ok`); DatasetError naming what is wrong."""
    path = Path(folder) / MANIFEST
    if not path.exists() and not path.is_symlink():
        if missing_ok:
            return None
        if Path(folder).is_dir():
            raise DatasetError(f"{folder}: a directory without {MANIFEST}, not a self-play "
                               "folder (`ekonos learn selfplay` makes them)")
    try:
        m = read_json_file(path, MAX_MANIFEST_BYTES, "self-play manifest")
    except FileError as e:
        raise DatasetError(str(e)) from None
    where = f"{path}: not a manifest of `ekonos learn selfplay`"
    if not isinstance(m, dict) or m.get("kind") != KIND:
        raise DatasetError(f"{where} (its kind is not {KIND!r})")
    if m.get("format") != FORMAT:
        raise DatasetError(f"{path}: format {m.get('format')!r}; this version reads format "
                           f"{FORMAT}")
    types = {"kind": str, "features": str, "spec": str, "command": str, "shards": list}
    for key in SETTINGS + ("command", "shards"):
        v = m.get(key)
        if not (isinstance(v, types[key]) if key in types else _count(v)):
            raise DatasetError(f"{where} ({key}: {v!r})")
    for i, e in enumerate(m["shards"]):
        if not isinstance(e, dict) or not all(
                isinstance(e.get(k), t) and (t is str or _count(e[k])) for k, t in _ENTRY.items()):
            raise DatasetError(f"{where} (shards[{i}]: {e!r:.200})")
        match = SHARD.fullmatch(e["file"])
        if not match or int(match.group(1)) * m["games_per_shard"] != e["first_game"] \
                or not 1 <= e["games"] <= m["games_per_shard"]:
            raise DatasetError(f"{where} (shards[{i}]: {e['file']!r:.80} does not hold games "
                               f"{e['first_game']} to {e['first_game'] + e['games'] - 1})")
    return m


def check_features(m: dict, folder: str | os.PathLike) -> None:
    """DatasetError unless the folder was recorded for this build's network inputs."""
    if m["features"] != NET_FEATURES_HASH or m["inputs"] != NET_INPUT_COUNT:
        raise DatasetError(
            f"{folder}: recorded for other network inputs (features {m['features']}, "
            f"{m['inputs']} inputs; this build's are {NET_FEATURES_HASH}, {NET_INPUT_COUNT} "
            f"inputs: search/_net.pxd changed since); record the games again with this build")


def shard_arrays(raw: bytes, where: str | os.PathLike) -> dict:
    """The arrays of a shard file's bytes, every one of ARRAYS with its type and a consistent
    shape (positions, moves); DatasetError naming `where` otherwise."""
    bad = f"{where}: not a self-play shard"
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            a = {name: z[name] for name in ARRAYS}
    except KeyError as e:
        raise DatasetError(f"{bad} (no array {e})") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise DatasetError(f"{bad} ({str(e)[:120] or type(e).__name__})") from None
    n = len(a["x"])
    shapes = {"x": (n, NET_INPUT_COUNT), "win": (n, MAXP), "score": (n, MAXP),
              "rank": (n, MAXP), "pol_start": (n + 1,)}
    moves = (len(a["pol_action"]),)
    for name, dtype in ARRAYS.items():
        shape = shapes.get(name, moves if name in ("pol_action", "pol_visits") else (n,))
        if a[name].dtype != dtype or a[name].shape != shape:
            raise DatasetError(f"{bad} ({name} is {a[name].dtype} {a[name].shape}, not "
                               f"{np.dtype(dtype)} {shape})")
    starts = a["pol_start"]
    if starts[0] != 0 or starts[-1] != moves[0] or (np.diff(starts) < 0).any():
        raise DatasetError(f"{bad} (pol_start does not index pol_action)")
    return a


def load_dataset(folders: str | os.PathLike | list) -> dict:
    """The positions of self-play folders, concatenated in folder order then shard order (one
    dict of ARRAYS; pol_start indexes the concatenated pol_action).  Every shard the manifest
    lists is read and its sha256 checked against the manifest, and each folder must have been
    recorded for this build's network inputs (NET_FEATURES_HASH); DatasetError otherwise.
    Game numbers are those of each folder's run (two folders may share them)."""
    if isinstance(folders, (str, os.PathLike)):
        folders = [folders]
    found = []
    for folder in folders:
        m = read_manifest(folder)
        check_features(m, folder)
        found += [(Path(folder) / e["file"], e) for e in m["shards"]]
    if not found:
        raise DatasetError(f"{', '.join(map(str, folders)) or 'no folder'}: no shards")
    x = np.empty((sum(e["positions"] for _, e in found), NET_INPUT_COUNT), dtype=np.float32)
    parts, at = [], 0
    for path, e in found:
        try:
            raw = read_bounded(path, MAX_SHARD_BYTES, "self-play shard")
        except FileError as err:
            raise DatasetError(f"{err}; run the manifest's command again to remake it") from None
        if sha256_of(raw) != e["sha256"]:
            raise DatasetError(f"{path}: damaged or changed since it was recorded (its sha256 "
                               "is not the manifest's); run the manifest's command again to "
                               "remake it")
        a = shard_arrays(raw, path)
        if len(a["x"]) != e["positions"]:
            raise DatasetError(f"{path}: {len(a['x'])} positions, the manifest says "
                               f"{e['positions']}")
        x[at:at + len(a["x"])] = a["x"]           # the big array is filled in place, once
        at += len(a["x"])
        a["x"] = np.empty((0, NET_INPUT_COUNT), dtype=np.float32)    # (a view would keep it)
        parts.append(a)
    out = concat_games(parts)
    out["x"] = x
    return out
