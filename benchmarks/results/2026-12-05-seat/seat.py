"""Does a seat's coins (or its shares, or its presidencies) say more about who wins than the
shipped model's expected score counts?  Reads self-play samples (`ekonos learn sample`), keeps
the shipped model's company values (theta) and fits, per (players, rounds left) cell, a
conditional logit of the win shares on the expected score and seat terms, on 90% of the
positions; prints the held-out log loss of each beside the shipped beta's and beta refit alone.

usage: python seat.py SAMPLES.npz [...]   (from the repository root, with its .venv)
"""
import sys
from pathlib import Path

import numpy as np

from search.evaluation import model
from search.learn.fit import Samples, expected_scores, held_out, _fit_beta


def seat_terms(s, n):
    """(N, n, K): coins, shares held, presidencies (most shares, ties to nobody)."""
    sh = s.shares[:, :n, :]
    top = sh.max(axis=1, keepdims=True)
    alone = (sh == top) & ((sh == top).sum(axis=1, keepdims=True) == 1) & (top > 0)
    return np.stack([s.coins[:, :n], sh.sum(axis=2), alone.sum(axis=2)], axis=2).astype(float)


def nll(w, X, win):
    z = X @ w
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -(win * logp).sum(axis=1).mean()


def fit_logit(X, win, ridge=1e-3):
    """Newton's method for a conditional logit: P(seat q wins) = softmax_q(X[q] . w)."""
    w = np.zeros(X.shape[2])
    w[0] = 0.1
    for _ in range(100):
        z = X @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * X).sum(axis=1)                       # (N, K)
        grad = ((win[:, :, None] * X).sum(axis=1) - mean).sum(axis=0) - ridge * w
        d = X - mean[:, None, :]
        hess = -np.einsum("nq,nqk,nql->kl", p, d, d) - ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def main(paths):
    s = Samples.concat([Samples.load(Path(p)) for p in paths])
    theta, beta = (np.asarray(a) for a in model("eval-0678b3d9c83c"))
    held = held_out(s, 0.2)
    print("cell      train  held  shipped  beta-refit  +coins  +coins+shares+pres  weights")
    for n, r in sorted({(int(a), int(b)) for a, b in zip(s.players, s.rounds_left)}):
        cell = (s.players == n) & (s.rounds_left == r)
        tr, te = s.subset(cell & ~held), s.subset(cell & held)
        rows = []
        for part in (tr, te):
            score = expected_scores(part, theta)[:, :n]
            score = score - score.max(axis=1, keepdims=True)
            rows.append(np.concatenate([score[:, :, None], seat_terms(part, n)], axis=2))
        Xtr, Xte = rows
        shipped = nll(np.array([beta[n, r]]), Xte[:, :, :1], te.win[:, :n])
        b = _fit_beta(Xtr[:, :, 0], tr.win[:, :n])
        refit = nll(np.array([b]), Xte[:, :, :1], te.win[:, :n])
        w1 = fit_logit(Xtr[:, :, :2], tr.win[:, :n])
        one = nll(w1, Xte[:, :, :2], te.win[:, :n])
        w3 = fit_logit(Xtr, tr.win[:, :n])
        three = nll(w3, Xte, te.win[:, :n])
        print(f"{n}p r{r}  {len(tr.players):6d} {len(te.players):5d}  {shipped:.4f}   {refit:.4f}"
              f"     {one:.4f}  {three:.4f}   coin weight {1 + w1[1] / w1[0]:.3f} "
              f"({w3.round(4).tolist()})")


if __name__ == "__main__":
    main(sys.argv[1:])
