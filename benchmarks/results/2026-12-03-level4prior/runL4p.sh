#!/bin/bash
# usage: runL4p.sh OPPONENT SEED [BY]  -- level 4 with level 3's priors, 3 players, against
# OPPONENT (linear, level3); BY = win reads the SPRT by the win (the ladder), else by score.
# Writes /work/runs/l4p/arena-L4P-3p-vs-OPPONENT-seedSEED.json (copied here when read).
cd /work/main
L4P='ismcts:iterations=75000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,pnet=3:net-9e28b35287ad+4:net-f2feba62f054,pweight=3:0.3'
by=(); n=3000
if [ "$3" = win ]; then by=(--sprt-by win); n=2000; fi
mkdir -p /work/runs/l4p
.venv/bin/ekonos arena -p 3 --bot "$L4P" --bot "$1" --sprt 0,30 "${by[@]}" -n $n --seed $2 -w 1 \
  --json > /work/runs/l4p/arena-L4P-3p-vs-$1-seed$2.json 2> /work/runs/l4p/$2.err
