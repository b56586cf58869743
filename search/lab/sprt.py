"""Sequential probability ratio test (SPRT) on logistic Elo, as Stockfish's fishtest runs it.

H0: the test bot is `elo0` Elo stronger than the base bot; H1: it is `elo1` stronger
(elo0 < elo1).  After every independent unit of games the log-likelihood ratio (LLR) of H1
against H0 is compared with Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``: below the lower bound H0 is accepted, above the upper one H1, in
between the test goes on.  alpha bounds the false-positive rate (H1 accepted when the truth is
elo0), beta the false-negative rate (H0 accepted when the truth is elo1).

The LLR is fishtest's generalized SPRT (GSPRT): the units' outcomes take finitely many values
(a unit's mean score per result, in [0, 1]) with an unknown distribution; under each hypothesis
that distribution is replaced by its maximum-likelihood estimate among the distributions whose
mean is the hypothesis' expected score ``1 / (1 + 10^(-elo/400))``, and the LLR is
``N * sum_i phat_i * log(p1_i / p0_i)`` over the observed frequencies phat (the MLE under a mean
constraint is ``phat_i / (1 + x (v_i - s))`` with x the root of the secular equation, solved here
by a safeguarded rational Newton iteration).  Outcomes never seen get a count of 0.001, as
fishtest regularizes.  fishtest's dynamic overshoot correction is not applied: without it the
bounds are Wald's, whose actual error rates are at most (usually a little below) alpha and beta.

The GSPRT never moves faster than the evidence allows even for a lopsided match: when every unit
is won outright, the LLR grows by log(s1 / s0) per unit, so a [0, 10] test needs ~104 units
however strong the test bot is, a [0, 50] test ~22.  Choose wide bounds to confirm a big gap.

Units (the `model` of a test):

* ``trinomial``: one game, outcome loss / draw / win (0, 1/2, 1).
* ``pentanomial``: one pair of games on the same deal with the seats swapped, outcome the test
  bot's points 0, 1/2, 1, 3/2 or 2 (stored as 0, 1/4, 1/2, 3/4, 1 per game).  In the arena a
  2-player block *is* such a pair.  Pairs are the independent units, which both respects the
  correlation of the two games of a deal and removes most of the deal's luck from the variance.
* ``block``: one arena block of P > 2 games (one deal, seats rotated).  The outcome is the test
  bot's mean pairwise score against the base bot over the block (Board Game Arena scoring: every
  test-base seat pair is won 1, tied 1/2 or lost 0; see `block_score`).  Chosen because it is
  the exact multiplayer analogue of the pentanomial pair: blocks are the independent units (the
  pairwise results of one game, and the games of one deal, are correlated), its expectation is
  the expected pairwise score that the Elo of `search.lab.ratings.elo_between` is the logistic
  transform of, and for P = 2 it reduces to the pentanomial outcome.  Its values lie on a finite
  lattice; the GSPRT runs over the values observed so far plus the end points 0 and 1.

What a unit scores (`by`):

* ``score`` (the default): the pairwise results above, by final score.
* ``win``: the test side's share of the unit's wins (tied winners share a win, R20), the
  measure the multiplayer targets read ("a win share per seat above parity").  Its model is
  Luce's choice axiom: every seat wins with a probability proportional to its strength, 1 for
  a base seat and ``s = 10^(elo/400)`` for a test seat, so with ``n_t`` test and ``n_b`` base
  seats in every game (an arena's seating keeps the counts: `odds` = n_t / n_b) the test side
  wins a game with probability ``n_t s / (n_t s + n_b)`` (`expected_share`), the mean the GSPRT
  constrains.  An Elo by the win is the ratio of the win rates per seat: at +40 a test seat
  wins 1.26 times as often as a base seat.  With two players it is the score test.  It asks
  only who won; where place and win move together the score test, reading every seat's place,
  sees a gap in fewer games.  It is the question where a bot wins more without placing better
  on average (5 and 6 players, 2026-11-29).
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from ekonos.errors import EkonosError
from search.lab.ratings import EloEstimate, Game, elo_estimate, head_to_head

TRINOMIAL = (0.0, 0.5, 1.0)
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
MODELS = {"trinomial": TRINOMIAL, "pentanomial": PENTANOMIAL, "block": None}
BYS = ("score", "win")
"""What a unit scores: pairwise results by final score, or the share of the wins."""
REGULARIZATION = 1e-3
"""Count given to an outcome never observed (fishtest's value)."""


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds on the LLR: ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise EkonosError(f"alpha and beta must be in (0, 1) with alpha + beta < 1, "
                          f"not {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


_INSIDE = 1.0 - 1e-14   # the bracket starts just inside the poles: no division by zero there


def _log_shrink(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``log(1 + x d)``, x the root of the secular equation ``sum_i p_i d_i / (1 + x d_i) = 0``.

    p has shape (..., K) with positive entries summing to 1 on the last axis, d shape (K,) with
    min(d) < 0 < max(d).  f is strictly decreasing on (-1/max d, -1/min d) and runs from +inf to
    -inf, so the root is unique; it lies on the side of 0 given by the sign of f(0) = mean - s,
    often close to the pole of that side (an outcome seen rarely or never).  Each step fits
    ``A + B / (1 + x d_k)`` (d_k: that pole) to f and f' and jumps to its root, which is exact
    when that pole dominates; a step leaving the bracket falls back to Newton, then to bisection.
    Vectorised: all rows iterate together until every step is below 1e-10 (the LLR is
    stationary in x, so this is far more than enough).
    """
    shape, k = p.shape[:-1], p.shape[-1]
    pd = np.ascontiguousarray(p.reshape(-1, k).T) * d[:, None]   # (K, M): sums over K are fast
    dc = d[:, None]
    x = np.zeros(pd.shape[1])
    lo = np.full(x.shape, -_INSIDE / d.max())
    hi = np.full(x.shape, -_INSIDE / d.min())
    dk = np.where(pd.sum(0) > 0, d.min(), d.max())
    rows = np.arange(x.size)          # the rows still iterating
    for _ in range(100):
        xr = x[rows]
        q = 1.0 / (1.0 + dc * xr)
        r = pd * q
        f = r.sum(0)
        fp = -(r * q * dc).sum(0)
        lo = np.where(f > 0, xr, lo)
        hi = np.where(f < 0, xr, hi)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            u = 1.0 + xr * dk
            b = -fp * u * u / dk
            new = (-b / (f - b / u) - 1.0) / dk
            new = np.where((new >= lo) & (new <= hi), new, xr - f / fp)
        new = np.where((new >= lo) & (new <= hi), new, 0.5 * (lo + hi))
        x[rows] = new
        going = np.abs(new - xr) > 1e-10
        if not going.any():
            break
        if going.sum() < 0.75 * going.size:   # drop finished rows once enough have finished
            rows, pd, lo, hi, dk = rows[going], pd[:, going], lo[going], hi[going], dk[going]
    return np.log1p(x.reshape(shape)[..., None] * d)


def _log_shrink_one(p: list[float], d: list[float]) -> list[float]:
    """`_log_shrink` for one distribution, in plain Python: the Sprt object's path, tens of
    microseconds where numpy calls on tiny arrays take hundreds.  The same steps."""
    lo, hi = -_INSIDE / max(d), -_INSIDE / min(d)
    dk = min(d) if sum(pi * di for pi, di in zip(p, d)) > 0 else max(d)
    x = 0.0
    for _ in range(100):
        f = fp = 0.0
        for pi, di in zip(p, d):
            q = 1.0 / (1.0 + di * x)
            r = pi * di * q
            f += r
            fp -= r * q * di
        if f > 0:
            lo = x
        elif f < 0:
            hi = x
        u = 1.0 + x * dk
        b = -fp * u * u / dk
        den = f - b / u
        new = (-b / den - 1.0) / dk if den != 0 else math.nan
        if not lo <= new <= hi:
            new = x - f / fp if fp != 0 else math.nan
        if not lo <= new <= hi:
            new = 0.5 * (lo + hi)
        done = abs(new - x) <= 1e-10
        x = new
        if done:
            break
    return [math.log1p(x * di) for di in d]


def expected_share(elo: float, odds: float = 1.0) -> float:
    """The test side's expected share of the results when each of its seats is `elo` stronger
    and it holds `odds` times as many seats as the base (Luce); with odds 1 `expected_score`."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0) / odds)


def llr(counts, values: Sequence[float], elo0: float, elo1: float,
        fill: float | Sequence[float] = REGULARIZATION, odds: float = 1.0):
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for outcome counts.

    `values` are the K possible outcomes (a unit's mean score per result, ascending, in [0, 1],
    including 0 and 1); `counts` has shape (K,) or (..., K) (vectorised over leading axes, for
    simulations) and holds how often each outcome was observed; under each hypothesis the mean
    outcome is `expected_share(elo, odds)` (odds 1: the logistic score).  A zero count is
    replaced by `fill` (fishtest: 0.001 for every outcome; a per-value sequence may leave some
    outcomes out with 0, but 0 and 1 must keep a positive fill).  Returns a float for one count
    vector (computed in plain Python, fast for one update), else an array (numpy, for
    simulations).
    """
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    if v.ndim != 1 or c.shape[-1:] != v.shape:
        raise EkonosError("counts must end with one entry per value")
    if v.min() > 0.0 or v.max() < 1.0:
        raise EkonosError("the values must include 0 and 1")
    c = np.where(c > 0, c, np.broadcast_to(np.asarray(fill, dtype=float), v.shape))
    if (c[..., [int(v.argmin()), int(v.argmax())]] <= 0).any():
        raise EkonosError("the outcomes 0 and 1 need a positive count or fill")
    s0, s1 = expected_share(elo0, odds), expected_share(elo1, odds)
    if c.ndim == 1:
        n1 = float(c.sum())
        p1 = [float(ci) / n1 for ci in c]
        j0 = _log_shrink_one(p1, [float(vi) - s0 for vi in v])
        j1 = _log_shrink_one(p1, [float(vi) - s1 for vi in v])
        return n1 * sum(pi * (a - b) for pi, a, b in zip(p1, j0, j1))
    n = c.sum(-1)
    p = c / n[..., None]
    # log(p1_i / p0_i) = log(1 + x0 d0_i) - log(1 + x1 d1_i)
    jumps = _log_shrink(p, v - s0) - _log_shrink(p, v - s1)
    return n * (p * jumps).sum(-1)


def block_score(block: Sequence[Game], test: str, base: str) -> tuple[float, int]:
    """The block statistic: `test`'s mean pairwise score against `base` over the block's games,
    and the number of games.  For a 2-player block (two games, seats swapped) this is the
    pentanomial outcome: the test bot's points over the pair divided by 2."""
    pts, pairs = 0.0, 0
    for game in block:
        a, n = head_to_head(game, test, base)
        pts += a
        pairs += n
    if pairs == 0:
        raise EkonosError(f"the block has no game with both {test!r} and {base!r}")
    return pts / pairs, len(block)


def win_value(block: Sequence[Game], test: str, base: str) -> tuple[float, int]:
    """The block statistic by the win: `test`'s share of the wins that went to `test` or `base`
    seats over the block's games, each game per seat as (label, win), the win as the arena
    records it (1/k to each of k tied winners, R20); and the number of games."""
    won = sum(win for game in block for label, win in game if label == test)
    total = won + sum(win for game in block for label, win in game if label == base)
    if total == 0.0:
        raise EkonosError(f"no game of the block was won by {test!r} or {base!r}")
    return won / total, len(block)


def seat_odds(game: Game, test: str, base: str) -> float:
    """How many times as many seats `test` holds as `base` in one game (the `odds` of a test by
    the win)."""
    mine = sum(1 for label, _ in game if label == test)
    theirs = sum(1 for label, _ in game if label == base)
    if not mine or not theirs:
        raise EkonosError(f"the game does not seat both {test!r} and {base!r}")
    return mine / theirs


def model_for_players(players: int) -> str:
    """The unit model of an arena block of `players` games: a pair for 2, a block above."""
    if players < 2:
        raise EkonosError(f"a test needs at least 2 players, not {players}")
    return "pentanomial" if players == 2 else "block"


def tally(blocks: Sequence[Sequence[Game]], test: str, base: str, players: int) -> dict:
    """The units an SPRT of `test` against `base` would be fed by these arena blocks (each a
    whole block's games, in any order), JSON-ready: the test, the base, the unit model, the
    games, the units and the outcome histogram (``outcomes``: [value, count] pairs).  What an
    arena run without ``--sprt`` records, so that `lab pool-sprt` can pool it with others."""
    model = model_for_players(players)
    counts: dict[float, int] = {}
    games = 0
    for block in blocks:
        value, n = block_score(block, test, base)
        key = round(value, 12)
        counts[key] = counts.get(key, 0) + 1
        games += n
    return {"test": test, "base": base, "model": model, "games": games,
            "units": sum(counts.values()), "outcomes": [[v, counts[v]] for v in sorted(counts)]}


class Sprt:
    """An SPRT that accumulates units and reports its state.

    Feed units in a fixed order (the arena's block order, whatever finished first) and stop at
    the first decision: the decision is then reproducible, and adding a unit after it raises.
    """

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                 model: str = "pentanomial", by: str = "score", odds: float = 1.0):
        if not elo0 < elo1:
            raise EkonosError(f"the SPRT needs elo0 < elo1, not {elo0}, {elo1}")
        if model not in MODELS:
            raise EkonosError(f"unknown SPRT model {model!r}: one of {', '.join(MODELS)}")
        if by not in BYS:
            raise EkonosError(f"an SPRT scores by {' or '.join(BYS)}, not {by!r}")
        if not (math.isfinite(odds) and odds > 0) or (by == "score" and odds != 1.0):
            raise EkonosError(f"odds must be a positive number (1 for a test by score), "
                              f"not {odds}")
        self.by, self.odds = by, float(odds)
        self.elo0, self.elo1, self.alpha, self.beta = float(elo0), float(elo1), alpha, beta
        self.lower, self.upper = bounds(alpha, beta)
        self.model = model
        self.units = 0
        self.games = 0
        self._counts: dict[float, int] = {v: 0 for v in (MODELS[model] or ())}
        self._llr = 0.0

    # -- feeding ---------------------------------------------------------------------------------
    def add(self, value: float, games: int) -> str:
        """Add one unit with outcome `value` (mean score per result, in [0, 1]) made of `games`
        games; returns the new state."""
        return self.add_outcomes([(value, 1)], games)

    def add_outcomes(self, outcomes: Sequence[tuple[float, int]], games: int) -> str:
        """Add units at once, as (outcome, count) pairs (`result()["outcomes"]`), made of
        `games` games: a shard of a longer test, run on its own.  The test is checked after
        them all, since their order is not known.  Returns the new state."""
        if self.state != "continue":
            raise EkonosError(f"the test already accepted {self.state} after {self.games} games")
        add: dict[float, int] = {}
        for value, count in outcomes:
            if not 0.0 <= value <= 1.0:
                raise EkonosError(f"a unit's score must be in [0, 1], not {value}")
            if not (count >= 0 and count == int(count)):
                raise EkonosError(f"a count of units must be a whole number >= 0, not {count}")
            key = round(float(value), 12)
            support = MODELS[self.model]
            if support is not None and key not in self._counts:
                raise EkonosError(f"{value} is not a {self.model} outcome: one of {support}")
            add[key] = add.get(key, 0) + int(count)
        for key, count in add.items():
            self._counts[key] = self._counts.get(key, 0) + count
            self.units += count
        self.games += games
        values, counts = self.outcomes()
        self._llr = llr(counts, values, self.elo0, self.elo1, odds=self.odds)
        return self.state

    def add_game(self, score: float) -> str:
        """Trinomial model: one game, score 0, 1/2 or 1."""
        self._need("trinomial")
        return self.add(score, 1)

    def add_pair(self, points: float) -> str:
        """Pentanomial model: one pair of games, the test bot's points 0, 1/2, 1, 3/2 or 2."""
        self._need("pentanomial")
        return self.add(points / 2.0, 2)

    def add_block(self, block: Sequence[Game], test: str, base: str) -> str:
        """One arena block (its games, each as per-seat ``(label, score)``; by the win
        ``(label, win)``, see `win_value`): 2-player blocks (model pentanomial) must be a pair of
        games; bigger ones need model ``block``.  By the win, every game must seat the bots as
        the test's `odds` say."""
        if self.by == "win":
            for game in block:
                if not math.isclose(seat_odds(game, test, base), self.odds):
                    raise EkonosError(f"a game seats {test!r} and {base!r} "
                                      f"{seat_odds(game, test, base):g} to 1, not {self.odds:g}")
            value, games = win_value(block, test, base)
        else:
            value, games = block_score(block, test, base)
        if self.model == "pentanomial" and (games != 2 or any(len(g) != 2 for g in block)):
            raise EkonosError("a pentanomial unit is two 2-player games; use model 'block' "
                              "for more players")
        if self.model == "trinomial":
            raise EkonosError("a trinomial test takes single games (add_game), not blocks")
        return self.add(value, games)

    def _need(self, model: str) -> None:
        if self.model != model:
            raise EkonosError(f"this test uses the {self.model} model, not {model}")

    # -- reporting -------------------------------------------------------------------------------
    def outcomes(self) -> tuple[list[float], list[int]]:
        """The support (ascending, with 0 and 1) and the count of each outcome."""
        keys = sorted(set(self._counts) | {0.0, 1.0})
        return keys, [self._counts.get(k, 0) for k in keys]

    @property
    def llr(self) -> float:
        return self._llr

    @property
    def state(self) -> str:
        """``continue``, ``H0`` (accepted) or ``H1`` (accepted)."""
        if self._llr >= self.upper:
            return "H1"
        if self._llr <= self.lower:
            return "H0"
        return "continue"

    def elo(self) -> EloEstimate | None:
        """The Elo estimate and 95% interval over the units (None before the first).  After an
        early stop it is biased away from 0 (a sequential test stops on lucky streaks)."""
        if not self.units:
            return None
        values, counts = self.outcomes()
        est = elo_estimate(values, [1.0] * len(values), counts)
        if self.odds == 1.0:
            return est
        shift = 400.0 * math.log10(self.odds)     # the share's odds are odds * s (Luce)
        return dataclasses.replace(est, elo=est.elo - shift, low=est.low - shift,
                                   high=est.high - shift)

    def result(self) -> dict:
        """Everything a report needs, JSON-ready."""
        est = self.elo()
        values, counts = self.outcomes()
        return {"state": self.state, "llr": self._llr, "lower": self.lower, "upper": self.upper,
                "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": self.model, "by": self.by, "odds": self.odds,
                "games": self.games, "units": self.units,
                "outcomes": [[v, c] for v, c in zip(values, counts) if c],
                "elo": est.as_dict() if est else None}


def sprt(elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
         players: int | None = 2, model: str | None = None, by: str = "score",
         odds: float = 1.0) -> Sprt:
    """A new test of H0 elo = `elo0` against H1 elo = `elo1`.  The unit model follows the arena's
    player count (`model_for_players`) unless `model` names one (``trinomial`` for unpaired
    single games); `by` and `odds` as `Sprt` takes them."""
    return Sprt(elo0, elo1, alpha, beta, model or model_for_players(players or 2), by, odds)
