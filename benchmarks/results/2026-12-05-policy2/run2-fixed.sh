#!/bin/bash
# usage: run2-fixed.sh PNET SEED -- level 3's 2-player search (25 000 iterations, the spec that
# `level3` is with 2 players) with PNET against the same search without it, at a fixed count
# with no test of its own, so that shards pool: `ekonos lab pool-sprt --by win --sprt 0,30`.
# Writes /work/runs/pnet/arena-2p-seedSEED.json (copied here when read).
cd /work/main
mkdir -p /work/runs/pnet
S='ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,model=eval-0678b3d9c83c'
.venv/bin/ekonos arena -p 2 --bot "$S,pnet=$1" --bot "$S" -n 3000 --seed $2 -w 1 --json \
  > /work/runs/pnet/arena-2p-seed$2.json 2> /work/runs/pnet/$2.err
