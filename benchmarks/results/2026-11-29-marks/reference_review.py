"""The reference review of a marks set as set C's was made (the review as it was before the
deeper deep look: the deep look 3 searches of 3 times the first look's budget per move, on the
second look's seed stream), at FACTOR times the default budget with another seed:
`ekonos lab review-marks` with those two constants set back.
  .venv/bin/python benchmarks/results/2026-11-29-marks/reference_review.py GAMES/*.json --factor 16 --json"""
import sys

from search import review

review.DEEP_SHARE, review.DEEP_REPLICATES = 3, 3
review._SEED_DEEP = review._SEED_SECOND
from cli.main import main  # noqa: E402

sys.argv = ["ekonos", "lab", "review-marks"] + sys.argv[1:]
main()
