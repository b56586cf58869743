"""One Elo scale for many specs: a maximum-likelihood fit of a ladder's games, and its file.

The fit is Bradley-Terry on the logistic Elo scale (as BayesElo and Ordo use): spec i scores
against spec j with probability ``1 / (1 + 10^((elo_j - elo_i) / 400))``.  Every game, of any
player count (mixed counts are fine), contributes all its pairwise results between seats of
different specs, as Board Game Arena scores a multiplayer game: the higher score wins 1, equal
scores tie 1/2 each (a tie counts as half a win and half a loss).  Two seats of the same spec
tell nothing and are skipped.

The ladder file stores the raw games, not the ratings, so a second run appends games and refits
(`Ladder.load`, `Ladder.add`, `Ladder.save`): nothing is ever started over, and fitting the file
equals fitting all its games at once.
"""
from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ekonos.errors import EkonosError
from ekonos.files import read_json_file, write_atomic
from search.lab.lab_schema import MAX_LADDER_BYTES, ladder_record
from search.lab.ratings import Z95, Game

FORMAT = "ekonos-ladder"
VERSION = 1
ELO_PER_NAT = 400.0 / math.log(10.0)   # Elo per unit of the natural-log strength scale


@dataclass(frozen=True)
class LadderRating:
    """A spec's place on the ladder: Elo relative to the anchor, its 95% interval, and the
    number of games it played."""

    elo: float
    low: float
    high: float
    games: int

    def as_dict(self) -> dict:
        return {"elo": self.elo, "ci95": [self.low, self.high], "games": self.games}


def _tables(games: Iterable[Game]):
    """Specs (sorted), pairwise points W[i, j] of i against j, pair counts N[i, j], games per
    spec, and per game the list of (i, j, points of i) pairs for the robust covariance."""
    games = [list(g) for g in games]
    for k, g in enumerate(games):
        if len(g) < 2:
            raise EkonosError(f"game {k}: a game needs at least two seats")
        for seat in g:
            if len(seat) != 2 or not isinstance(seat[0], str) or isinstance(seat[1], bool) \
                    or not isinstance(seat[1], (int, float)) or not math.isfinite(seat[1]):
                raise EkonosError(f"game {k}: a seat is (spec, finite score), not {seat!r}")
    specs = sorted({s for g in games for s, _ in g})
    index = {s: i for i, s in enumerate(specs)}
    m = len(specs)
    w = np.zeros((m, m))
    n = np.zeros((m, m))
    played = np.zeros(m, dtype=int)
    pairs_by_game = []
    for g in games:
        pairs = []
        for a in range(len(g)):
            for b in range(a + 1, len(g)):
                i, j = index[g[a][0]], index[g[b][0]]
                if i == j:
                    continue
                x, y = g[a][1], g[b][1]
                pts = 1.0 if x > y else 0.5 if x == y else 0.0
                w[i, j] += pts
                w[j, i] += 1.0 - pts
                n[i, j] += 1.0
                n[j, i] += 1.0
                pairs.append((i, j, pts))
        pairs_by_game.append(pairs)
        for i in {index[s] for s, _ in g}:
            played[i] += 1
    return specs, w, n, played, pairs_by_game


def _connected(n: np.ndarray, start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for j in np.nonzero(n[i])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return seen


INTERVALS = ("auto", "fisher", "robust")


def fit(games: Iterable[Game], anchor: str = "random", prior_draws: float = 1.0,
        intervals: str = "auto") -> dict[str, LadderRating]:
    """Maximum-likelihood Elo of every spec in `games` (each game: per seat ``(spec, score)``).

    Anchor: `anchor` is 0 exactly and every other Elo is relative to it; it must have played,
    and every spec must be linked to it by a chain of games (else EkonosError names the rest).

    Prior (robustness): a spec that never lost, or never won, has no finite maximum, so every
    pair of specs that met gets `prior_draws` virtual drawn games between them (default 1: half a
    win and half a loss each way, as BayesElo's prior of virtual draws).  This keeps every
    estimate finite and shrinks a gap only by what one extra draw between the two would; it
    pulls nobody towards the anchor.  `prior_draws` must be positive.

    Intervals: ``elo -+ 1.96 sd``, the sd from the covariance of the differences from the
    anchor, the inverse of the observed Fisher information (minus the Hessian of the
    log-likelihood, prior included, over the non-anchor specs) at the maximum:
    ``intervals="fisher"``.  That treats the pairwise results as independent; the pairs of one
    multiplayer game are not (one finishing order decides them all), and in simulated 4-player
    games its 95% intervals covered the true Elo only ~86% of the time.  ``"robust"`` uses the
    sandwich ``H^-1 B H^-1``, B summing the outer products of each *game's* score vector
    (cluster-robust by game): ~93% there.  ``"auto"`` (default) is "fisher" when every game
    gives at most one pair of different specs (2-player games), "robust" otherwise.

    Deterministic: specs are processed in sorted order and the maximum is found by Newton's
    method from 0 with step halving (the log-likelihood is concave), to 1e-12.  Returns the
    ratings sorted by Elo, highest first (ties by name).
    """
    if not prior_draws > 0:
        raise EkonosError(f"prior_draws must be positive, not {prior_draws}")
    if intervals not in INTERVALS:
        raise EkonosError(f"intervals must be one of {', '.join(INTERVALS)}, not {intervals!r}")
    specs, w, n, played, pairs_by_game = _tables(games)
    if intervals == "auto":
        intervals = "robust" if any(len(p) > 1 for p in pairs_by_game) else "fisher"
    if anchor not in specs:
        raise EkonosError(f"the anchor {anchor!r} played no game; name another "
                          f"(played: {', '.join(specs) or 'none'})")
    a = specs.index(anchor)
    linked = _connected(n, a)
    if len(linked) < len(specs):
        lost = [specs[i] for i in range(len(specs)) if i not in linked]
        raise EkonosError(f"no chain of games links {', '.join(lost)} to the anchor {anchor!r}")
    met = n > 0
    w = w + 0.5 * prior_draws * met
    n = n + prior_draws * met
    free = [i for i in range(len(specs)) if i != a]

    def loglik(theta: np.ndarray) -> float:
        d = theta[:, None] - theta[None, :]
        # sum over ordered pairs of W_ij log sigma(d_ij) counts every pair once from each side
        return float((w * -np.logaddexp(0.0, -d)).sum())

    def grad_hess(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        g = (w - n * p).sum(1)
        c = n * p * (1.0 - p)
        h = c - np.diag(c.sum(1))
        return g[free], h[np.ix_(free, free)]

    theta = np.zeros(len(specs))
    cur = loglik(theta)
    for _ in range(500):
        g, h = grad_hess(theta)
        if not free:
            break
        step = np.linalg.solve(h, -g)
        t = 1.0
        while True:
            trial = theta.copy()
            trial[free] += t * step
            new = loglik(trial)
            if new >= cur - 1e-12 * abs(cur) or t < 1e-9:
                break
            t *= 0.5
        theta, cur = trial, new
        if np.abs(t * step).max() < 1e-12:
            break
    g, h = grad_hess(theta)
    cov = np.zeros((len(specs), len(specs)))
    if free:
        inv = np.linalg.inv(-h)
        if intervals == "robust":
            pos = {i: k for k, i in enumerate(free)}
            b = np.zeros((len(free), len(free)))
            for pairs in pairs_by_game:
                s = np.zeros(len(free))
                for i, j, pts in pairs:
                    r = pts - 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                    if i in pos:
                        s[pos[i]] += r
                    if j in pos:
                        s[pos[j]] -= r
                b += np.outer(s, s)
            inv = inv @ b @ inv
        cov[np.ix_(free, free)] = inv
    out = {}
    for i, s in enumerate(specs):
        elo = 0.0 if i == a else float(theta[i]) * ELO_PER_NAT
        half = Z95 * math.sqrt(max(cov[i, i], 0.0)) * ELO_PER_NAT
        out[s] = LadderRating(elo=elo, low=elo - half, high=elo + half, games=int(played[i]))
    order = sorted(out, key=lambda s: (-out[s].elo, s))
    return {s: out[s] for s in order}


# -- the ladder file -------------------------------------------------------------------------------

def game_record(game: Game, seat_extra: Sequence[dict] | None = None, **extra) -> dict:
    """A game as stored in the ladder file: ``{"seats": [{"spec", "score", ...}, ...], ...}``.
    `seat_extra` (one dict per seat, e.g. think time and decisions) and `extra` (game fields:
    seed, players...) are kept as given and ignored by the fit."""
    if seat_extra is not None and len(seat_extra) != len(game):
        raise EkonosError(f"seat_extra has {len(seat_extra)} entries for {len(game)} seats")
    seats = [{**(seat_extra[q] if seat_extra is not None else {}), "spec": s, "score": x}
             for q, (s, x) in enumerate(game)]
    return {**extra, "seats": seats}


@dataclass
class Ladder:
    """The raw games of a ladder, appendable, with their fit.

    File (JSON): ``{"format": "ekonos-ladder", "version": 1, "games": [game records]}``; a
    record is ``{"seats": [{"spec": str, "score": number, ...}, ...], ...}`` (other fields, at
    game or seat level, are preserved).
    """

    games: list[dict] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    """Run numbers taken (`search.lab.ladder.reserve_run`), including runs with no game yet."""

    def add(self, game: Game, seat_extra: Sequence[dict] | None = None, **extra) -> None:
        """Append one game (per seat ``(spec, score)``); `seat_extra` and `extra` are stored
        with it (see `game_record`)."""
        record = game_record(game, seat_extra, **extra)
        _check_record(record, len(self.games))
        self.games.append(record)

    def extend(self, games: Iterable[Game]) -> None:
        for g in games:
            self.add(g)

    def seat_scores(self) -> list[list[tuple[str, float]]]:
        """The games in the form `fit` takes, each seat under its `seat_label`."""
        return [[(seat_label(s), s["score"]) for s in g["seats"]] for g in self.games]

    def fit(self, anchor: str = "random", prior_draws: float = 1.0,
            intervals: str = "auto") -> dict[str, LadderRating]:
        return fit(self.seat_scores(), anchor=anchor, prior_draws=prior_draws,
                   intervals=intervals)

    def to_json(self) -> dict:
        runs = {"runs": self.runs} if self.runs else {}
        return {"format": FORMAT, "version": VERSION, **runs, "games": self.games}

    @classmethod
    def from_json(cls, data) -> "Ladder":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise EkonosError(f"not a ladder file (its \"format\" must be {FORMAT!r})")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version > VERSION \
                or version < 1:
            raise EkonosError(f"ladder file version {version!r} is not supported "
                              f"(this program reads versions 1 to {VERSION})")
        games = data.get("games")
        if not isinstance(games, list):
            raise EkonosError("ladder file: \"games\" must be a list")
        for k, g in enumerate(games):
            _check_record(g, k)
        runs = data.get("runs")
        runs = [r for r in runs if isinstance(r, int) and not isinstance(r, bool)] \
            if isinstance(runs, list) else []
        return cls(games=list(games), runs=runs)

    @classmethod
    def load(cls, path: str | os.PathLike, missing_ok: bool = False) -> "Ladder":
        """Read a ladder file; with `missing_ok`, a missing file is an empty ladder."""
        p = Path(path)
        if missing_ok and not p.exists() and not p.is_symlink():
            return cls()
        data = read_json_file(p, MAX_LADDER_BYTES, "ladder file")    # FileError names it
        try:
            return cls.from_json(data)
        except EkonosError as exc:
            raise EkonosError(f"{path}: {exc}") from exc

    def save(self, path: str | os.PathLike) -> None:
        """Write the file atomically (a temporary file renamed over it, removed on failure):
        an interrupted or failed save leaves the previous file whole.  OSError names `path`."""
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")


#: Between a spec and the meaning it had when its games were played, in a rated name
#: (``level3 = ismcts:iterations=10000,c=0.7``): `seat_label` writes it, the picture reads it.
WAS = " = "


def seat_label(seat: dict) -> str:
    """The name a seat is rated under: its spec as written (``level3``), unless the seat also
    records what that spec meant when it played (``"resolved"``, the bot's canonical spec) and
    the spec means something else now (a level redefined): then ``level3 = <what it was>``, so
    games of two different bots are never pooled under one name.  What it was is written as it
    reads today (`recorded_spec`), so that two records of one bot, written by versions that
    spelled it differently (a model named or left to the default of the time), share a name."""
    spec, resolved = seat["spec"], seat.get("resolved")
    if not isinstance(resolved, str) or _means(spec) == _means(resolved, recorded=True):
        return spec
    return f"{spec}{WAS}{_recorded_text(resolved)}"


@functools.lru_cache(maxsize=256)
def _recorded_text(resolved: str) -> str:
    """A recorded canonical spec as it is written today, or as it stands if it no longer
    reads."""
    from search.registry import SpecError, recorded_spec
    try:
        return recorded_spec(resolved)
    except (SpecError, EkonosError, ValueError):
        return resolved


@functools.lru_cache(maxsize=256)
def _means(spec: str, recorded: bool = False):
    """What a spec plays as (its bot class and parameters), or the text for an unknown spec;
    `recorded`: a canonical text a file recorded, read as it meant then (`recorded_spec`)."""
    from search.lab.arena import split_label      # lazy: the fit itself needs no bots
    from search.registry import SpecError, parse_params, recorded_spec
    try:
        return parse_params(recorded_spec(spec) if recorded else split_label(spec)[0])
    except (SpecError, EkonosError, ValueError):
        return spec


def _check_record(g, k: int) -> None:
    """A game record, every field of the right type and range (search/lab/lab_schema.py)."""
    ladder_record(g, k)


def fit_file(path: str | os.PathLike, anchor: str = "random", prior_draws: float = 1.0,
             intervals: str = "auto") -> dict[str, LadderRating]:
    """Fit the games of a ladder file."""
    return Ladder.load(path).fit(anchor=anchor, prior_draws=prior_draws, intervals=intervals)


def append_games(path: str | os.PathLike, games: Sequence[Game]) -> Ladder:
    """Add games to a ladder file (created if missing) and return the whole ladder."""
    ladder = Ladder.load(path, missing_ok=True)
    ladder.extend(games)
    ladder.save(path)
    return ladder
