"""policy_fit.py's logit with more terms: each use's weights apart for the first round(s) and
the last, holder indicators, the president.  Does it predict level 3's card plays better,
held out?  (6 players, the kept games of 2026-11-27-infer.)"""
import os, pickle
import numpy as np
from scipy.optimize import minimize
from ekonos.rules import DECK
from ekonos import rules
import policy_fit as base          # noqa: E402  (its data and loss; run from this folder)

BASE = ["own", "rival", "has", "pres", "one"]


def features(st):
    p, n = st.to_move, st.nplayers
    last = st.round == st.rounds
    empty = len(st.empty_spaces()) > 0
    width = 3 * 2 * len(BASE) + 2

    def terms(c):
        o = st.shares(p, c); r = max(st.shares(q, c) for q in range(n) if q != p)
        return [o, r, float(o > 0), float(st.president(c) == p), 1.0]
    rows, acts = [], []
    for card in (c - 1 for c in st.hand(p)):
        t = DECK[card].top
        def put(use, vals, extra=None):
            f = np.zeros(width); o = (use * 2 + last) * len(BASE)
            f[o:o + len(BASE)] = vals
            if extra is not None:
                f[-2 + extra[0]] = extra[1]
            return f
        if empty and len(st.tiles(t)) < 10:
            rows.append(put(0, terms(t))); acts.append((card, "place"))
        soft = [s for s in st.tiles(t) if not st.is_protected(s)]
        if soft:
            oth = {s for k in range(6) if k != t for s in st.tiles(k)}
            exp = any(nb in oth for s in soft for nb in rules.ADJACENCY[s])
            rows.append(put(1, terms(t), (0, float(exp)))); acts.append((card, "protect"))
        for k, b in enumerate(DECK[card].bottom):
            trig = float(st.growth(b) + 1 in (4, 6))
            rows.append(put(2, terms(b), (1, trig))); acts.append((card, k))
    return np.array(rows), acts


games = pickle.load(open(base.OUT + "/games_0_40.pkl", "rb"))
data = [[], []]
for gi, rec in enumerate(games):
    for st, a in rec:
        X, acts = features(st)
        data[gi % 2].append((X, base.chosen(acts, a), None))
res = minimize(base.nll, np.zeros(data[0][0][0].shape[1]), args=(data[0],), jac=base.grad,
               method="L-BFGS-B")
print(f"richer logit ({len(res.x)} weights): {res.fun:.3f} on the fit, "
      f"{base.nll(res.x, data[1]):.3f} held out")
