#!/bin/bash
# Each level against the one below with 3, 5 and 6 players (4 players: the ladder's table), seats
# rotated, fixed seeds, two processes: level 2 against level 1, level 3 against level 2.
set -u
PY=${PY:-.venv/bin/python}
OUT=${OUT:-benchmarks/results/2026-11-27-gen3}
N=${N:-60}
for pair in "level2 level1 160" "level3 level2 170"; do
  set -- $pair
  for p in 3 5 6; do
    n=$(( (N + p - 1) / p * p ))
    "$PY" -m cli.main arena -p "$p" --bot "$1" --bot "$2" -n "$n" --seed "$(( $3 + p ))" -w 2 --json -q \
        > "$OUT/arena-$1-vs-$2-${p}p-seed$(( $3 + p )).json" || exit 1
    echo "$1 vs $2, $p players: done $(date +%T)"
  done
done
