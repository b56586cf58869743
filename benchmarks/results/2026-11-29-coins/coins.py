"""Would the linear evaluation read outcomes better with a free weight on coins, or with the
presidencies?  Per (players, rounds left) cell, 10-fold cross-validated log loss of the win
shares (theta refit in every fold by search.learn.fit.fit):

- the model's form: softmax(beta * (coins + S)), S = each seat's shares times the fitted values;
- coins free: softmax(a * coins + b * S), a conditional logit of two covariates;
- with presidencies: coins, S, the companies where the seat holds the most shares (ties split),
  and the growth tracks of those companies.

A coin weight a / b other than 1 could be shipped without a new model format (theta and beta
absorb it); the gain decides whether it is worth a play test.

    python coins.py samples.npz [...]
"""
import sys

import numpy as np

from ekonos.rules import MAX_TILES
from search.learn.fit import Samples, fit, linear_values

FOLDS = 10


def conditional_logit(x: np.ndarray, win: np.ndarray) -> np.ndarray:
    """Weights w maximising sum(win * log softmax(x @ w)) over seats; x is (N, seats, K)."""
    w = np.zeros(x.shape[2])
    w[-1] = 0.1
    for _ in range(100):
        p = softmax(x @ w)
        mean = (p[:, :, None] * x).sum(axis=1)
        grad = ((win[:, :, None] * x).sum(axis=1) - mean * win.sum(axis=1)[:, None]).sum(0)
        d = x - mean[:, None, :]
        hess = -np.einsum("nq,nqk,nql->kl", p, d, d)
        step = np.linalg.solve(hess - 1e-9 * np.eye(len(w)), grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def loss(x: np.ndarray, win: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each position's cross-entropy of the win shares under weights w."""
    return -(win * np.log(softmax(x @ w))).sum(axis=1)


def covariates(s: Samples, theta: np.ndarray, n: int) -> np.ndarray:
    """(N, n, 4): coins, presidencies, their growth tracks, shares times fitted values."""
    value = np.clip(linear_values(s, theta), 0, MAX_TILES)
    shares = s.shares[:, :n, :]
    top = shares.max(axis=1, keepdims=True)
    most = (shares == top) & (top > 0)
    pres = most / np.maximum(1, most.sum(axis=1, keepdims=True))
    growth = s.features[:, None, :, 2]
    held = np.einsum("nqc,nc->nq", shares, value)
    return np.stack([s.coins[:, :n], pres.sum(2), (pres * growth).sum(2), held], axis=2)


def main(paths: list[str]) -> None:
    s = Samples.concat([Samples.load(p) for p in paths])
    rng = np.random.default_rng(0)
    for n, r in sorted({(int(a), int(b)) for a, b in zip(s.players, s.rounds_left)}):
        part = s.subset((s.players == n) & (s.rounds_left == r))
        size = len(part.players)
        fold = rng.integers(0, FOLDS, size)
        form, free, pres = np.zeros(size), np.zeros(size), np.zeros(size)
        weights = []
        for k in range(FOLDS):
            train, test = part.subset(fold != k), part.subset(fold == k)
            model = fit(train, players=(n,))
            theta, beta = np.asarray(model["theta"]), model["beta"][n][r]
            xtr, xte = covariates(train, theta, n), covariates(test, theta, n)
            wtr, wte = train.win[:, :n], test.win[:, :n]
            two = [0, 3]
            form[fold == k] = loss(xte[:, :, two], wte, np.array([beta, beta]))
            w = conditional_logit(xtr[:, :, two], wtr)
            weights.append(w[0] / w[1])
            free[fold == k] = loss(xte[:, :, two], wte, w)
            pres[fold == k] = loss(xte, wte, conditional_logit(xtr, wtr))

        def gain(a, b):
            d = a - b
            return f"{d.mean():+.4f} ± {1.96 * d.std() / np.sqrt(size):.4f}"
        print(f"{n} players, {r} rounds left, {size} positions: log loss {form.mean():.4f}; "
              f"coins free {gain(form, free)} (coin weight {np.mean(weights):.2f}); "
              f"with presidencies {gain(form, pres)}")


if __name__ == "__main__":
    main(sys.argv[1:])
