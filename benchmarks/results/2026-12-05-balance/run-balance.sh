#!/bin/bash
# usage: run-balance.sh PLAYERS LW SEED -- level 3's search with the light playouts' weights LW
# (`lw=`, 8 numbers joined by '/', balance.patch) against level 3, SPRT [0, 30] by score, one
# process.  `lw` is never on main: run from a worktree of 17c5f9a with balance.patch applied
# and built (WT below).  Writes /work/runs/balance/arena-lw-PLAYERSp-seedSEED.json.
WT=${WT:-/work/wt-sb}
mkdir -p /work/runs/balance
L3='ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,iterfor=3:500/45:2000/6:5000,model=eval-0678b3d9c83c,pnet=3:net-9e28b35287ad+4:net-f2feba62f054+5:net-670d7ae93c25,pweight=3:0.3/5:1'
cd "$WT"
PYTHONPATH="$WT" /work/main/.venv/bin/python -m cli.main arena -p $1 --bot "$L3,lw=$2" \
  --bot level3 --sprt 0,30 -n 3000 --seed $3 -w 1 --json \
  > /work/runs/balance/arena-lw-$1p-seed$3.json 2> /work/runs/balance/$3.err
