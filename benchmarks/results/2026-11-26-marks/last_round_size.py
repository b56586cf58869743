"""Run: .venv/bin/python benchmarks/results/2026-11-26-marks/last_round_size.py
How large is the rest of the game, under full information, from each decision of the last
round?  (Feasibility of a determinized exact solve: each sampled world solved exactly.)"""
import random, time
from collections import defaultdict
from ekonos import State
from search._exact import solve_root
from search.exact import NODE_LIMIT as LIMIT
res = defaultdict(list)   # (players, cards left in all hands) -> nodes or None
for players in (2, 3, 4, 5, 6):
    for seed in range(3):
        rng = random.Random(seed)
        st = State.new(players, seed=seed)
        while not st.is_over():
            if st.round == st.rounds:
                left = sum(st.hand_size(q) for q in range(players))
                t = time.perf_counter()
                found = solve_root(st, st.to_move, LIMIT)
                dt = time.perf_counter() - t
                res[(players, left)].append(None if found is None else (found[1], round(dt, 3)))
            st.push(rng.choice(st.legal_actions()))
for k in sorted(k for k in res if k[1] <= 4):
    v = res[k]; ok = [x for x in v if x]
    print(k, f"{len(ok)}/{len(v)} solved", "max nodes", max((x[0] for x in ok), default=None),
          "max s", max((x[1] for x in ok), default=None))
