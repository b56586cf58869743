#!/bin/bash
# usage: run-eps5.sh SEED -- level 3's 5-player search with the 4-player rate of random moves in
# its playouts (eps=0.03 with 4 and 5 players: epsfor=45) against level 3, at a fixed count with
# no test of its own, so that shards pool: `ekonos lab pool-sprt --by win --sprt 0,30`.
# Writes /work/runs/eps5/arena-eps5-seedSEED.json (copied here when read).
cd /work/main
mkdir -p /work/runs/eps5
L3='ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=45,cfor=5,iterfor=3:500/45:2000/6:5000,model=eval-0678b3d9c83c,pnet=3:net-9e28b35287ad+4:net-f2feba62f054+5:net-670d7ae93c25,pweight=3:0.3/5:1'
.venv/bin/ekonos arena -p 5 --bot "$L3" --bot level3 -n 3000 --seed $1 -w 1 --json \
  > /work/runs/eps5/arena-eps5-seed$1.json 2> /work/runs/eps5/$1.err
