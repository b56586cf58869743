"""Elo from game results, pairwise results from a finishing order, and a Plackett-Luce rating.

Pure functions: nothing here plays a game.  A *game* is given as its seats, one
``(label, score)`` pair per seat, in seat order; a label is a spec string or any other name the
caller uses for an entrant (two entrants with the same spec need distinct labels if they are to
be told apart).

Elo is the logistic scale of chess: a score fraction ``p`` (wins plus half the draws, over all
results) corresponds to ``-400 * log10(1/p - 1)`` Elo, and ``expected_score`` is its inverse.

Multiplayer games are scored the way Board Game Arena does: every pair of seats is one pairwise
result (the higher score wins 1, equal scores tie 1/2 each, the lower score 0), so a 4-player game
gives 6 pairwise results.  The pairwise results of one game are *not* independent (one finishing
order decides all of them), so every interval here is computed from independent units (a game, a
pair of games, a block of games) that aggregate their pairwise results, never from the pairwise
results as if each were a separate game.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ekonos.errors import EkonosError

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""

Game = Sequence[tuple[str, float]]
"""One game: per seat, in seat order, the entrant's label and its final score."""

_EDGE_NO_COUNT = 1e-3   # clamp of p when the number of results is unknown: +-1200 Elo (fishtest)


def expected_score(elo: float) -> float:
    """Expected score fraction of a player `elo` Elo stronger than its opponent (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(p: float, results: float | None = None) -> float:
    """Elo difference for a score fraction `p`: ``-400 * log10(1/p - 1)``.

    At p = 0 or 1 the Elo is infinite, so p is clamped: with `results` (the number of results
    that p is a fraction of) to half a result from the edge, ``[1/(2n), 1 - 1/(2n)]`` (100 wins
    out of 100 games read as 99.5: +920 Elo); without it to ``[0.001, 0.999]`` (+-1200 Elo, as
    fishtest does).  Raises EkonosError (a ValueError) for p outside [0, 1].
    """
    if not 0.0 <= p <= 1.0 or math.isnan(p):
        raise EkonosError(f"a score fraction must be in [0, 1], not {p}")
    edge = 0.5 / results if results else _EDGE_NO_COUNT
    edge = min(edge, 0.5)
    p = min(max(p, edge), 1.0 - edge)
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0   # + 0.0: no -0.0 at p = 1/2


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% interval.

    `score` is the observed score fraction, `results` the number of results it is a fraction of
    (games, or pairwise results in multiplayer games), `units` the number of independent units
    the interval was computed from (games, pairs of games, blocks).
    """

    elo: float
    low: float
    high: float
    score: float
    results: float
    units: int

    def as_dict(self) -> dict:
        return {"elo": self.elo, "ci95": [self.low, self.high], "score": self.score,
                "results": self.results, "units": self.units}


def elo_estimate(points: Sequence[float], results: Sequence[float],
                 counts: Sequence[float] | None = None) -> EloEstimate:
    """Elo and 95% interval from independent units.

    Unit k scored ``points[k]`` out of ``results[k]`` results (a game: 1 result; a pair of games:
    2; a 4-player game seen as A against B: the number of A-B seat pairs) and occurs
    ``counts[k]`` times (default 1).  The score fraction is p = sum(points) / sum(results); its
    variance is the cluster-robust (ratio-estimator) one, sum((points_k - p results_k)^2) /
    sum(results)^2, which for one game per unit is the trinomial variance of per-game scores and
    for pairs of games is fishtest's pentanomial variance.  The interval is the Elo of
    p -+ 1.96 standard errors.

    Clamping: p and the interval ends are clamped to half a result from 0 and 1 (see
    `elo_from_score`).  When p is at that clamp (every result won, or every result lost) the
    observed variance is 0 and says nothing, so the Bernoulli variance of the clamped p is used
    instead; the interval's open end then equals the estimate (the data give no bound there).
    """
    pts = np.asarray(points, dtype=float)
    res = np.asarray(results, dtype=float)
    cnt = np.ones_like(pts) if counts is None else np.asarray(counts, dtype=float)
    if pts.shape != res.shape or pts.shape != cnt.shape or pts.ndim != 1:
        raise EkonosError("points, results and counts must be sequences of the same length")
    if (res < 0).any() or (cnt < 0).any() or (pts < 0).any() or (pts > res).any():
        raise EkonosError("each unit needs 0 <= points <= results and a count >= 0")
    n = float((cnt * res).sum())
    units = int(round(float(cnt.sum())))
    if n <= 0:
        raise EkonosError("no results: an Elo needs at least one game")
    p = float((cnt * pts).sum()) / n
    edge = min(0.5 / n, 0.5)
    pc = min(max(p, edge), 1.0 - edge)
    if p <= edge or p >= 1.0 - edge:
        se = math.sqrt(pc * (1.0 - pc) / n)
    else:
        se = math.sqrt(float((cnt * (pts - p * res) ** 2).sum())) / n
    lo = min(max(pc - Z95 * se, edge), pc)
    hi = max(min(pc + Z95 * se, 1.0 - edge), pc)
    return EloEstimate(elo=elo_from_score(pc, n), low=elo_from_score(lo, n),
                       high=elo_from_score(hi, n), score=p, results=n, units=units)


def elo_from_wdl(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo of A against B from A's wins, draws and losses (the trinomial model: games are the
    independent units)."""
    return elo_estimate([1.0, 0.5, 0.0], [1, 1, 1], [wins, draws, losses])


def elo_from_pentanomial(counts: Sequence[int]) -> EloEstimate:
    """Elo from pairs of games with seats swapped: `counts[k]` pairs in which A scored k/2 points
    (k = 0..4: 0, 0.5, 1, 1.5, 2).  Pairs are the independent units (fishtest's pentanomial)."""
    if len(counts) != 5:
        raise EkonosError(f"a pentanomial has 5 counts (0, 0.5, 1, 1.5, 2 points), "
                          f"not {len(counts)}")
    return elo_estimate([0.0, 0.5, 1.0, 1.5, 2.0], [2] * 5, counts)


def pairwise_results(scores: Sequence[float]) -> list[tuple[int, int, float]]:
    """Every pair of seats i < j of one game as ``(i, j, score of i against j)``: 1 if seat i
    scored more, 1/2 on equal scores, 0 if less (Board Game Arena's multiplayer scoring).  A game
    of P seats gives P(P-1)/2 results."""
    out = []
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            a, b = scores[i], scores[j]
            out.append((i, j, 1.0 if a > b else 0.5 if a == b else 0.0))
    return out


def head_to_head(game: Game, a: str, b: str) -> tuple[float, int]:
    """Points of `a` against `b` in one game, and the number of a-b seat pairs they come from.

    Every seat labelled `a` meets every seat labelled `b` once (win 1, tie 1/2, loss 0); seats
    with other labels, and pairs of two `a` or two `b` seats, do not count.  Two players, A
    against B: ``(1, 1)`` for a win.  Four players seated A B A B: 4 pairs.
    """
    if a == b:
        raise EkonosError(f"compare two different entrants, not {a!r} with itself")
    mine = [s for lab, s in game if lab == a]
    theirs = [s for lab, s in game if lab == b]
    pts = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in mine for y in theirs)
    return pts, len(mine) * len(theirs)


def elo_between(games: Iterable[Game], a: str, b: str, block: int = 1) -> EloEstimate:
    """Elo of `a` against `b` from every a-b pairwise result of `games` (any player counts).

    The score fraction counts each pairwise result once (so a 4-player game seated A B A B weighs
    4 results).  The interval is computed over independent units of `block` consecutive games
    (the last unit may be shorter), each aggregating its pairwise results: never per pairwise
    result, because the pairs of one game come from one finishing order.  Pass the arena's block
    size (its player count: one deal, seats rotated) so that games sharing a deal form one unit;
    games without an a-b pair are ignored.
    """
    if block < 1:
        raise EkonosError(f"block must be at least 1, not {block}")
    points: list[float] = []
    results: list[int] = []
    for k, game in enumerate(games):
        pts, n = head_to_head(game, a, b)
        if k % block == 0:
            points.append(0.0)
            results.append(0)
        points[-1] += pts
        results[-1] += n
    kept = [(p, n) for p, n in zip(points, results) if n]
    if not kept:
        raise EkonosError(f"no game has both {a!r} and {b!r}")
    return elo_estimate([p for p, _ in kept], [n for _, n in kept])


# -- Plackett-Luce (openskill) -----------------------------------------------------------------

@dataclass(frozen=True)
class SkillRating:
    """A Plackett-Luce skill: mean `mu`, uncertainty `sigma`, ``ordinal = mu - 3 sigma`` (a
    conservative value to sort by), and the number of games rated."""

    mu: float
    sigma: float
    ordinal: float
    games: int

    def as_dict(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}


def _plackett_luce_model():
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:
        raise EkonosError("the Plackett-Luce rating needs the optional extra 'ratings' "
                          "(the openskill package): pip install 'ekonos[ratings]'") from exc
    return PlackettLuce


def plackett_luce(games: Iterable[Game]) -> dict[str, SkillRating]:
    """Rate finishing orders with openskill's Plackett-Luce model (Weng-Lin updates).

    Every label starts at openskill's default (mu 25, sigma 25/3).  Games are rated one after
    the other in the given order, each game as one update in which every seat is a one-player
    team ranked by its score (higher is better, equal scores tie), so the result is
    deterministic.  A label sitting in several seats of one game (A B A B) is rated once per seat
    within that update, as separate copies of the same rating; its new mu is the old one plus the
    sum of the copies' changes and its variance shrinks by the product of their shrink factors
    (each seat counts as one observation).  Returns the ratings in order of first appearance.

    Raises EkonosError naming the optional extra 'ratings' when openskill is not installed.
    """
    model = _plackett_luce_model()()
    state: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    for game in games:
        if len(game) < 2:
            raise EkonosError("a game to rate needs at least two seats")
        for lab, _ in game:
            state.setdefault(lab, (model.mu, model.sigma))
        teams = [[model.rating(mu=state[lab][0], sigma=state[lab][1])] for lab, _ in game]
        new = model.rate(teams, scores=[float(s) for _, s in game])
        change: dict[str, tuple[float, float]] = {}
        for (lab, _), team in zip(game, new):
            mu0, sigma0 = state[lab]
            dmu, shrink = change.get(lab, (0.0, 1.0))
            change[lab] = (dmu + team[0].mu - mu0, shrink * (team[0].sigma / sigma0) ** 2)
        for lab, (dmu, shrink) in change.items():
            mu0, sigma0 = state[lab]
            state[lab] = (mu0 + dmu, sigma0 * math.sqrt(shrink))
            played[lab] = played.get(lab, 0) + 1
    return {lab: SkillRating(mu=mu, sigma=sigma, ordinal=mu - 3.0 * sigma, games=played[lab])
            for lab, (mu, sigma) in state.items()}
