#!/bin/bash
# Two bots at EQUAL THINK TIME, 5 and 6 players, on a lent 16-core machine in one call of the
# device tool: build the extensions for its Python, then two arenas side by side (W processes
# each), each stopped by SIGINT at the time box (the arena then prints the games played so far).
# Both bots search level 3's way for TIME seconds a decision.  By default (the run of
# 2026-11-27): the generation-3 network against the linear model at the horizon; A, B, NAME and
# SEED set another pair (device_horizon.sh).  (The run of 2026-11-27 spelled the same parameters
# in another order: c=0.3,horizon=1,plain=1,root=halving,….)
# Locally: OUT=/tmp/out BOX=60 N5=10 N6=12 W=1 SKIP_BUILD=1 PY=.venv/bin/python bash benchmarks/results/2026-11-28-equal-time/device_arena.sh
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:?}
BOX=${BOX:-470}          # seconds of play, at most
TIME=${TIME:-0.08}       # think seconds per decision, both bots
W=${W:-8}                # processes per arena
N5=${N5:-400}; N6=${N6:-396}
NET=${NET:-benchmarks/results/2026-11-27-gen3/net-277ee32c2b32.json}
SEARCH="c=0.3,plain=1,root=halving"
A=${A:-horizon=1,net=$NET}
B=${B:-horizon=1,model=eval-5ec0e708e0a8}
NAME=${NAME:-net-vs-linear}
SEED=${SEED:-180}        # the arena of P players: seed SEED + P
PY=$(command -v "${PY:-python3}")
start=$(date +%s)
echo "cores $(nproc); $($PY -V)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $PY setup.py -q build_ext --inplace -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
for p in 5 6; do
  n=N$p
  timeout -s INT "$BOX" $PY -m cli.main arena -p $p --bot "ismcts:time=$TIME,$SEARCH,$A" \
      --bot "ismcts:time=$TIME,$SEARCH,$B" -n "${!n}" --seed "$(( SEED + p ))" \
      -w "$W" -q --json > "$OUT/arena-$NAME-${p}p-time$TIME-seed$(( SEED + p )).json" \
      2> "$OUT/arena-$NAME-${p}p.err" &
done
wait
echo "done at $(( $(date +%s) - start )) s"
for p in 5 6; do
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1], [(b['games'], round(b['win_share'],3), b['think']) for b in d['bots']], d['ratings']['elo'][0]['elo'], d['ratings']['elo'][0]['ci95'], d['stopped'])" "$OUT"/arena-$NAME-${p}p-*.json
done
