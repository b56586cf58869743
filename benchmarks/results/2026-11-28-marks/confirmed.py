"""A first_vs_deep.py / deep_share.py run against the lab run whose deep marks it used: with -v
every mark, confirmed (the deep review marks the decision at least as severely:
search.lab.review_marks's rule) or not, with both losses and intervals; then the shares
confirmed, from the run's own rows (review_marks.compare).
  .venv/bin/python benchmarks/results/2026-11-28-marks/confirmed.py LAB.json RUN.json [-v]"""
import json
import sys

from search.lab.review_marks import severity

lab, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
deep = {(e["game"], e["ply"], e["seat"]): e["deep"] for e in lab["details"]}
if "-v" in sys.argv:
    for m in run["marks"]:
        dp = deep.get((m["game"], m["ply"], m["seat"]))
        good = bool(dp and severity(dp["mark"]) >= severity(m["mark"]))
        print("OK " if good else "BAD", m["mark"][:5],
              "first %.1f [%.1f,%.1f]" % (m["loss"], m["low"], m["high"]), m["method"], "ref",
              dp and (dp["mark"], dp["loss"], dp["low"], dp["high"]))
rows = {r["kind"]: r for r in run["rows"]}
print(f"all {rows['all']['confirmed']}/{rows['all']['marks']}  blunder+mistake "
      f"{rows['blunder+mistake']['confirmed']}/{rows['blunder+mistake']['marks']}  "
      f"seconds {run['seconds']}")
