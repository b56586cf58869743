#!/bin/bash
# usage: runL4.sh PLAYERS PNET SEED  -- level 4's spec with the prior against linear
cd /work/main
S='ismcts:iterations=75000,c=0.5,cfor=5,eps=0.03,epsfor=4,horizon=1,plain=1,root=halving,model=eval-0678b3d9c83c'
.venv/bin/ekonos arena -p $1 --bot "$S,pnet=$2" --bot linear --sprt 0,30 -n 3000 --seed $3 -w 1 --json > /work/runs/pnet/arena-L4-$1p-seed$3.json 2> /work/runs/pnet/$3.err
