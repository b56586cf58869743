"""The calibration map shipped until generation 2 (calib-d4c3c8dc3bca, fitted on generation 1,
"shipped" below) against maps fitted on generation 2's self-play, over several splits: for each
seed, a map fitted on 70% of generation 2's games (by game) and that map are measured on the
other 30%; per player count the mean over the
splits of the calibration error and of the largest decile gap.

    python benchmarks/results/2026-11-26-gen2/map_splits.py > map_splits.txt
"""
import numpy as np

from search import calibration_map
from search.learn import calibration, calibration_fit, net_data

FOLDERS = [f"data/gen2/p{p}" for p in range(2, 7)]
SEEDS = range(1, 7)

data, _, _ = calibration_fit.read_folders(FOLDERS)
shipped = calibration_map.load("benchmarks/results/2026-11-24-gen1/calib-d4c3c8dc3bca.json")
rows = {n: {"shipped": [], "gen2": []} for n in range(2, 7)}
for seed in SEEDS:
    fitted = calibration_fit.fit(data, 0.3, seed)
    test = net_data.held_out(data, seed, 0.3)
    for n in range(2, 7):
        held = (data["players"] == n) & test
        knots = fitted[str(n)]["knots"]
        xs, ys = np.array([k[0] for k in knots]), np.array([k[1] for k in knots])
        for name, shares in (("shipped", shipped.shares(data["q"][held], n)),
                             ("gen2", np.interp(data["q"][held], xs, ys))):
            t = calibration.table(shares, data["win"][held])
            rows[n][name].append((calibration.error(t), max(abs(r["difference"]) for r in t)))
print(f"{len(SEEDS)} splits of generation 2's games, 30% held out; mean error / mean largest gap")
for n in range(2, 7):
    s, g = np.array(rows[n]["shipped"]), np.array(rows[n]["gen2"])
    print(f"  {n} players: shipped {s[:, 0].mean():.3f} / {s[:, 1].mean():.3f}   "
          f"fitted on generation 2 {g[:, 0].mean():.3f} / {g[:, 1].mean():.3f}")
