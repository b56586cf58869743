"""first_vs_deep.py with the marks' figures kept (loss, interval, method) and the second look's
replicates and share given, for comparing second looks against one deep reference:
  .venv/bin/python benchmarks/results/2026-11-26-marks/first_vs_deep_looks.py R S LAB.json 'GAMES/*.json'
R S = 8 0.125 is the shipped second look (with the deep look after it, since it was added);
3 1.5 and 3 3 are the deeper second looks measured on set B (run at commit e2fbb56, before the
deep look existed: there they are the only look after the first)."""
import glob, json, sys, time
from types import SimpleNamespace as NS
from search import review
from search.lab.review_marks import compare

R, S = int(sys.argv[1]), float(sys.argv[2])
review.SECOND_SHARE = S
lab = json.load(open(sys.argv[3]))
files = sorted(glob.glob(sys.argv[4]))
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
print(json.dumps({"replicates": R, "second_share": S, "seconds": secs, "marks": out,
                  "rows": [r.to_dict() for r in compare(pairs)]}, indent=1))
