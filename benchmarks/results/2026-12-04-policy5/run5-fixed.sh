#!/bin/bash
# usage: run5-fixed.sh PNET SEED -- as run5.sh (level 3's 5-player search, SPEC2000, with PNET
# against the same search without it), but at a fixed count with no test of its own, so that the
# shard never stops at a bound and can be pooled: `ekonos lab pool-sprt --by win --sprt 0,30`.
# Writes /work/runs/pnet/arena-5p-seedSEED.json (copied here when read).
cd /work/main
mkdir -p /work/runs/pnet
S='ismcts:iterations=2000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,model=eval-0678b3d9c83c'
.venv/bin/ekonos arena -p 5 --bot "$S,pnet=$1" --bot "$S" -n 3000 --seed $2 -w 1 --json \
  > /work/runs/pnet/arena-5p-seed$2.json 2> /work/runs/pnet/$2.err
