"""Do two model files choose alike in 6-player games?  Four seeded games, their first 15
decisions each: both bots (level 3's search at 2 000 iterations, one model each) choose from the
same view with the same seed; the first one's move is played.

    .venv/bin/python benchmarks/results/2026-11-30-cells/same6.py \
        benchmarks/results/2026-11-30-cells/eval-0678b3d9c83c.json \
        benchmarks/results/2026-11-29-refit/eval-05a597b4bba6.json        # 60/60 same choices
    .venv/bin/python benchmarks/results/2026-11-30-cells/same6.py \
        benchmarks/results/2026-11-30-cells/eval-0678b3d9c83c.json eval-5ec0e708e0a8   # 21/60
"""
import sys
from ekonos import State
from search.bots import make_bot
L3 = "ismcts:iterations=2000,c=0.3,horizon=1,plain=1,root=halving"
a = make_bot(f"{L3},model={sys.argv[1]}"); b = make_bot(f"{L3},model={sys.argv[2]}")
same = n = 0
for seed in range(4):
    st = State.new(6, seed=seed)
    for k in range(15):
        if st.is_over(): break
        view = st.view(st.to_move)
        x = a.choose(view, seed=k); y = b.choose(view, seed=k)
        same += x == y; n += 1
        st.push(x)
print(f"{same}/{n} same choices")
