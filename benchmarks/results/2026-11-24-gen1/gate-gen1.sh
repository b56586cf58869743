#!/bin/bash
# gating generation 1 (value network net-2e61f16e534a, base = the shipped linear model) against
# generation 0 (the shipped linear model alone), same search, same iterations; think time read
# from the same run
cd "$(dirname "$0")/../../.."  # the repository root
NET=benchmarks/results/2026-11-24-gen1/net-2e61f16e534a.json
B="ismcts:iterations=4000,c=0.3,horizon=1,plain=1,root=halving"
for p in 2 5; do
  PYTHONPATH=. .venv/bin/ekonos arena -p $p --bot "$B,net=$NET" --bot "$B" -n 60 --seed 3410$p -w 2 --json -q > benchmarks/results/2026-11-24-gen1/gate-gen1-vs-gen0-${p}p.json
done
