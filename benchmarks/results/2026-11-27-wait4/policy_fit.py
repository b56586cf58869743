"""A conditional logit over a card turn's candidates (card x place / protect / grow bottom k),
fitted to level 3's choices in the kept 6-player games (2026-11-27-infer), against the light
policy's own score (its weights, a fitted temperature) and uniform.  Log loss in nats a play,
fitted on the even games, held out on the odd ones.  Features are the light policy's terms
split into own shares and the largest rival holding, so the fit says how much each is worth."""
import os, pickle, sys
import numpy as np
from scipy.optimize import minimize
from ekonos.rules import DECK
from ekonos import rules
OUT = os.environ.get("OUT", "/tmp/w")
NAMES = ["place", "place.own", "place.rival", "protect", "protect.own", "protect.rival",
         "protect.exposed", "grow.own*left", "grow.rival*left", "trigger.own", "trigger.rival",
         "grow.last.own", "grow.last.rival"]


def features(st):
    p, n = st.to_move, st.nplayers
    left = (st.rounds - st.round + 1.0) / st.rounds
    last = float(st.round == st.rounds)
    empty = len(st.empty_spaces()) > 0

    def own_rival(c):
        return st.shares(p, c), max(st.shares(q, c) for q in range(n) if q != p)
    others_of = lambda t: {s for k in range(6) if k != t for s in st.tiles(k)}
    rows, acts, light = [], [], []
    for card in (c - 1 for c in st.hand(p)):          # numbers from 1, actions from 0
        t = DECK[card].top
        o, r = own_rival(t)
        stake = o - 0.5 * r
        if empty and len(st.tiles(t)) < 10:
            f = np.zeros(len(NAMES)); f[0:3] = 1, o, r
            rows.append(f); acts.append((card, "place")); light.append(stake)
        soft = [s for s in st.tiles(t) if not st.is_protected(s)]
        if soft:
            oth = others_of(t)
            exp = any(nb in oth for s in soft for nb in rules.ADJACENCY[s])
            f = np.zeros(len(NAMES)); f[3:7] = 1, o, r, exp
            rows.append(f); acts.append((card, "protect")); light.append(0.2 * stake)
        for k, b in enumerate(DECK[card].bottom):
            o, r = own_rival(b)
            g = st.growth(b) + 1
            trig = 1.0 if g == 4 else 1.5 if g == 6 else 0.0
            f = np.zeros(len(NAMES))
            f[7:11] = o * left, r * left, trig * o, trig * r
            f[11:13] = last * o, last * r
            rows.append(f); acts.append((card, k))
            light.append(0.35 * (o - 0.5 * r) * left + trig * (o - 0.5 * r))
    return np.array(rows), acts, np.array(light)


def chosen(acts, a):
    card, sub = divmod(a, 74)
    use = "place" if sub < 36 else "protect" if sub < 72 else sub - 72
    return acts.index((card, use))


def nll(w, rows, col=None):
    tot = 0.0
    for X, i, light in rows:
        z = (light * w[0]) if col == "light" else X @ w
        z = z - z.max()
        tot += np.log(np.exp(z).sum()) - z[i]
    return tot / len(rows)


def grad(w, rows):
    g = np.zeros_like(w)
    for X, i, _ in rows:
        z = X @ w; z -= z.max(); pr = np.exp(z); pr /= pr.sum()
        g += X.T @ pr - X[i]
    return g / len(rows)


def main():
    """The fits, printed (policy_fit.txt); policy_fit2.py imports the rest."""
    games = pickle.load(open(OUT + "/games_0_40.pkl", "rb"))
    data = [[], []]
    for gi, rec in enumerate(games):
        for st, a in rec:
            X, acts, light = features(st)
            data[gi % 2].append((X, chosen(acts, a), light))
    train, test = data
    print(f"plays: {len(train)} fit, {len(test)} held out")
    uni = np.mean([np.log(len(X)) for X, _, _ in test])
    print(f"uniform over the candidates: {uni:.3f}")
    best = min((nll([b], train, "light"), b) for b in (0.1, 0.2, 0.3, 0.5, 1, 2, 4))
    print(f"light policy's score, temperature fitted (beta {best[1]}): "
          f"{nll([best[1]], test, 'light'):.3f}")
    res = minimize(nll, np.zeros(len(NAMES)), args=(train,), jac=grad, method="L-BFGS-B")
    print(f"fitted logit: {res.fun:.3f} on the fit, {nll(res.x, test):.3f} held out")
    for name, w in zip(NAMES, res.x):
        print(f"  {name:18s} {w:+.2f}")
    keep = [i for i, m in enumerate(NAMES) if not m.startswith("trigger")]
    sub = lambda rows: [(X[:, keep], i, light) for X, i, light in rows]
    res2 = minimize(nll, np.zeros(len(keep)), args=(sub(train),), jac=grad, method="L-BFGS-B")
    print(f"without the trigger terms: {res2.fun:.3f} on the fit, {nll(res2.x, sub(test)):.3f} "
          "held out")
    allrows = sub(train + test)
    res3 = minimize(nll, np.zeros(len(keep)), args=(allrows,), jac=grad, method="L-BFGS-B")
    print(f"the same on every play (the weights the policy uses): {res3.fun:.3f}")
    for i, w in zip(keep, res3.x):
        print(f"  {NAMES[i]:18s} {w:+.3f}")


if __name__ == "__main__":
    main()
