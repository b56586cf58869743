#!/bin/bash
# Level 3's search with playouts to the game's end (horizon=0) against the same search scored by
# the linear model after a round (horizon=1, level 3's), at EQUAL THINK TIME, 5 and 6 players,
# on a lent 16-core machine in one call of the device tool (8 processes per arena, each arena
# stopped by SIGINT at the time box; the arena then prints the games played so far).
# Why: a 6-player game has two rounds, so a round-1 search of level 3 is scored at the last
# round's start, where the linear model reads almost nothing (held-out 1.784 against even
# odds' 1.792): the playouts to the end may judge better for the same time.
# Locally: OUT=/tmp/out BOX=60 N5=10 N6=12 W=1 SKIP_BUILD=1 PY=.venv/bin/python bash benchmarks/results/2026-11-28-equal-time/device_horizon.sh
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:?}
BOX=${BOX:-320}          # seconds of play, at most
TIME=${TIME:-0.08}       # think seconds per decision, both bots
W=${W:-8}                # processes per arena
N5=${N5:-400}; N6=${N6:-396}
PY=$(command -v "${PY:-python3}")
start=$(date +%s)
echo "cores $(nproc); $($PY -V)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $PY setup.py -q build_ext --inplace -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
SEARCH="c=0.3,plain=1,root=halving"
for p in 5 6; do
  n=N$p
  timeout -s INT "$BOX" $PY -m cli.main arena -p $p --bot "ismcts:time=$TIME,$SEARCH,horizon=0" \
      --bot "ismcts:time=$TIME,$SEARCH,horizon=1,model=eval-5ec0e708e0a8" -n "${!n}" --seed "$(( 190 + p ))" \
      -w "$W" -q --json > "$OUT/arena-h0-vs-h1-${p}p-time$TIME-seed$(( 190 + p )).json" \
      2> "$OUT/arena-h0-${p}p.err" &
done
wait
echo "done at $(( $(date +%s) - start )) s"
for p in 5 6; do
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1], [(b['games'], round(b['win_share'],3), b['think']) for b in d['bots']], d['ratings']['elo'][0]['elo'], d['ratings']['elo'][0]['ci95'], d['stopped'])" "$OUT"/arena-h0-vs-h1-${p}p-*.json
done
