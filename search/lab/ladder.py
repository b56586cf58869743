"""The Elo ladder: a schedule of arena games between many specs, appended to a ladder file, and
one Elo scale fitted over all of it (search.lab.ladder_fit).

Schedule (`schedule`): for 2 players, every spec meets the next `reach` specs of the list
(the list goes from weak to strong, so games are played where they tell something: a pairing of
random with level 4 only says what is already known); for P > 2 players, every window of P
consecutive specs is one table.  Each table plays `games` games (whole blocks of P: one deal,
seats rotated), unless a limit caps the tables of a spec (expensive levels play fewer games, or
none at some player count).  Blocks of all tables are interleaved (block 0 of every table, then
block 1, ...), so a run stopped early still covers every pairing.

Every game is stored raw in the ladder file with its seats' specs, scores and think times
(decisions, total and median seconds per decision, measured around `choose` in the game loop),
its run number, table seed, block and game.  A second run appends (new run number, so new deals
unless a seed is given) and the fit covers every game of the file.

Think time per decision of a spec: the median over its seats' games of the median time per
decision in that game (and the mean: total think time over all decisions).
"""
from __future__ import annotations

import os
import statistics
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ekonos.errors import EkonosError
from ekonos.locks import locked
from search.lab.arena import bot_threads, play_block, resolved, seat_scores, split_label
from search.lab.backends import Backend, Ordered
from search.bots import derive_seed
from search.lab.ladder_fit import Ladder, LadderRating, seat_label

DEFAULT_SPECS = ("random", "greedy", "level1", "level2", "level3", "baseline", "level4")
SAVE_EVERY = 5.0
"""Seconds between two saves of the ladder file during a run (it is also saved at the end)."""


@dataclass(frozen=True)
class Table:
    """Specs seated together (one per seat, rotated through the seats), and games to play."""

    specs: tuple[str, ...]
    players: int
    games: int

    @property
    def blocks(self) -> int:
        return self.games // self.players

    def seed(self, run_seed: int) -> int:
        """The table's seed: the run's seed, the player count and the specs (stable whatever
        else is scheduled)."""
        return derive_seed(run_seed, self.players, zlib.crc32("|".join(self.specs).encode()))


def parse_limit(text: str) -> tuple[int | None, str, int]:
    """``'level4=4'`` -> (None, 'level4', 4); ``'4p:level4=0'`` -> (4, 'level4', 0)."""
    shown = ascii(text) if len(text) <= 60 else ascii(text[:60])[:-1] + "...'"
    left, eq, n = text.rpartition("=")
    players = None
    if left[:1].isdigit() and "p:" in left:
        count, _, left = left.partition("p:")
        if not count.isascii() or not count.isdigit() or len(count) > 2:
            raise EkonosError(f"limit {shown}: write [Pp:]SPEC=N, e.g. 4p:level4=0 "
                              "(P a player count)")
        players = int(count)
    n = n.strip()
    if not eq or not n.isascii() or not n.isdigit() or not left.strip():
        raise EkonosError(f"limit {shown}: write [Pp:]SPEC=N, e.g. level4=4 or 4p:level4=0")
    if len(n) > 9:
        raise EkonosError(f"limit {shown}: N is at most 999999999 games")
    return players, left.strip(), int(n)


def schedule(specs: Iterable[str], players: Iterable[int], games: int, reach: int = 2,
             limits: Iterable[str] = ()) -> list[Table]:
    """The tables of a run (see the module's docstring); `limits` are `parse_limit` texts."""
    specs = list(dict.fromkeys(specs))
    for s in specs:
        split_label(s)
    if len(specs) < 2:
        raise EkonosError("a ladder needs at least two specs")
    if reach < 1:
        raise EkonosError(f"reach must be at least 1, not {reach}")
    caps: dict[tuple[int | None, str], int] = {}
    for text in limits:
        p, spec, n = parse_limit(text)
        if spec not in specs:
            raise EkonosError(f"limit {text!r}: {spec!r} is not one of the specs")
        caps[(p, spec)] = n
    tables = []
    for p in players:
        if p == 2:
            groups = [(a, b) for i, a in enumerate(specs) for b in specs[i + 1:i + 1 + reach]]
        elif len(specs) >= p:
            groups = [tuple(specs[i:i + p]) for i in range(len(specs) - p + 1)]
        else:
            groups = [tuple(specs[i % len(specs)] for i in range(p))]
        for g in groups:
            n = games
            for s in set(g):
                for key in ((None, s), (p, s)):
                    if key in caps:
                        n = min(n, caps[key])
            n = -(-n // p) * p
            if n:
                tables.append(Table(tuple(g), p, n))
    return tables


def interleave(tables: list[Table]) -> list[tuple[int, int]]:
    """(table, block) in playing order: block 0 of every table, then block 1, ..."""
    rounds = max((t.blocks for t in tables), default=0)
    return [(i, b) for b in range(rounds) for i, t in enumerate(tables) if b < t.blocks]


def next_run(ladder: Ladder) -> int:
    """The number of the next run of a ladder file (0 for a new file): after every run with
    games and every run reserved."""
    runs = [g.get("run") for g in ladder.games] + list(ladder.runs)
    return 1 + max((r for r in runs if isinstance(r, int) and not isinstance(r, bool)),
                   default=-1)


# -- the ladder file, shared: every change a read-merge-write under its lock -------------------
#
# Two runs may append to one file at once (two terminals, two machines on a shared folder):
# each change reads the file as it is now, under an advisory lock (ekonos.locks), changes only
# this run's part and writes it back, so neither run's games are lost.  A run's number is
# reserved in the file ("runs") under the lock before it plays, so two runs never share a
# number, nor (with the default seed, the run's number) their deals.

def reserve_run(path: str | os.PathLike) -> tuple[Ladder, int]:
    """Take the next run number of the ladder file `path` (created if missing) and write it
    down; returns the ladder as it is now and the number.  Writing before playing also checks
    that the file can be written at all (OSError, naming `path`)."""
    with locked(path, "ekonos ladder"):
        lad = Ladder.load(path, missing_ok=True)
        run = next_run(lad)
        lad.runs.append(run)
        lad.save(path)
    return lad, run


def merge_save(path: str | os.PathLike, run: int, games: list[dict]) -> Ladder:
    """Write this run's `games` into the file as it is now (other runs' games kept, this run's
    replaced); returns the whole ladder.  OSError (naming `path`) when it cannot be written."""
    with locked(path, "ekonos ladder"):
        lad = Ladder.load(path, missing_ok=True)
        lad.games = [g for g in lad.games if g.get("run") != run] + list(games)
        if run not in lad.runs:
            lad.runs.append(run)
        lad.save(path)
    return lad


def give_back_run(path: str | os.PathLike, run: int, existed: bool) -> None:
    """A run that saved no game: its reserved number taken out of the file, and the file
    removed when the run created it and it holds nothing else (best effort)."""
    try:
        with locked(path, "ekonos ladder"):
            lad = Ladder.load(path, missing_ok=True)
            if any(g.get("run") == run for g in lad.games):
                return
            lad.runs = [r for r in lad.runs if r != run]
            if not existed and not lad.games and not lad.runs:
                os.unlink(path)
            else:
                lad.save(path)
    except (OSError, EkonosError):
        pass


def run_ladder(ladder: Ladder, tables: list[Table], seed: int, run: int, backend: Backend,
               variant: str = "rulebook", save: Callable[[], None] | None = None,
               progress: Callable[[int], None] | None = None) -> dict:
    """Play the tables' blocks, each game appended to `ladder` as its block finishes,
    `save()` called every SAVE_EVERY seconds and at the end, even after Ctrl-C (the games then
    finished are kept, those still running are lost).  Returns {"played": games, "stopped":
    None or "interrupted"}."""
    order = interleave(tables)
    tasks = ((k, play_block, (list(tables[t].specs), tables[t].players, tables[t].seed(seed), b,
                              tables[t].players, variant))
             for k, (t, b) in enumerate(order))
    played, stopped, last = 0, None, -SAVE_EVERY     # the first block is saved at once

    def keep(k: int, games: list[dict]) -> None:
        nonlocal played
        t, b = order[k]
        table = tables[t]
        for g in games:
            extra = [{"decisions": r["decisions"], "think": r["think"],
                      "think_median": r["think_median"],
                      "resolved": resolved(table.specs[r["entrant"]])} for r in g["results"]]
            ladder.add(seat_scores(g, list(table.specs)), extra, run=run, seed=seed,
                       players=table.players, variant=variant, table=t, block=b,
                       number=g["game"])
            played += 1

    work = Ordered(backend, tasks, in_order=False)   # the fit does not depend on order
    try:
        for k, games in work:
            keep(k, games)
            if progress:
                progress(played)
            if save and time.monotonic() - last >= SAVE_EVERY:
                save()
                last = time.monotonic()
    except KeyboardInterrupt:
        stopped = "interrupted"
        for k, games in work.leftovers():
            keep(k, games)
    finally:
        work.stop()
        if save:
            save()
    return {"played": played, "stopped": stopped}


def think_times(ladder: Ladder) -> dict[str, dict]:
    """Per spec: the median think time per decision (median over its seat-games of the
    per-game median), the mean (total think over decisions) and the decisions timed."""
    medians: dict[str, list[float]] = {}
    totals: dict[str, list[float]] = {}
    for g in ladder.games:
        for seat in g["seats"]:
            if seat.get("decisions"):
                label = seat_label(seat)
                medians.setdefault(label, []).append(float(seat["think_median"]))
                t = totals.setdefault(label, [0.0, 0])
                t[0] += float(seat["think"])
                t[1] += int(seat["decisions"])
    return {s: {"median": statistics.median(m), "mean": totals[s][0] / totals[s][1],
                "decisions": totals[s][1]} for s, m in medians.items()}


def fits(ladder: Ladder, anchor: str = "random") -> dict[str, dict]:
    """The fit of every game ("all", when there are several player counts) and of each player
    count's games ("2", "4", ...): per spec Elo, interval and games, best first, and the think
    times in those games; a fit that cannot be made gives {"error": why}."""
    counts = sorted({len(g["seats"]) for g in ladder.games})
    subsets = {"all": ladder} if len(counts) > 1 else {}
    for p in counts:
        subsets[str(p)] = Ladder([g for g in ladder.games if len(g["seats"]) == p])
    out: dict[str, dict] = {}
    for name, sub in subsets.items():
        try:
            rated: dict[str, LadderRating] = sub.fit(anchor=anchor)
            out[name] = {"games": len(sub.games),
                         "ratings": {s: r.as_dict() for s, r in rated.items()},
                         "think": think_times(sub)}
        except EkonosError as exc:
            out[name] = {"games": len(sub.games), "error": str(exc)}
    return out


def report(ladder: Ladder, anchor: str = "random") -> dict:
    """Everything the ladder command prints: the fits and the think times."""
    return {"anchor": anchor, "games": len(ladder.games), "fits": fits(ladder, anchor),
            "think": think_times(ladder)}


def task_threads(tables: list[Table]) -> int:
    """The most threads a bot of the schedule uses (CPUs a Ray task asks for)."""
    return max((bot_threads(s) for t in tables for s in t.specs), default=1)
