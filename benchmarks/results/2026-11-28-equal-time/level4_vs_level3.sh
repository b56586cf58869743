#!/bin/bash
# Level 4 against level 3 head to head with 5 and 6 players (the ladder's step not measured
# before at these counts), seats rotated, fixed seeds, one process per player count, each
# stopped by SIGINT after BOX seconds (the arena then prints the games played so far).
set -u
PY=${PY:-.venv/bin/python}
OUT=${OUT:-benchmarks/results/2026-11-28-equal-time}
BOX=${BOX:-3600}
for p in 5 6; do
  timeout -s INT "$BOX" "$PY" -m cli.main arena -p "$p" --bot level4 --bot level3 -n 600 \
      --seed "$(( 200 + p ))" -w 1 --json -q > "$OUT/arena-level4-vs-level3-${p}p-seed$(( 200 + p )).json" \
      2> "$OUT/arena-level4-vs-level3-${p}p.err" &
done
wait
