"""When does level 3 protect with its card (6 players, the kept games)?"""
import os, pickle
from collections import Counter
OUT = os.environ.get("OUT", "/tmp/w")
from ekonos.rules import DECK
from ekonos import rules
games = pickle.load(open(OUT + "/games_0_40.pkl", "rb"))
tab = Counter()
for rec in games:
    for st, a in rec:
        card, sub = divmod(a, 74)
        use = "place" if sub < 36 else ("protect" if sub < 72 else "grow")
        t = DECK[card].top
        mine = st.tiles(t)
        soft = [s for s in mine if not st.is_protected(s)]
        others = {s for k in range(6) if k != t for s in st.tiles(k)}
        exposed = [s for s in soft if any(n in others for n in rules.ADJACENCY[s])]
        j = st.to_move
        key = (st.round, "exposed" if exposed else ("soft" if soft else "none"),
               "holder" if st.shares(j, t) > 0 else "no share")
        tab[key + (use,)] += 1
for key in sorted({k[:3] for k in tab}):
    n = sum(tab[key + (u,)] for u in ("place", "protect", "grow"))
    print(key, n, "plays:", {u: tab[key + (u,)] for u in ("place", "protect", "grow")})
