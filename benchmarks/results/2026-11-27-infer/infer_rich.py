"""Ceiling check: a conditional logit over card features, fitted on true hands (in-sample and
cross-validated by game halves)."""
import os
OUT = os.environ.get("OUT", "/tmp/w")     # where the games and tables go
import pickle, math, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from infer_fit import rows, card_L, CARD
from ekonos.rules import DECK

games = pickle.load(open(OUT + "/games_0_40.pkl", "rb"))
states = [st for rec in games for st, a in rec]
assert len(states) == len(rows)
TOP = [c.top for c in DECK]; BOT = [tuple(c.bottom) for c in DECK]

def feats(st, j, c, row):
    vals = row["vals"][c]; w = vals[1]
    L40 = card_L({"vals": {c: vals}}, 40, "win", "lse")[c]
    t = TOP[c]; b0, b1 = BOT[c]
    n = st.nplayers
    sh = lambda q, k: st.shares(q, k)
    mine_b = sh(j, b0) + sh(j, b1)
    oth_b = sum(sh(q, b0) + sh(q, b1) for q in range(n) if q != j)
    pres = lambda k: 1.0 if st.president(k) == j else 0.0
    near = lambda k: 1.0 if st.growth(k) in (3, 5) else 0.0
    return [L40, w.max(), w.mean(), len(w) / 40, sh(j, t), mine_b, oth_b / 5, pres(t),
            pres(b0) + pres(b1), near(b0) * pres(b0) + near(b1) * pres(b1),
            near(b0) + near(b1), len(st.tiles(t)) / 10, st.growth(b0) + st.growth(b1),
            sh(j, t) * len(st.tiles(t)) / 10]

X, G, Y = [], [], []
for i, (st, row) in enumerate(zip(states, rows)):
    j = row["j"]
    for c in row["hand"]:
        X.append(feats(st, j, c, row)); G.append(i); Y.append(1.0 if c == CARD(row["a"]) else 0.0)
X = np.array(X); G = np.array(G); Y = np.array(Y)
X = (X - X.mean(0)) / (X.std(0) + 1e-9)
gameof = np.array([rows[g]["g"] for g in G])

def nll(w, mask):
    z = X[mask] @ w; g = G[mask]; y = Y[mask]
    mx = np.zeros(G.max() + 1) - 1e300
    np.maximum.at(mx, g, z)
    e = np.exp(z - mx[g]); s = np.zeros(G.max() + 1); np.add.at(s, g, e)
    p = e / s[g]
    ll = (y * np.log(p)).sum()
    grad = X[mask].T @ (y - p)
    # p-weighted: gradient of sum over groups of log p_chosen = sum y x - sum p x
    return -ll, -grad

def fit(mask, steps=3000, lr=0.5, l2=1.0):
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        f, g = nll(w, mask)
        w -= lr * (g / mask.sum() * 6 + l2 * w / mask.sum())
    return w

def uniform(mask):
    g = G[mask]; cnt = np.bincount(g)
    return sum(math.log(cnt[k]) for k in np.unique(g))

for name, tr, te in (("first half -> second", gameof < 20, gameof >= 20),
                     ("second -> first", gameof >= 20, gameof < 20)):
    w = fit(tr)
    f, _ = nll(w, te)
    n = len(np.unique(G[te]))
    print(name, f"held-out gain {(uniform(te) - f) / n:.4f} nats/play "
          f"(uniform {uniform(te)/n:.3f})", np.round(w, 2))
w = fit(np.ones(len(Y), bool)); f, _ = nll(w, np.ones(len(Y), bool))
print("in-sample gain", (uniform(np.ones(len(Y), bool)) - f) / len(rows))
