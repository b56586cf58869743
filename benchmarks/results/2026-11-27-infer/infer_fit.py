"""Fit the opponent policy's sharpness and measure the information in card plays."""
import os
OUT = os.environ.get("OUT", "/tmp/w")     # where the games and tables go
import pickle, math, random, sys
import numpy as np

rows = pickle.load(open(OUT + "/rows.pkl", "rb"))
CARD = lambda a: a // 74   # A_CARD=0, CARD_SUBS=74

def feat(v, kind):
    acts, w, m = v
    return w if kind == "win" else (np.tanh(m / 10.0) if kind == "tanh" else m)

def card_L(row, beta, kind, agg):
    """log L(c) for each card c of the table."""
    out = {}
    for c, v in row["vals"].items():
        x = beta * feat(v, kind)
        if agg == "lse":
            mx = x.max(); out[c] = mx + math.log(np.exp(x - mx).sum())
        else:
            out[c] = x.max()
    return out

def loglik(beta, kind, agg):
    """Card-level log-likelihood of the card played, true hand known."""
    tot = 0.0
    for row in rows:
        L = card_L(row, beta, kind, agg)
        xs = np.array([L[c] for c in row["hand"]])
        mx = xs.max()
        tot += L[CARD(row["a"])] - (mx + math.log(np.exp(xs - mx).sum()))
    return tot

uni = sum(-math.log(len(r["hand"])) for r in rows)
print("rows", len(rows), "uniform card loglik", round(uni, 1))
for kind, betas in (("win", [0, 5, 10, 20, 40, 80]), ("margin", [0.1, 0.2, 0.4, 0.8, 1.6]),
                    ("tanh", [2, 5, 10, 20, 40])):
    for agg in ("lse", "max"):
        res = [(b, round(loglik(b, kind, agg), 1)) for b in betas]
        print(kind, agg, res, flush=True)
