"""How much of the noise in comparing two root moves common random numbers remove: the standard
deviation over repeated runs of (mean win share of move a - that of move b), K iterations each,
with crn off and on.

Needs `crn.patch` (beside this file) applied and built; run from the repository root:
    PYTHONPATH=. python benchmarks/results/2026-12-02-crn/crnvar.py 100 30
"""
import statistics, sys, random
sys.path.insert(0, "tests")
from search.bots import make_bot
from helpers import card_positions

K, R = int(sys.argv[1]), int(sys.argv[2])
bot = make_bot("ismcts:iterations=2000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5")
for st in card_positions(4)[:4]:
    view = st.view(st.to_move)
    legal = view.legal_actions()
    rnd = random.Random(1)
    pairs = [tuple(rnd.sample(legal, 2)) for _ in range(3)]
    for a, b in pairs:
        out = {}
        for crn in (0, 1):
            diffs = []
            for rep in range(R):
                s = bot.searcher(4)
                means = []
                for k, m in enumerate((a, b)):
                    s.forced = m
                    s.crn, s.crn_i = ((rep * 7919 + 13) if crn else 0), 0
                    s.run(view, st.to_move, iterations=K, seed=rep + 1, more=k > 0)
                    mv = [x for x in s.root_moves(0) if x["action"] == m][0]
                    means.append(mv["win"])
                diffs.append(means[0] - means[1])
            out[crn] = (statistics.mean(diffs), statistics.stdev(diffs))
        print(f"{st.nplayers}p legal {len(legal)} a={a} b={b}: diff {out[0][0]:+.4f} sd {out[0][1]:.4f} | crn diff {out[1][0]:+.4f} sd {out[1][1]:.4f} | sd ratio {out[1][1]/out[0][1]:.2f}", flush=True)
