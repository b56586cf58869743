#!/bin/bash
# The 2-player policy data: level 3's 2-player search at 5 000 iterations (a fifth of its 25 000)
# in every seat, 3 000 games, seed 701, on two processes; Ctrl-C keeps the shards finished.
cd /work/main
S='ismcts:iterations=5000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,model=eval-0678b3d9c83c'
.venv/bin/ekonos learn selfplay -p 2 -n 3000 --spec "$S" --seed 701 -o /work/data/pol2 -w 2 -q
