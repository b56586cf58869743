"""Read drift.py's output: per depth, the loss from all of each move's visits (the review's
estimate) and from its last slices' visits only, against the lab run's deep loss.
  .venv/bin/python benchmarks/results/2026-11-28-marks/drift_read.py DRIFT.json [CALIBRATION]"""
import json, statistics, sys

from search import calibration_map

d = json.load(open(sys.argv[1]))
curve = calibration_map.load(sys.argv[2] if len(sys.argv) > 2 else "")


def loss(trace, n, late):
    """Mean over replicates of (best - played) x 100, calibrated; `late`: from the visits of
    the slices after the first `late` (0: all visits)."""
    out = []
    for rep in trace:
        vals = []
        for j in range(2):
            w, v = rep[-1][j]
            if late:
                w0, v0 = rep[late - 1][j]
                w, v = w - w0, v - v0
            vals.append(curve.share(w / v, n) if v else float("nan"))
        out.append((vals[1] - vals[0]) * 100)
    return statistics.fmean(out)


rows = [r for r in d["rows"] if "depths" in r and r["ref"]["loss"] is not None]
print(f"{len(rows)} decisions compared (played != first look's best)")
depths = list(rows[0]["depths"])
for late in (0, 1, 2, 3):
    print(f"-- {'all visits' if not late else f'visits after slice {late}'}")
    for s in depths:
        errs = [loss(r["depths"][s], r["players"], late) - r["ref"]["loss"] for r in rows]
        errs = [e for e in errs if e == e]
        print(f"  depth {s:>6}: mean loss - deep loss {statistics.fmean(errs):+.2f}, "
              f"median {statistics.median(errs):+.2f}, mean |.| {statistics.fmean(abs(e) for e in errs):.2f}")
