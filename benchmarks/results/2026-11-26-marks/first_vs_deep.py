"""The first review of this tree (seed 0, default budget) on the games of a lab run, compared
with that run's deep marks (its `details` list every decision marked on either side), so two
first reviews can be held against one deep reference without running the deep review again.
Run from a checkout of the review to test:
  .venv/bin/python benchmarks/results/2026-11-26-marks/first_vs_deep.py LAB.json 'GAMES/*.json'"""
import glob, json, sys, time
from types import SimpleNamespace as NS
from search import review
from search.lab.review_marks import compare

lab = json.load(open(sys.argv[1]))
files = sorted(glob.glob(sys.argv[2]))
deep = {}
for e in lab["details"]:
    deep.setdefault(e["game"], []).append(NS(ply=e["ply"], seat=e["seat"], mark=e["deep"]["mark"]))
pairs, secs, out = [], [], []
for g, f in enumerate(files):
    start, moves, ply0 = review.replay_record(json.load(open(f)))
    t0 = time.perf_counter()
    r = review.review_game(start, moves, seed=0, ply0=ply0, workers=2)
    secs.append(round(time.perf_counter() - t0, 1))
    first = [NS(ply=d.ply, seat=d.seat, mark=d.mark) for d in r.decisions]
    out += [dict(game=g, ply=d.ply, seat=d.seat, mark=d.mark) for d in r.decisions if d.mark]
    pairs.append((first, deep.get(g, [])))
    print(g, secs[-1], file=sys.stderr, flush=True)
print(json.dumps({"replicates": review.REPLICATES, "second_share": review.SECOND_SHARE,
                  "seconds": secs, "marks": out,
                  "rows": [r.to_dict() for r in compare(pairs)]}, indent=1))
