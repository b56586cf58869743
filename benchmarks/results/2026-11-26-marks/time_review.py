"""How long the default review of whole games takes here (2 threads, as `ekonos review`), and how
many decisions each look took:
  .venv/bin/python benchmarks/results/2026-11-26-marks/time_review.py GAMES/game-2-4p.json ..."""
import json
import sys
import time

from search import review

for f in sys.argv[1:]:
    start, moves, ply0 = review.replay_record(json.load(open(f)))
    t0 = time.perf_counter()
    r = review.review_game(start, moves, seed=0, ply0=ply0, workers=2)
    sec = time.perf_counter() - t0
    m = [d.method for d in r.decisions]
    print(f"{f}: {sec:.1f} s, {len(r.decisions)} decisions, {m.count('second')} second, "
          f"{m.count('deep')} deep, {sum(1 for d in r.decisions if d.mark)} marks", flush=True)
