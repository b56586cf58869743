"""Probe: temporal-difference targets for the value network.  Each position's teacher is the
linear evaluation's reading D recorded decisions later in the same game (seats turned to this
position's), or the outcome where the game ends sooner; W is the teacher's weight beside the
outcome's (1).  Generation 1's network otherwise (644-32-16 correcting the linear model).

    python benchmarks/results/2026-11-26-gen2/td_probe.py 30 3 data/gen2/p2 ... data/gen2/p6

Needs `net_train.train(..., teacher=)`, which the engine had only at commit 57921a4 (`git
checkout 57921a4`; the idea did not win: docs/strength.md, generation 2)."""
import json, sys
import numpy as np
from search.learn import net_data, net_train, selfplay
from search.evaluation import MAXP

D = int(sys.argv[1]); W = float(sys.argv[2]); folders = sys.argv[3:]
A = selfplay.load_dataset(folders)
n = len(A["x"])
players = A["players"].astype(np.int64)
lin = net_data.linear_shares(A["x"], players)
key = A["game"].astype(np.int64) * 8 + players
T = np.array(A["win"], dtype=np.float64)
idx = np.arange(n)
j = idx + D
ok = (j < n)
ok[ok] &= (key[j[ok]] == key[idx[ok]])
ii = np.where(ok)[0]; jj = ii + D
s_i, s_j, p = A["seat"][ii].astype(np.int64), A["seat"][jj].astype(np.int64), players[ii]
for k in range(MAXP):
    src = (s_i + k - s_j) % p
    T[ii, k] = np.where(k < p, lin[jj, src], 0.0)
cfg = net_train.Config(hidden=(32, 16), steps=4000, batch=512, lr=0.001, weight_decay=0.0001,
                       score_weight=1.0, teacher_weight=W, q_weight=0.0,
                       base="eval-5ec0e708e0a8", heldout=0.2, seed=1)
t = net_train.train(A, cfg, teacher=T)
print(f"D={D} W={W} kept step {t.training['kept_step']}")
for c, m in t.metrics.items():
    print(f"  {c}: {m['win_log_loss']:.4f} against linear {m['linear_win_log_loss']:.4f} "
          f"(calibration error {m['calibration_error']:.3f})")
