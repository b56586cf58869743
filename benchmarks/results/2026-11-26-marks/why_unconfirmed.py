"""Why a first review's marks go unconfirmed: each mark of a first_vs_deep run beside the deep
review's figures for the same decision (LAB.json's `details`), and the unconfirmed ones sorted
into three kinds:
  - the reference's own doubt: the deep review's mean loss clears the mark's threshold but its
    interval is wide, so its lower end (what it marks by) does not;
  - at the threshold: the two losses within 1 point of each other;
  - a disagreement: the deep review measures a loss lower by more than a point.
    python why_unconfirmed.py LAB.json RUN.json"""
import json
import sys

from search.review import MARKS

RANK = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
LIMIT = {name: limit for limit, name in MARKS}
lab, run = (json.load(open(p)) for p in sys.argv[1:3])
deep = {(e["game"], e["ply"], e["seat"]): e["deep"] for e in lab["details"]}
kinds = {"reference's doubt": [], "at the threshold": [], "disagreement": []}
confirmed = 0
for m in run["marks"]:
    d = deep.get((m["game"], m["ply"], m["seat"]))
    ok = d is not None and RANK[d["mark"]] >= RANK[m["mark"]]
    confirmed += ok
    dl = d["loss"] if d else None
    print(f"{'ok' if ok else '--'} game {m['game']} ply {m['ply']:3d} {m['mark']:10s} "
          f"{m['loss']:6.2f} [{m['low']}, {m['high']}]  deep: {d['mark'] if d else None} "
          f"{dl} [{d.get('low') if d else None}, {d.get('high') if d else None}]")
    if ok:
        continue
    if dl is not None and dl >= LIMIT[m["mark"]]:
        kinds["reference's doubt"].append(m)
    elif dl is not None and abs(m["loss"] - dl) <= 1.0:
        kinds["at the threshold"].append(m)
    else:
        kinds["disagreement"].append(m)
print(f"confirmed {confirmed} of {len(run['marks'])}; unconfirmed: "
      + ", ".join(f"{k} {len(v)}" for k, v in kinds.items()))
higher = sum(1 for m in kinds["disagreement"]
             if (deep.get((m["game"], m["ply"], m["seat"])) or {}).get("loss") is None
             or m["loss"] > deep[(m["game"], m["ply"], m["seat"])]["loss"])
print(f"disagreements where the first review's loss is the higher: {higher} of "
      f"{len(kinds['disagreement'])}")
