"""A person playing uniformly at random (seeded) in 20 3-player games against two level-1 AIs,
each game reviewed by the default review: the person's marks, accuracy and final place.
  .venv/bin/python benchmarks/results/2026-11-29-marks/random_person.py"""
import random
from cli.session import GameSession
rows = []
for seed in range(7, 27):
    rng = random.Random(seed)
    s = GameSession.new(ai=2, level=1, seed=seed, name="Ada", seat=1)
    while not s.state.is_over():
        if s.human_to_move():
            s.decide(rng.choice(list(s.state.legal_moves)))
        else:
            s.play_ai()
    r = s.review()
    marks = sum(1 for d in r.decisions if d.mark and d.seat == s.human)
    others = sum(1 for d in r.decisions if d.mark and d.seat != s.human)
    sc = s.state.scores()
    place = 1 + sum(1 for q in range(3) if sc[q] > sc[s.human])
    rows.append((seed, marks, others, round(r.accuracy(s.human), 1), place, list(sc)))
    print(rows[-1], flush=True)
print("person's marks", sum(r[1] for r in rows), "AIs' marks", sum(r[2] for r in rows),
      "places", [r[4] for r in rows])
