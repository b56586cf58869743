"""The learned evaluation's fit: self-play samples in, a model's weights out (numpy).

The data are self-play games (search/learn/selfplay.py): at the start of every round after the
first, the features of each company (search/_eval.pxd `company_features`), each seat's coins
and shares; at the end, each company's value and each seat's win share.  Everything read is
public (R21).  `fit` turns samples into weights: theta per (player count, rounds left) by ridge
regression of each company's growth to the end, then beta, the softmax's sharpness, by maximum
likelihood of the win shares; `log_loss` and `diagnose` say how well weights read samples.
search/learn/model_file.py writes the weights as a model file; search/evaluation.py reads it.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ekonos.files import read_bounded
from ekonos.rules import MAX_TILES
from search._ismcts import EVAL_FEATURES, EVAL_MAX_BETA, EVAL_MAX_ROUNDS
from search.evaluation import MAXP, NCOMP

__all__ = ["MAXP", "NCOMP", "Samples", "diagnose", "expected_scores", "fit", "held_out",
           "how_made", "linear_values", "log_loss"]


#: The largest samples file read (.npz): a few thousand self-play games are some tens of MB.
MAX_SAMPLES_BYTES = 1 << 30


@dataclass
class Samples:
    """Round-start positions of self-play games and how the games ended (numpy arrays; seats
    past a game's player count are zero)."""
    players: np.ndarray      # (N,) player count
    rounds_left: np.ndarray  # (N,) rounds still to play, the one just dealt included
    features: np.ndarray     # (N, 6, F) company features
    coins: np.ndarray        # (N, 6) per seat
    shares: np.ndarray       # (N, 6, 6) [seat][company]
    final_value: np.ndarray  # (N, 6) each company's tiles at the end
    win: np.ndarray          # (N, 6) each seat's win share at the end

    def subset(self, rows: np.ndarray) -> Samples:
        """The samples of the rows a boolean mask selects."""
        return Samples(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))

    @classmethod
    def concat(cls, parts: list[Samples]) -> Samples:
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in cls.__dataclass_fields__))

    def save(self, path: Path, how: str = "") -> None:
        """Write the arrays, and `how` (the command that made them), to a .npz file."""
        np.savez_compressed(path, how=np.array(how),
                            **{f: getattr(self, f) for f in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: Path) -> Samples:
        """The samples of a .npz file (a regular file of at most MAX_SAMPLES_BYTES), their
        shapes checked; ValueError (FileError) naming what is wrong."""
        with np.load(io.BytesIO(read_bounded(path, MAX_SAMPLES_BYTES, "samples file")),
                     allow_pickle=False) as z:
            s = cls(*(z[f] for f in cls.__dataclass_fields__))
        n = len(s.players) if s.players.ndim == 1 else -1
        shapes = {"players": (n,), "rounds_left": (n,), "features": (n, NCOMP, EVAL_FEATURES),
                  "coins": (n, MAXP), "shares": (n, MAXP, NCOMP), "final_value": (n, NCOMP),
                  "win": (n, MAXP)}
        for f, shape in shapes.items():
            a = getattr(s, f)
            if a.shape != shape or a.dtype.kind not in "iuf":
                raise ValueError(f"{f} has shape {a.shape} of {a.dtype}, not {shape} numbers")
        if n and not (np.isin(s.players, range(2, MAXP + 1)).all()
                      and ((s.rounds_left >= 0) & (s.rounds_left <= EVAL_MAX_ROUNDS)).all()):
            raise ValueError("a player count or a round out of range")
        return s


def linear_values(s: Samples, theta: np.ndarray) -> np.ndarray:
    """(N, 6) each company's final value as the regression predicts it (tiles now plus
    theta[n][r] . features), before the clip to 0..MAX_TILES."""
    th = theta[s.players, s.rounds_left]                       # (N, F)
    return s.features[:, :, 1] + np.einsum("ncf,nf->nc", s.features, th)


def expected_scores(s: Samples, theta: np.ndarray) -> np.ndarray:
    """(N, 6) each seat's expected final score under company-value weights theta[n][r]."""
    value = np.clip(linear_values(s, theta), 0, MAX_TILES)
    return s.coins + np.einsum("nqc,nc->nq", s.shares, value)


def held_out(s: Samples, share: float = 0.1) -> np.ndarray:
    """A fixed `share` of the samples kept out of a fit to test it: drawn for each player count
    from that count's samples alone (seeded by the count), so adding samples of one count never
    moves another count's held-out figure."""
    held = np.zeros(len(s.players), dtype=bool)
    for n in np.unique(s.players):
        rows = s.players == n
        held[rows] = np.random.default_rng(int(n)).random(int(rows.sum())) < share
    return held


def fit(s: Samples, ridge: float = 1.0, players: tuple[int, ...] = (2, 3, 4, 5, 6)) -> dict:
    """The model fitted on `s`: theta by ridge regression of each company's growth to the end,
    beta by maximum likelihood of the win shares.  Cells (n, r) without data, and player counts
    not in `players`, keep zeros: a search does not cut its playouts there."""
    theta = np.zeros((MAXP + 1, EVAL_MAX_ROUNDS + 1, EVAL_FEATURES))
    beta = np.zeros((MAXP + 1, EVAL_MAX_ROUNDS + 1))
    counts = {}
    reg = ridge * np.eye(EVAL_FEATURES)
    reg[0, 0] = 0.0                                     # the constant is not shrunk
    for n in sorted(players):
        for r in range(1, EVAL_MAX_ROUNDS + 1):
            part = s.subset((s.players == n) & (s.rounds_left == r))
            if not len(part.players):
                continue
            counts[f"{n}p r{r}"] = len(part.players)
            X = part.features.reshape(-1, EVAL_FEATURES)
            y = (part.final_value - part.features[:, :, 1]).reshape(-1)
            theta[n, r] = np.linalg.solve(X.T @ X + reg, X.T @ y)
            score = expected_scores(part, theta)[:, :n]    # reads only cell (n, r)
            beta[n, r] = _fit_beta(score - score.max(axis=1, keepdims=True), part.win[:, :n])
    return {"theta": theta.tolist(), "beta": beta.tolist(), "samples": counts}


def _fit_beta(diff: np.ndarray, win: np.ndarray) -> float:
    """The sharpness maximising sum(win * log softmax(beta * diff)) (Newton steps from 0.1),
    at most EVAL_MAX_BETA (samples a score separates perfectly would drive it to infinity)."""
    b = 0.1
    for _ in range(50):
        p = np.exp(b * diff)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p * diff).sum(axis=1)
        grad = ((win * diff).sum(axis=1) - mean).sum()
        hess = -((p * diff ** 2).sum(axis=1) - mean ** 2).sum()
        if hess >= -1e-12:
            break
        step = grad / hess
        b = min(max(1e-4, b - step), EVAL_MAX_BETA)    # a model a search can read
        if abs(step) < 1e-7:
            break
    return float(b)


def log_loss(s: Samples, model: dict) -> float:
    """Mean cross-entropy of the model's win shares against the games' (lower is better)."""
    theta = np.asarray(model["theta"])
    beta = np.asarray(model["beta"])
    score = expected_scores(s, theta)
    total = 0.0
    for i in range(len(s.players)):
        n = s.players[i]
        z = beta[n, s.rounds_left[i]] * (score[i, :n] - score[i, :n].max())
        logp = z - np.log(np.exp(z).sum())
        total -= float((s.win[i, :n] * logp).sum())
    return total / max(1, len(s.players))


def diagnose(s: Samples, model: dict) -> list[dict]:
    """How well the model reads the samples, per (players, rounds left) cell: the log loss of its
    win shares (and even odds'), the share of the companies' final values it explains (R², 1 is
    exact, 0 the mean's, below 0 worse than the mean), and how often the seat it expects to
    score most wins (its win share; 1/players is chance)."""
    theta = np.asarray(model["theta"])
    cells = []
    for n, r in sorted({(int(n), int(r)) for n, r in zip(s.players, s.rounds_left)}):
        part = s.subset((s.players == n) & (s.rounds_left == r))
        value = linear_values(part, theta)                 # the regression's own fit
        y = part.final_value
        spread = float(((y - y.mean()) ** 2).sum())
        leader = expected_scores(part, theta)[:, :n].argmax(axis=1)
        cells.append({"players": n, "rounds_left": r, "positions": len(part.players),
                      "log_loss": log_loss(part, model), "even_odds": float(np.log(n)),
                      "value_r2": 1 - float(((y - value) ** 2).sum()) / spread if spread else 0.0,
                      "leader_wins": float(part.win[np.arange(len(leader)), leader].mean()),
                      "chance": 1 / n})
    return cells


def how_made(path: Path) -> str:
    """The command that made a samples file (Samples.save)."""
    with np.load(io.BytesIO(read_bounded(path, MAX_SAMPLES_BYTES, "samples file")),
                 allow_pickle=False) as z:
        return str(z["how"]) if "how" in z else ""
