"""The first review of this tree (seed 0, default budget) on the games of a lab run, compared
with that run's deep marks (its `details` list every decision marked on either side), so two
first reviews can be held against one deep reference without running the deep review again.
R S (optional) set the second look: R replicates, each move forced for S times the first look's
budget in each (default: the tree's REPLICATES and SECOND_SHARE).  Each mark is kept with its
loss, interval and method.  Run from a checkout of the review to test:
  .venv/bin/python benchmarks/results/2026-11-26-marks/first_vs_deep.py LAB.json 'GAMES/*.json' [R S]
`8 0.125` is the shipped second look (the deep look after it since it was added); `3 1.5` and
`3 3` were run at commit e2fbb56, before the deep look, where they are the only look after the
first."""
import glob, json, sys, time
from types import SimpleNamespace as NS
from search import review
from search.lab.review_marks import compare

R = int(sys.argv[3]) if len(sys.argv) > 3 else review.REPLICATES
review.SECOND_SHARE = float(sys.argv[4]) if len(sys.argv) > 4 else review.SECOND_SHARE
lab = json.load(open(sys.argv[1]))
files = sorted(glob.glob(sys.argv[2]))
deep = {}
for e in lab["details"]:
    deep.setdefault(e["game"], []).append(NS(ply=e["ply"], seat=e["seat"], mark=e["deep"]["mark"]))
pairs, secs, out = [], [], []
for g, f in enumerate(files):
    start, moves, ply0 = review.replay_record(json.load(open(f)))
    t0 = time.perf_counter()
    r = review.review_game(start, moves, seed=0, ply0=ply0, workers=2, replicates=R)
    secs.append(round(time.perf_counter() - t0, 1))
    first = [NS(ply=d.ply, seat=d.seat, mark=d.mark) for d in r.decisions]
    out += [dict(game=g, ply=d.ply, seat=d.seat, mark=d.mark, loss=d.loss, low=d.low, high=d.high,
                 method=d.method) for d in r.decisions if d.mark]
    pairs.append((first, deep.get(g, [])))
    print(g, secs[-1], file=sys.stderr, flush=True)
print(json.dumps({"replicates": R, "second_share": review.SECOND_SHARE, "seconds": secs,
                  "marks": out, "rows": [r.to_dict() for r in compare(pairs)]}, indent=1))
