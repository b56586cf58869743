"""Calibration maps measured on self-play folders none of them was fitted on: per player count,
each map's calibration error and largest decile gap, with a 90% interval of the largest gap
from resampling the games (the bootstrap, by game: a decile's share won moves with the games
drawn, and the interval says how much of a gap is the games').

    python benchmarks/results/2026-11-27-gen3/check_maps.py FOLDER... -- MAP...
"""
import sys

import numpy as np

from search import calibration_map
from search.learn import calibration, calibration_fit

RESAMPLES = 200

args = sys.argv[1:]
folders, maps = args[:args.index("--")], args[args.index("--") + 1:]
data, _, _ = calibration_fit.read_folders(folders)
rng = np.random.default_rng(0)


def largest_gap(pred, won):
    return max(abs(r["difference"]) for r in calibration.table(pred, won))


for name in maps:
    curve = calibration_map.load(name)
    print(name)
    for n in range(2, 7):
        at = np.flatnonzero(data["players"] == n)
        pred, won, key = curve.shares(data["q"][at], n), data["win"][at], data["key"][at]
        rows = calibration.table(pred, won)
        games, index = np.unique(key, return_inverse=True)
        by_game = [np.flatnonzero(index == g) for g in range(len(games))]
        gaps = []
        for _ in range(RESAMPLES):
            pick = np.concatenate([by_game[g] for g in rng.integers(0, len(games), len(games))])
            gaps.append(largest_gap(pred[pick], won[pick]))
        lo, hi = np.percentile(gaps, [5, 95])
        worst = max(rows, key=lambda r: abs(r["difference"]))
        print(f"  {n} players: error {calibration.error(rows):.3f}, largest decile gap "
              f"{abs(worst['difference']):.3f} (shown {worst['predicted']:.2f}, won "
              f"{worst['realized']:.2f}; resampled games 90%: {lo:.3f} to {hi:.3f}), "
              f"{len(at)} positions, {len(games)} games")
