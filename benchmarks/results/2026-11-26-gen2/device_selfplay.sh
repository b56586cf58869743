#!/bin/bash
# Generation-2 self-play on a lent 16-core machine, in one call of the device tool:
# build the extensions for its Python, play a fixed number of games per player count
# (the same spec as generation 1, a fresh seed) under a time box, and pack each folder's
# shards (arrays unzipped, then xz) so that all of it comes back under the tool's limits
# (8 files of 16 MiB, 64 MiB in all).  Run from the repository root; OUT is where files go.
# Locally: OUT=/tmp/out BOX=20 SCALE=0.01 bash benchmarks/results/2026-11-26-gen2/device_selfplay.sh
# NAME names the folder data/NAME and the archives (generation 3: NAME=gen3-s41 SEED=41).
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:?}
BOX=${BOX:-380}          # seconds of self-play, at most
SCALE=${SCALE:-1}        # fraction of the planned games (a local dry run)
PY=$(command -v "${PY:-python3}"); case $PY in /*) ;; *) PY=$PWD/$PY ;; esac
NAME=${NAME:-gen2}
LOG=/tmp/$NAME-logs; mkdir -p "$LOG"
SPEC=ismcts:iterations=4000,c=0.3,horizon=1,plain=1,root=halving,model=eval-5ec0e708e0a8
start=$(date +%s)
echo "cores $(nproc); $($PY -V)"; $PY -c "import numpy, click, rich; print('numpy', numpy.__version__)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  $PY setup.py -q build_ext --inplace -j "$(nproc)" > "$LOG/build.log" 2>&1 || { tail -40 "$LOG/build.log"; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
# players:workers:games -- workers in proportion to a game's cost (generation 1's positions
# per second per core: 136 / 96 / 74 / 73 / 52), games so that the packed data fits 64 MiB.
PLAN="2:2:460 3:3:460 4:3:420 5:4:440 6:4:380"
mkdir -p data/$NAME
for item in $PLAN; do
  IFS=: read -r p w n <<< "$item"
  n=$(awk -v n="$n" -v s="$SCALE" 'BEGIN { m = int(n * s); print (m < 2 ? 2 : m) }')
  timeout -s INT "$BOX" $PY -m cli.main learn selfplay -p "$p" -n "$n" --spec "$SPEC" --seed "${SEED:-36}" \
      -o "data/$NAME/p$p" --games-per-shard 5 --explore 4 -w "$w" -q > "$LOG/selfplay-p$p.log" 2>&1 &
done
wait
echo "self-play done at $(( $(date +%s) - start )) s"
pack() {  # one archive per player count: manifest + each shard's arrays as .npy, xz
  p=$1; d=data/$NAME/p$p; r=/tmp/raw-$NAME/p$p; mkdir -p "$r"
  cp "$d/manifest.json" "$r/" 2>/dev/null || { echo "p$p: no manifest"; return; }
  for f in "$d"/shard-*.npz; do b=$(basename "$f" .npz); mkdir -p "$r/$b"; (cd "$r/$b" && $PY -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall()" "$OLDPWD/$f"); done
  tar cf - -C /tmp/raw-$NAME "p$p" | xz -T3 -6 > "$OUT/$NAME-p$p.tar.xz"
}
for p in 2 3 4 5 6; do pack $p & done
wait
ls -la "$OUT"; du -cb "$OUT"/$NAME-*.tar.xz | tail -1
for p in 2 3 4 5 6; do tail -2 "$LOG/selfplay-p$p.log"; done
cat "$LOG"/*.log > "$OUT/run.log"
echo "all done at $(( $(date +%s) - start )) s"
