"""The spread (standard deviation) of the mover's rewards in a level-3 search, by round: every
7th decision of P-player games that level 1 plays (seeds 500..), searched by level 3 at 25 000
iterations.  Needs `cstd.patch` (it adds `Searcher.reward_spread`).  Run from the patched
tree: PYTHONPATH=. python spread.py P GAMES (spread.txt: 2 6, then 4 4)."""
import sys, numpy as np
from ekonos import State
from search.bots import make_bot
P=int(sys.argv[1]); G=int(sys.argv[2])
b=make_bot("level3"); fast=make_bot("level1")
out={}
for g in range(G):
    st=State.new(players=P, seed=500+g)
    k=0
    while not st.is_over():
        v=st.view(st.to_move)
        if k % 7 == 0:
            s=b.searcher(P)
            s.run(v, st.to_move, iterations=25000, seed=g*1000+k)
            sp=s.reward_spread[st.to_move]
            out.setdefault(st.round, []).append(sp)
        st.push(fast.choose(v, seed=k)); k+=1
for r in sorted(out):
    a=np.array(out[r]); print(f"P={P} round {r}: n={len(a)} spread median {np.median(a):.3f} p10 {np.percentile(a,10):.3f} p90 {np.percentile(a,90):.3f}")
