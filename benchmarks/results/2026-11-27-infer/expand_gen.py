"""Level-3 self-play: at each growth to 4, did the search wait?  Cards left in the game then."""
import sys
from collections import Counter
from ekonos import State
from ekonos.rules import Step
from search.bots import make_bot, derive_seed

P, N = int(sys.argv[1]), int(sys.argv[2])
rows = []
for g in range(N):
    st = State.new(P, seed=derive_seed(9101, P, g))
    bots = [make_bot("level3", seed=derive_seed(9102, P, g, q)) for q in range(P)]
    while not st.is_over():
        seat = st.to_move
        v = st.view(seat)
        if v.count_legal() == 1:
            st.push(v.nth_legal(0)); continue
        a = bots[seat].choose(v)
        if st.step is Step.EXPAND_CHOICE:
            per_round = {2: 12, 3: 18, 4: 24, 5: 25, 6: 36}[P]
            left = sum(st.hand_size(q) for q in range(P)) + (st.rounds - st.round) * per_round
            rows.append((st.round, left, st.move_text(a)))
        st.push(a)
    print(g, len(rows), file=sys.stderr, flush=True)
by = Counter()
for r, left, m in rows:
    by[(left // 12, "wait" in m)] += 1
print(f"{P} players, {N} games, {len(rows)} choices at 4")
for k in sorted({k for k, _ in by}):
    w, e = by[(k, True)], by[(k, False)]
    print(f"  cards left {12*k}-{12*k+11}: waited {w} of {w+e}")
