#!/bin/bash
# usage: runprior.sh PLAYERS ITER PNET SEED  -- SPEC{ITER} with the prior (no weight) against SPEC{ITER} alone
cd /work/main
S="ismcts:iterations=$2,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,model=eval-0678b3d9c83c"
.venv/bin/ekonos arena -p $1 --bot "$S,pnet=$3" --bot "$S" --sprt 0,30 -n 3000 --seed $4 -w 1 --json > /work/runs/pnet/arena-prior-$1p-seed$4.json 2> /work/runs/pnet/$4.err
