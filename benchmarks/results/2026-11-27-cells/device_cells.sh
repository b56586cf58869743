#!/bin/bash
# Refit model cells against level 3 at level 3's budget, side by side on a lent 16-core machine
# in one call of the device tool: build the extensions for its Python, then one SPRT [0, 15]
# arena per line of RUNS (W processes each), each stopped by SIGINT at the time box (the arena
# then prints the games played so far: a shard to pool with `ekonos lab pool-sprt`).
# Locally: OUT=/tmp/out BOX=60 SKIP_BUILD=1 PY=.venv/bin/python bash benchmarks/results/2026-11-27-cells/device_cells.sh
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:?}
BOX=${BOX:-520}          # seconds of play, at most
D=benchmarks/results
SEARCH="ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving"
# name players model seed processes
RUNS=${RUNS:-"refit5 5 $D/2026-11-27-cells/eval-81477ffe6992.json 360 8
last3 3 $D/2026-11-27-cells/eval-c3bdc5a1dd4e.json 361 4
cell6 6 $D/2026-11-30-cells/eval-0678b3d9c83c.json 362 4"}
PY=$(command -v "${PY:-python3}")
start=$(date +%s)
echo "cores $(nproc); $($PY -V)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $PY setup.py -q build_ext --inplace -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
while read -r name p model seed w; do
  timeout -s INT "$BOX" $PY -m cli.main arena -p "$p" --bot "$SEARCH,model=$model" --bot level3 \
      --sprt 0,15 -n 2000 --seed "$seed" -w "$w" -q --json \
      > "$OUT/arena-$name-vs-level3-${p}p-seed$seed.json" 2> "$OUT/arena-$name-${p}p.err" &
done <<< "$RUNS"
wait
echo "done at $(( $(date +%s) - start )) s"
for f in "$OUT"/arena-*.json; do
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['sprt']; print(sys.argv[1].split('/')[-1], [(b['games'], round(b['win_share'],3), b['think']['median']) for b in d['bots']], s['state'], round(s['llr'],2), s['elo'], d['stopped'])" "$f" || cat "${f%.json}.err" 2>/dev/null
done
