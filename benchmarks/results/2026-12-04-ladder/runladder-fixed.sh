#!/bin/bash
# usage: runladder-fixed.sh P SEED -- as runladder.sh (level 4 against level 3 with P players),
# but at a fixed count with no test of its own, so that no shard stops at a bound and all can
# be pooled: `ekonos lab pool-sprt --by win --sprt 0,30`.
# Writes /work/runs/ladder/arena-ladder-Pp-seedSEED.json (copied here when read).
cd /work/main
mkdir -p /work/runs/ladder
.venv/bin/ekonos arena -p $1 --bot level4 --bot level3 -n 2000 --seed $2 -w 1 --json \
  > /work/runs/ladder/arena-ladder-$1p-seed$2.json 2> /work/runs/ladder/$2.err
