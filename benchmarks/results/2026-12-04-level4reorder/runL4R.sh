#!/bin/bash
# usage: runL4R.sh SEED -- level 4 with the 3-player network's logits in the halving's ranking,
# every root move kept, against `linear` with 3 players, by score (docs/strength.md,
# "level4-reorder-3p"). Writes /work/runs/l4r/arena-l4r-3p-seedSEED.json (copied here when read);
# stopped by SIGINT with ../2026-12-04-ladder/stop.sh HH:MM.
cd /work/main
mkdir -p /work/runs/l4r
L4R="ismcts:iterations=75000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5"
L4R="$L4R,pnet=3:net-9e28b35287ad,ptop=2759,pweight=3:0.6"
.venv/bin/ekonos arena -p 3 --bot "$L4R" --bot linear --sprt 0,30 -n 3000 --seed $1 -w 1 --json \
  > /work/runs/l4r/arena-l4r-3p-seed$1.json 2> /work/runs/l4r/$1.err
