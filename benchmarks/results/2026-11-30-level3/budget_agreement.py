"""Item 5 diagnostic (docs/strength.md, level3-5000): how often level 3's spec at 500, 2 000 and
25 000 iterations picks level 4's move, and what it loses by level 4's own win shares.
Usage: python budget_agreement.py PLAYERS POSITIONS (run from the repository root)."""
import random, statistics, sys
from ekonos import State
from search.bots import make_bot
S='ismcts:iterations={},c=0.5,cfor=5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4'
def positions(count, players, seed):
    rng = random.Random(seed); out=[]; game=0
    bot = make_bot('level1', seed=3)
    while len(out) < count:
        st = State.new(players, seed=seed+game); game += 1
        while not st.is_over():
            if st.count_legal() > 1 and rng.random() < 0.08:
                out.append(st.copy())
            st.push(bot.choose(st.view(st.to_move)))
    return out[:count]
if __name__ == "__main__":
    players=int(sys.argv[1]); n=int(sys.argv[2])
    deep=make_bot('level4', seed=11)
    cheap={b: make_bot(S.format(b), seed=13) for b in (500, 2000, 25000)}
    res={b: [] for b in cheap}
    for st in positions(n, players, 900+players):
        v=st.view(st.to_move)
        moves=deep.analyse(v.copy(), seed=5).moves
        win={m['action']: m['win'] for m in moves}
        best=moves[0]['action']
        for b,bot in cheap.items():
            a=bot.choose(v.copy(), seed=5)
            res[b].append((a==best, win[best]-win.get(a, 0.0), len(moves)))
    for b,r in res.items():
        agree=sum(x[0] for x in r)/len(r)
        reg=statistics.mean(x[1] for x in r)
        print(f"{players}p budget {b}: agrees with level 4 on {agree:.0%} of {len(r)}; mean regret by level 4's own win shares {reg:.4f}")
