"""first_vs_deep.py (2026-11-26-marks) with the deep look's depth and count set:
DEEP_SHARE and DEEP_REPLICATES from the environment (defaults: the review's), and CALIBRATION,
a map file for the review's shares (default: the shipped map).
  DEEP_SHARE=8 .venv/bin/python benchmarks/results/2026-11-28-marks/deep_share.py LAB.json 'GAMES/*.json'"""
import os
import runpy
import sys

from search import review

review.DEEP_SHARE = float(os.environ.get("DEEP_SHARE", review.DEEP_SHARE))
review.DEEP_REPLICATES = int(os.environ.get("DEEP_REPLICATES", review.DEEP_REPLICATES))
if os.environ.get("CALIBRATION"):   # the map the reference was reviewed with (a file)
    _load = review.calibration_map.load
    review.calibration_map.load = lambda name="": _load(name or os.environ["CALIBRATION"])
print(f"deep look: {review.DEEP_REPLICATES} of {review.DEEP_SHARE}", file=sys.stderr)
sys.argv = [sys.argv[0]] + sys.argv[1:]
runpy.run_path(os.path.join(os.path.dirname(__file__), "..", "2026-11-26-marks", "first_vs_deep.py"),
               run_name="__main__")
