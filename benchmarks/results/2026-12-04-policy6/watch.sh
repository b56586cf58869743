#!/bin/bash
# watch.sh SEED NEWSEED PNETARG -- when the arena of SEED ends with H1 before 17:00, start the ask-again
cd /work/main
F=/work/runs/pnet/arena-6p-seed$1.json
while pgrep -f "seed $1 " > /dev/null; do sleep 10; done
sleep 2
st=$(python3 -c "import json;print(json.load(open('$F'))['sprt']['state'])" 2>/dev/null)
now=$(date +%s); lim=$(date -d 17:00 +%s)
echo "$(date +%T) seed $1 ended: $st" >> /work/runs/pnet/watch.log
if [ "$st" = "H1" ] && [ $now -lt $lim ]; then
  echo "$(date +%T) starting seed $2" >> /work/runs/pnet/watch.log
  bash benchmarks/results/2026-12-03-pnet/run6.sh "$3" $2
fi
