#!/bin/bash
# usage: runab.sh PLAYERS ITER PNET 'PARAMS_A' 'PARAMS_B' SEED  -- SPEC{ITER},pnet=PNET with PARAMS_A against the same with PARAMS_B
cd /work/main
S="ismcts:iterations=$2,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,model=eval-0678b3d9c83c,pnet=$3"
.venv/bin/ekonos arena -p $1 --bot "$S,$4" --bot "$S,$5" --sprt 0,30 -n 3000 --seed $6 -w 1 --json > /work/runs/pnet/arena-ab-$1p-seed$6.json 2> /work/runs/pnet/$6.err
