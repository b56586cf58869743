"""When does level 3 wait at a growth to 4?  From consecutive card plays of the kept games:
after a card play that leaves an expansion choice for company c, the next card play's track
of c says whether its decider expanded (0) or waited (4)."""
import os, pickle, sys
from collections import Counter
import numpy as np
OUT = os.environ.get("OUT", "/tmp/w")
from ekonos.rules import Step

games = pickle.load(open(OUT + "/games_0_40.pkl", "rb"))
rows = []
for rec in games:
    for (st, a), (nxt, _) in zip(rec, rec[1:]):
        u = st.copy(); u.apply_unchecked(a)
        if u.step is not Step.EXPAND_CHOICE:
            continue
        c = int(u.turn.expansion.company)
        g = nxt.growth(c)
        if g not in (0, 4, 5, 6):
            continue
        wait = g != 0
        dec = u.to_move
        n = u.nplayers
        turns_left = sum(u.hand_size(q) for q in range(n)) + (u.rounds - u.round) * 36
        rows.append(dict(wait=wait, round=u.round, rounds=u.rounds, left=turns_left,
                         tiles=len(u.tiles(c)), mine=u.shares(dec, c),
                         pres=u.president(c) == dec))
print(len(rows), "expansion choices;", sum(r["wait"] for r in rows), "waited")
for key in ("round", "tiles"):
    t = Counter((r[key], r["wait"]) for r in rows)
    for v in sorted({r[key] for r in rows}):
        w, e = t[(v, True)], t[(v, False)]
        print(f"  {key}={v}: waited {w} of {w + e}")
for lo, hi in ((0, 12), (12, 24), (24, 36), (36, 54), (54, 72)):
    sel = [r for r in rows if lo <= r["left"] < hi]
    if sel:
        print(f"  cards left {lo}-{hi - 1}: waited {sum(r['wait'] for r in sel)} of {len(sel)}")
