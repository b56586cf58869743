"""How often does the light playout policy (eps 0, 40 seeds a position) make level 3's use of a
card (place / protect / grow), 6 players, the kept games of 2026-11-27-infer?  By round and by
the top company's state (as protect.py), with the mover a holder of it or not.  FIT=1: the
fitted card turns of `playout=fit` (run at b98c03f, where light_move takes a fifth argument)."""
import os, pickle
from collections import Counter
from ekonos.rules import DECK
from ekonos import rules
from search._flat import light_move
FIT = bool(os.environ.get("FIT"))
OUT = os.environ.get("OUT", "/tmp/w")
USES = ("place", "protect", "grow")
def use(a):
    return USES[0] if a % 74 < 36 else USES[1] if a % 74 < 72 else USES[2]
games = pickle.load(open(OUT + "/games_0_40.pkl", "rb"))
lv, pol, same_card = Counter(), Counter(), Counter()
for rec in games:
    for st, a in rec:
        t = DECK[a // 74].top
        soft = [s for s in st.tiles(t) if not st.is_protected(s)]
        others = {s for k in range(6) if k != t for s in st.tiles(k)}
        exposed = [s for s in soft if any(n in others for n in rules.ADJACENCY[s])]
        j = st.to_move
        key = (st.round, "exposed" if exposed else ("soft" if soft else "none"),
               "holder" if st.shares(j, t) > 0 else "no share")
        view = st.view(j)
        lv[key + (use(a),)] += 1
        for s in range(40):
            b = light_move(view, s, 0.0, 0, True) if FIT else light_move(view, s)
            pol[key + (use(b),)] += 1 / 40
            same_card[key] += (b // 74 == a // 74) / 40
for key in sorted({k[:3] for k in lv}):
    n = sum(lv[key + (u,)] for u in USES)
    print(key, n, "level 3:", {u: lv[key + (u,)] for u in USES},
          "policy:", {u: round(pol[key + (u,)]) for u in USES},
          "same card:", round(same_card[key]))
