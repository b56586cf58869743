#!/bin/bash
# The generation-3 network against the linear model at EQUAL THINK TIME, 5 and 6 players, on a
# lent 16-core machine in one call of the device tool: build the extensions for its Python, then
# two arenas side by side (8 processes each), each stopped by SIGINT at the time box (the arena
# then prints the games played so far).  Both bots search level 3's way for TIME seconds a
# decision; one scores the horizon with the network, the other with the linear model.
# Locally: OUT=/tmp/out BOX=60 N5=10 N6=12 W=1 bash benchmarks/results/2026-11-28-equal-time/device_arena.sh
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:?}
BOX=${BOX:-470}          # seconds of play, at most
TIME=${TIME:-0.08}       # think seconds per decision, both bots
W=${W:-8}                # processes per arena
N5=${N5:-400}; N6=${N6:-396}
NET=${NET:-benchmarks/results/2026-11-27-gen3/net-277ee32c2b32.json}
PY=$(command -v "${PY:-python3}")
start=$(date +%s)
echo "cores $(nproc); $($PY -V)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $PY setup.py -q build_ext --inplace -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
SEARCH="c=0.3,horizon=1,plain=1,root=halving"
for p in 5 6; do
  n=N$p
  timeout -s INT "$BOX" $PY -m cli.main arena -p $p --bot "ismcts:time=$TIME,$SEARCH,net=$NET" \
      --bot "ismcts:time=$TIME,$SEARCH,model=eval-5ec0e708e0a8" -n "${!n}" --seed "$(( 180 + p ))" \
      -w "$W" -q --json > "$OUT/arena-net-vs-linear-${p}p-time$TIME-seed$(( 180 + p )).json" \
      2> "$OUT/arena-${p}p.err" &
done
wait
echo "done at $(( $(date +%s) - start )) s"
for p in 5 6; do
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1], [(b['games'], round(b['win_share'],3), b['think']) for b in d['bots']], d['ratings']['elo'][0]['elo'], d['ratings']['elo'][0]['ci95'], d['stopped'])" "$OUT"/arena-net-vs-linear-${p}p-*.json
done
