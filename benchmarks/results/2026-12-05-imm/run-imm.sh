#!/bin/bash
# usage: run-imm.sh PLAYERS A SEED -- level 3's search with implicit minimax backups of weight A
# (`imm=A`: each tree node keeps the evaluation of its position, backed up by max^n, and
# selection reads (1 - A) x the mean reward + A x that value) against level 3, SPRT [0, 30] by
# score, one process.  A may carry more of the patch's parameters: `0.3,immop=1`.  `imm` is
# never on main: the script runs from a worktree of 9f289af (or any later commit with no engine
# change) with imm.patch applied and built (WT below).
# Writes /work/runs/imm/arena-immA-PLAYERSp-seedSEED.json, A's commas and '=' as '-' (copied
# here when read).
WT=${WT:-/work/wt-imm}
mkdir -p /work/runs/imm
L3='ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,iterfor=3:500/45:2000/6:5000,model=eval-0678b3d9c83c,pnet=3:net-9e28b35287ad+4:net-f2feba62f054+5:net-670d7ae93c25,pweight=3:0.3/5:1'
cd "$WT"
PYTHONPATH="$WT" /work/main/.venv/bin/python -m cli.main arena -p $1 --bot "$L3,imm=$2" \
  --bot level3 --sprt 0,30 -n 3000 --seed $3 -w 1 --json \
  > "/work/runs/imm/arena-imm${2//[,=]/-}-$1p-seed$3.json" 2> /work/runs/imm/$3.err
