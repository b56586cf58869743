"""Offline: how much do opponents' card plays tell about their hands (6 players)?"""
import os
OUT = os.environ.get("OUT", "/tmp/w")     # where the games and tables go
import glob, pickle, sys, math, random
import numpy as np
from ekonos import State
from search import evaluation
from search._ismcts import Searcher

S = Searcher(c=0.3); S.set_model(*evaluation.model())

def values(st, j):
    """For every card c (0-35) not played this round: the win share and score margin of seat j
    after each legal card action of c."""
    out = {}
    for c in range(36):
        t = st.copy()
        try:
            t.set_hand(j, [c + 1])
        except ValueError:
            continue
        acts = t.legal_moves.actions()
        w, m = [], []
        for a in acts:
            u = t.copy(); u.apply_unchecked(a)
            if u.is_over():
                sc = u.scores(); win = [1.0 if s == max(sc) else 0 for s in sc]
            else:
                win, sc = S.evaluate(u)
            w.append(win[j]); m.append(sc[j] - max(sc[q] for q in range(len(sc)) if q != j))
        out[c] = (acts, np.array(w), np.array(m))
    return out

def main():
    games = []
    for f in sorted(glob.glob(OUT + "/games_*.pkl")):
        games += pickle.load(open(f, "rb"))
    rows = []   # per card play: game, round, index in round, seat, hand(bitmask list), card, action, values
    for g, rec in enumerate(games):
        for st, a in rec:
            j = st.to_move
            hand = [c - 1 for c in st.hand(j)]
            card = None
            vals = values(st, j)
            rows.append(dict(g=g, r=st.round, k=len(st.discard),
                             j=j, hand=hand, hands=[[c - 1 for c in st.hand(q)] for q in range(st.nplayers)], a=a, vals=vals))
        print("game", g, len(rows), flush=True)
    pickle.dump(rows, open(OUT + "/rows.pkl", "wb"))

if __name__ == "__main__":
    main()
