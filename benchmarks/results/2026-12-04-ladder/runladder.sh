#!/bin/bash
# usage: runladder.sh P SEED -- the ladder's step from level 3 to level 4 with P players, read by
# the win. Writes /work/runs/ladder/arena-ladder-Pp-seedSEED.json (copied here when read).
cd /work/main
mkdir -p /work/runs/ladder
.venv/bin/ekonos arena -p $1 --bot level4 --bot level3 --sprt 0,30 --sprt-by win -n 2000 \
  --seed $2 -w 1 --json > /work/runs/ladder/arena-ladder-$1p-seed$2.json 2> /work/runs/ladder/$2.err
