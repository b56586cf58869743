"""Self-play data at scale: a folder of shards and its manifest (`ekonos learn selfplay`).

Shard k of a run (P players, seed S, G games per shard) holds games k*G .. k*G+G-1 of
`record_game(P, spec, S, g, explore)`, concatenated (`concat_games`), in ``shard-{k:05d}.npz``.
Each shard is one task of a backend (search/lab/backends.py: this process, local processes or
Ray tasks), so what a folder holds does not depend on where or in which order its shards were
played.  This process writes each shard atomically as it comes back, then lists it in
``manifest.json`` (search/learn/selfplay.py reads it) by a read-merge-write under the
manifest's lock, so two processes filling one folder never lose each other's shards.  A shard
being made is held by a lock beside it (``.shard-00003.npz.lock``): a second process filling
the folder skips it, so two runs of one command share the work instead of doing it twice.

Running the same command again skips every shard listed with a matching sha256 and plays the
others (missing, damaged, or holding fewer games than asked); a folder of another run (spec,
players, seed, games per shard, explore, network inputs) is refused.  Shard files made by
another program with the same naming and the same `record_game` arguments, in a folder with no
manifest, are listed only when asked (`adopt`): each is checked (its arrays, its games), and
the first game of the first one is played again and must come out the same.
"""
from __future__ import annotations

import io
import json
import os
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded, write_atomic
from ekonos.locks import FileLock, LockHeld, locked
from ekonos.rules import MAX_PLAYERS, MIN_PLAYERS
from search._net import NET_FEATURES_HASH, NET_INPUT_COUNT
from search.bots import make_bot, parse_params, recorded_spec, spec_text
from search.lab.backends import Backend, Ordered
from search.learn.selfplay import (FORMAT, KIND, MANIFEST, MAX_SHARD_BYTES, SETTINGS, SHARD,
                                   DatasetError, check_features, concat_games, game_arrays,
                                   read_manifest, record_game, sha256_of, shard_arrays,
                                   shard_name)

#: Who holds a folder's locks, as a second process's message says.
WHAT = "ekonos learn selfplay"


@dataclass(frozen=True)
class Run:
    """What a self-play folder holds: `players`, the bot `spec` (canonical text) in every
    seat, the `seed` of the games, games per shard and the decisions played by visit share
    (`explore`)."""

    players: int
    spec: str
    seed: int
    games_per_shard: int = 10
    explore: int = 4

    @classmethod
    def of(cls, players: int, spec: str, seed: int, games_per_shard: int = 10,
           explore: int = 4) -> "Run":
        """A run with its arguments checked (EkonosError) and its spec made canonical."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise EkonosError(f"players: {players}, not {MIN_PLAYERS} to {MAX_PLAYERS}")
        if not 0 <= seed < 2**64 or games_per_shard < 1 or explore < 0:
            raise EkonosError("the seed is 0 to 2**64-1, games per shard at least 1 and "
                              "explore at least 0")
        if make_bot(spec).sees_all:
            raise EkonosError(f"{spec}: self-play hands each seat its own view; this bot is "
                              "meant to see every hand")
        return cls(players, spec_text(spec), seed, games_per_shard, explore)

    def settings(self) -> dict:
        """The manifest's fields that identify the run (selfplay.SETTINGS)."""
        return {"format": FORMAT, "kind": KIND, "features": NET_FEATURES_HASH,
                "inputs": NET_INPUT_COUNT, "spec": self.spec, "players": self.players,
                "seed": self.seed, "games_per_shard": self.games_per_shard,
                "explore": self.explore}

    def command(self, games: int, folder: str | os.PathLike) -> str:
        """The command that makes (and completes) the folder."""
        return (f"ekonos learn selfplay -p {self.players} -n {games} --spec "
                f"{shlex.quote(self.spec)} --seed {self.seed} -o {shlex.quote(str(folder))} "
                f"--games-per-shard {self.games_per_shard} --explore {self.explore}")

    def shards(self, games: int) -> list[tuple[int, int, int]]:
        """(shard, first game, games) of the first `games` games."""
        g = self.games_per_shard
        return [(k, k * g, min(g, games - k * g)) for k in range(-(-games // g))]

    def reproducible(self) -> bool:
        """Whether the spec plays the same moves again (an iteration budget, not a time)."""
        return getattr(parse_params(self.spec)[1], "time", None) is None


def play_shard(players: int, spec: str, seed: int, first: int, games: int,
               explore: int) -> dict:
    """A backend's task: games first .. first+games-1, their arrays concatenated, and the wall
    and CPU seconds they took in the process that played them (its threads included)."""
    t0, c0 = time.perf_counter(), time.process_time()
    arrays = concat_games([record_game(players, spec, seed, g, explore)
                           for g in range(first, first + games)])
    return {"arrays": arrays, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - c0}


# -- the manifest ------------------------------------------------------------------------------

def check_same(m: dict, run: Run, folder: Path) -> None:
    """DatasetError unless the manifest `m` is of the same run as `run`."""
    check_features(m, folder)
    want = run.settings()
    try:
        same_spec = recorded_spec(m["spec"]) == run.spec
    except EkonosError:
        same_spec = False
    differ = [k for k in SETTINGS if k != "spec" and m[k] != want[k]]
    differ = (["spec"] if not same_spec else []) + differ
    if differ:
        said = "; ".join(f"{k} {m[k]} there, {want[k]} here" for k in differ)
        raise DatasetError(f"{folder}: holds the self-play of another run ({said}); give "
                           f"another folder, or go on with its own command: {m['command']}")


def manifest_text(m: dict) -> str:
    """The manifest as JSON, one line per field and per shard (it diffs readably)."""
    head = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in m.items() if k != "shards"]
    rows = ",\n".join("  " + json.dumps(e) for e in m["shards"])
    return "{\n" + "\n".join(head) + '\n "shards": [\n' + rows + ("\n" if rows else "") \
        + " ]\n}\n"


def per_core(shards: list[dict]) -> float | None:
    """Positions per CPU second over the shards timed (adopted ones are not)."""
    timed = [e for e in shards if e.get("cpu_seconds")]
    cpu = sum(e["cpu_seconds"] for e in timed)
    return round(sum(e["positions"] for e in timed) / cpu, 2) if cpu > 0 else None


def merge(folder: Path, run: Run, entries: list[dict], games: int) -> dict:
    """List `entries` in the folder's manifest as it is now (created if missing; a shard
    listed again replaces its entry), under its lock; returns the manifest written."""
    path = folder / MANIFEST
    with locked(path, WHAT):
        m = read_manifest(folder, missing_ok=True)
        if m is not None:
            check_same(m, run, folder)
        shards = {e["file"]: e for e in (m["shards"] if m else [])}
        shards.update({e["file"]: e for e in entries})
        listed = sorted(shards.values(), key=lambda e: e["first_game"])
        held = max((e["first_game"] + e["games"] for e in listed), default=0)
        out = {**run.settings(), "command": run.command(max(games, held), folder),
               "positions": sum(e["positions"] for e in listed),
               "positions_per_second_per_core": per_core(listed), "shards": listed}
        write_atomic(path, manifest_text(out))
    return out


def entry(name: str, first: int, games: int, positions: int, raw: bytes,
          seconds: float | None, cpu_seconds: float | None) -> dict:
    return {"file": name, "first_game": first, "games": games, "positions": positions,
            "sha256": sha256_of(raw), "bytes": len(raw),
            "seconds": None if seconds is None else round(seconds, 3),
            "cpu_seconds": None if cpu_seconds is None else round(cpu_seconds, 3)}


def write_shard(folder: Path, k: int, first: int, result: dict) -> dict:
    """Write a played shard atomically; its manifest entry."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **result["arrays"])
    raw = buf.getvalue()
    name = shard_name(k)
    write_atomic(folder / name, raw)
    games = len(np.unique(result["arrays"]["game"]))
    return entry(name, first, games, len(result["arrays"]["x"]), raw, result["seconds"],
                 result["cpu_seconds"])


def file_sha(path: Path) -> str | None:
    try:
        return sha256_of(read_bounded(path, MAX_SHARD_BYTES, "self-play shard"))
    except FileError:
        return None


# -- adopting shards made by another program ---------------------------------------------------

def adopt_files(folder: Path, run: Run, names: list[str]) -> tuple[list[dict], list[str]]:
    """Entries for the shard files `names` (adopted: no timings), and the names of those that
    are no shard of this run (damaged, other players, games out of place: they are played
    again).  The first game of the first adopted shard is played again and must come out the
    same (when the spec is reproducible), else DatasetError and nothing is adopted."""
    entries, bad, check = [], [], None
    for name in sorted(names, key=lambda n: int(SHARD.fullmatch(n).group(1))):
        first = int(SHARD.fullmatch(name).group(1)) * run.games_per_shard
        try:
            raw = read_bounded(folder / name, MAX_SHARD_BYTES, "self-play shard")
            a = shard_arrays(raw, folder / name)
        except (FileError, DatasetError):
            bad.append(name)
            continue
        games = np.unique(a["game"]).tolist()
        if not games or len(games) > run.games_per_shard or (a["players"] != run.players).any() \
                or games != list(range(first, first + len(games))):
            bad.append(name)
            continue
        entries.append({**entry(name, first, len(games), len(a["x"]), raw, None, None),
                        "adopted": True})
        check = check or (name, first, a)
    if check is not None and run.reproducible():
        name, first, a = check
        again = record_game(run.players, run.spec, run.seed, first, run.explore)
        found = game_arrays(a, first)
        if any(not np.array_equal(again[k], found[k], equal_nan=True) for k in again):
            raise DatasetError(
                f"{folder / name}: game {first} is not what this run plays (spec {run.spec}, "
                f"seed {run.seed}, explore {run.explore}, this build); nothing adopted")
    return entries, bad


# -- a run: plan, play --------------------------------------------------------------------------

@dataclass
class Plan:
    """What a run will do in `folder`: the shards to play (shard, first game, games)."""

    folder: Path
    run: Run
    games: int
    todo: list[tuple[int, int, int]]
    kept: int = 0                   # shards already there
    adopted: int = 0
    redo: list[str] = field(default_factory=list)   # files there to be played again
    seen: dict[int, str | None] = field(default_factory=dict)   # todo shard: listed sha256


def prepare(folder: str | os.PathLike, run: Run, games: int, adopt: bool = False) -> Plan:
    """Make the folder (and its manifest) if needed, check it is this run's, adopt shard files
    when asked, and find the shards still to play.  DatasetError (or OSError) on any problem,
    before anything is played."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise DatasetError(f"{folder}: not a folder; give a folder for the shards")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatasetError(f"{folder}: cannot make the folder ({e.strerror or e})") from None
    m = read_manifest(folder, missing_ok=True)
    if m is not None:
        check_same(m, run, folder)
    listed = {e["file"]: e for e in (m["shards"] if m else [])}
    unlisted = sorted(n for n in os.listdir(folder) if SHARD.fullmatch(n) and n not in listed)
    if m is None and unlisted and not adopt:
        files = f"{len(unlisted)} shard file" + "s" * (len(unlisted) > 1)
        raise DatasetError(
            f"{folder}: holds {files} but no {MANIFEST}; if another program made them with "
            "this command's record_game arguments, adopt them (--adopt: each is checked and the "
            "first game played again), else give another folder")
    adopted, bad = adopt_files(folder, run, unlisted) if adopt and unlisted else ([], [])
    plan = Plan(folder, run, games, [], adopted=len(adopted))
    fresh = {e["file"] for e in adopted}
    listed.update({e["file"]: e for e in adopted})
    for k, first, count in run.shards(games):
        name = shard_name(k)
        e = listed.get(name)
        if e and e["games"] >= count and (name in fresh or file_sha(folder / name) == e["sha256"]):
            plan.kept += name not in fresh
            continue
        if name in bad or (e and name not in fresh):
            plan.redo.append(name)
        plan.todo.append((k, first, count))
        plan.seen[k] = e["sha256"] if e else None
    if m is None or adopted or plan.todo:          # also a check that the folder is writable
        try:
            merge(folder, run, adopted, games)
        except OSError as e:
            raise DatasetError(f"{folder}: cannot write {MANIFEST} there "
                               f"({e.strerror or e})") from None
    return plan


@dataclass
class Outcome:
    """A run's work: the shards it made (manifest entries), those another process was making
    or had made meanwhile, whether Ctrl-C stopped it, its wall seconds, the manifest now."""

    made: list[dict]
    elsewhere: list[int]
    stopped: str | None
    seconds: float
    manifest: dict | None

    @property
    def positions(self) -> int:
        return sum(e["positions"] for e in self.made)

    @property
    def per_core(self) -> float | None:
        return per_core(self.made)

    @property
    def per_second(self) -> float | None:
        return self.positions / self.seconds if self.seconds > 0 and self.made else None


def _made_meanwhile(plan: Plan, k: int, count: int) -> bool:
    """Whether another process listed shard k since the plan (its lock is free: it is done)."""
    m = read_manifest(plan.folder, missing_ok=True)
    e = next((e for e in (m["shards"] if m else []) if e["file"] == shard_name(k)), None)
    return bool(e) and e["sha256"] != plan.seen.get(k) and e["games"] >= count \
        and file_sha(plan.folder / e["file"]) == e["sha256"]


def play(plan: Plan, backend: Backend,
         progress: Callable[[list[dict]], None] | None = None) -> Outcome:
    """Play the plan's shards on `backend`, each written and listed as it comes back (in any
    order).  Ctrl-C stops the run: shards finished are kept, those running are lost
    (``stopped="interrupted"``).  `progress(made)` is called after each shard."""
    run, folder = plan.run, plan.folder
    held: dict[int, tuple[FileLock, int]] = {}
    made: list[dict] = []
    elsewhere: list[int] = []
    manifest = None

    def tasks():
        for k, first, count in plan.todo:
            lock = FileLock(folder / shard_name(k), WHAT)
            held[k] = (lock, first)                # known before taken: Ctrl-C lets it go
            try:
                lock.acquire(wait=False)
            except LockHeld:                       # another process is making it
                del held[k]
                elsewhere.append(k)
                continue
            if _made_meanwhile(plan, k, count):
                lock.release()
                del held[k]
                elsewhere.append(k)
                continue
            yield k, play_shard, (run.players, run.spec, run.seed, first, count, run.explore)

    def keep(k: int, result: dict) -> None:
        nonlocal manifest
        lock, first = held[k]
        e = write_shard(folder, k, first, result)
        manifest = merge(folder, run, [e], plan.games)
        made.append(e)
        lock.release()                             # twice is harmless: release, then forget
        del held[k]

    start = time.perf_counter()
    stopped = None
    work = Ordered(backend, tasks(), in_order=False)
    try:
        for k, result in work:
            keep(k, result)
            if progress:
                progress(made)
    except KeyboardInterrupt:
        stopped = "interrupted"
        for k, result in work.leftovers():
            keep(k, result)
    finally:
        work.stop()
        for lock, _ in held.values():
            lock.release()
    return Outcome(made, elsewhere, stopped, time.perf_counter() - start, manifest)
