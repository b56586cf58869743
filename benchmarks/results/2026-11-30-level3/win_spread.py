"""Item 5 diagnostic: the spread of the root's win shares and expected scores over the moves of
a 20 000-iteration search (UCB at the root, moves with 200 visits or more), by round.
Usage: python win_spread.py PLAYERS POSITIONS (run from the repository root)."""
import os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from budget_agreement import positions  # the same positions
from search.bots import make_bot
players=int(sys.argv[1]); n=int(sys.argv[2])
bot=make_bot('ismcts:iterations=20000,c=0.5,cfor=5,horizon=1,plain=1,root=uct,eps=0.03,epsfor=4', seed=11)
sp=[];rounds=[]
for st in positions(n, players, 900+players):
    v=st.view(st.to_move)
    moves=[m for m in bot.analyse(v.copy(), seed=5).moves if m['visits']>=200]
    if len(moves)<2: continue
    w=[m['win'] for m in moves]; s=[m['score'] for m in moves]
    sp.append((max(w)-min(w), max(s)-min(s), st.round, statistics.mean(w)))
for r in sorted(sp,key=lambda x:x[2]): print(f"round {r[2]}: win spread {r[0]:.3f} score spread {r[1]:.2f} mean win {r[3]:.3f}")
print("median win spread", statistics.median(x[0] for x in sp), "median score spread", statistics.median(x[1] for x in sp))
