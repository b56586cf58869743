"""How a decision's loss moves with the depth of the search that measures it, and whether a
move's value from its later visits only moves less.  For every decision a lab run's deep review
(its `details`) lists, from the review's first look (seed 0): the played and the best move
compared as the second look does (each forced at the root in SLICES alternating slices), at
several depths, and per replicate, per move, the (win, visits) after each slice, so that both
the usual mean (all visits) and the mean of the last slices' visits can be read.
  .venv/bin/python benchmarks/results/2026-11-28-marks/drift.py LAB.json 'GAMES/*.json' OUT.json [FIRST.json]
(the decisions either review of LAB marked or found 4 points or more lost, and those FIRST.json,
a first_vs_deep.py run, marked)
CALIBRATION=FILE: the map of the lab run (default: the shipped one)."""
import glob, json, os, sys
from concurrent.futures import ThreadPoolExecutor

from search import calibration_map, review
from search.analysis import judge_bot, level_params
from search.bots import derive_seed

DEPTHS = [(0.125, 8), (1, 3), (3, 3), (8, 3)]      # (share of the first look per move, replicates)
lab = json.load(open(sys.argv[1]))
files = sorted(glob.glob(sys.argv[2]))
curve = calibration_map.load(os.environ.get("CALIBRATION", ""))
params = level_params(review.DEFAULT_LEVEL)
iters = review.DEFAULT_ITERATIONS


def slices_of(view, actions, per_move, replicates, seed):
    seat, bot, out = view.to_move, judge_bot(params, per_move), []
    for r in range(replicates):
        searcher, trace = bot.searcher(), []
        for k in range(review.SLICES):
            size = per_move // review.SLICES + (1 if k < per_move % review.SLICES else 0)
            for a in actions:
                searcher.forced = a
                searcher.run(view, seat, iterations=size, seed=derive_seed(seed, r),
                             more=searcher.node_count > 0)
            stats = {m["action"]: m for m in searcher.root_moves(0)}
            trace.append([(stats[a]["win"], stats[a]["visits"]) if a in stats else (0.0, 0)
                          for a in actions])
        out.append(trace)
    return out


def one(task):
    g, e, st, mv = task
    view = st.view(st.to_move)
    seed = review.decision_seed(0, e["ply"])
    moves = judge_bot(params, iters).analyse(view, seed=seed, line_length=0).moves
    best = moves[0]
    row = dict(game=g, ply=e["ply"], seat=e["seat"], players=st.nplayers, round=st.round,
               ref=e["deep"], played=mv.action, best=best["action"])
    if best["action"] == mv.action:
        return row
    row["depths"] = {str(s): slices_of(view, (mv.action, best["action"]), max(1, round(iters * s)),
                                       r, derive_seed(seed, review._SEED_SECOND))
                     for s, r in DEPTHS}
    print(g, e["ply"], file=sys.stderr, flush=True)
    return row


def wanted(e, extra):
    """A decision either review marked or found 4 points or more lost, or one marked in EXTRA."""
    return (e["deep"]["mark"] or e["first"]["mark"] or (e["deep"]["loss"] or 0) >= 4
            or (e["first"]["loss"] or 0) >= 4 or (e["game"], e["ply"]) in extra)


extra = set()
if len(sys.argv) > 4:          # a first_vs_deep.py run: its marks are studied too
    extra = {(m["game"], m["ply"]) for m in json.load(open(sys.argv[4]))["marks"]}
tasks = []
for g, f in enumerate(files):
    start, moves, ply0 = review.replay_record(json.load(open(f)))
    steps = review.positions(start, moves)
    for e in lab["details"]:
        if e["game"] == g and wanted(e, extra):
            st, mv = steps[e["ply"] - ply0 - 1]
            tasks.append((g, e, st, mv))
with ThreadPoolExecutor(2) as pool:
    rows = list(pool.map(one, tasks))
json.dump({"depths": DEPTHS, "iterations": iters, "calibration": curve.name, "rows": rows},
          open(sys.argv[3], "w"))
