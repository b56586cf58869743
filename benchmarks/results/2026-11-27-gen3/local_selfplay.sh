#!/bin/bash
# Generation-3 self-play on this 2-core machine, in the background of a session: rounds of
# GAMES more games per player count (the same spec and seed each time, so every call only adds
# games STEP*(k-1) .. STEP*k-1 of the seed's sequence), at nice 19 so the session's own work
# goes first, until UNTIL (epoch seconds) or the file data/gen3/STOP.
#   UNTIL=$(date -d '+2 hours' +%s) nohup bash benchmarks/results/2026-11-27-gen3/local_selfplay.sh &
set -u
PY=${PY:-.venv/bin/python}
SEED=${SEED:-40}
STEP=${STEP:-20}
UNTIL=${UNTIL:?}
SPEC=ismcts:iterations=4000,c=0.3,horizon=1,plain=1,root=halving,model=eval-5ec0e708e0a8
k=1
while :; do
  for p in 2 3 4 5 6; do
    [ "$(date +%s)" -lt "$UNTIL" ] && [ ! -e data/gen3/STOP ] || exit 0
    nice -n 19 "$PY" -m cli.main learn selfplay -p "$p" -n $((STEP * k)) --spec "$SPEC" --seed "$SEED" \
        -o "data/gen3/local-s$SEED/p$p" --games-per-shard 5 --explore 4 -w 2 -q || exit 1
  done
  echo "round $k done $(date +%T)"
  k=$((k + 1))
done
