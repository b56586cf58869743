"""Two calibration maps on the same held-out games of generation 2's self-play (the 30% that
`ekonos learn calibration-map` with its default --heldout 0.3 --seed 1 holds out): per player
count, each map's calibration error (mean |won - predicted| over the deciles, weighted by
count) and its largest decile gap.

    python benchmarks/results/2026-11-26-gen2/cmp_maps.py benchmarks/results/2026-11-24-gen1/calib-d4c3c8dc3bca.json benchmarks/results/2026-11-26-gen2/calib-83b33408857d.json
"""
import sys

from search import calibration_map
from search.learn import calibration, calibration_fit, net_data

FOLDERS = [f"data/gen2/p{p}" for p in range(2, 7)]

data, _, _ = calibration_fit.read_folders(FOLDERS)
test = net_data.held_out(data, 1, 0.3)
for name in sys.argv[1:]:
    curve = calibration_map.load(name)
    print(name)
    for n in range(2, 7):
        held = (data["players"] == n) & test
        rows = calibration.table(curve.shares(data["q"][held], n), data["win"][held])
        gap = max(abs(r["difference"]) for r in rows)
        print(f"  {n} players: error {calibration.error(rows):.3f}, largest decile gap "
              f"{gap:.3f} ({held.sum()} positions, {len(set(data['key'][held]))} games)")
