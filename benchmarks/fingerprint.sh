#!/usr/bin/env bash
# Behaviour fingerprint of a refactor: fixed-seed `arena`, `hint` and `show` JSON, one sha256
# prefix per command.  Run it before and after a change that must not change behaviour and
# compare the two outputs (`diff`).  Usage: benchmarks/fingerprint.sh [EKONOS_COMMAND]
set -euo pipefail
E=${1:-.venv/bin/ekonos}
PY=${PY:-.venv/bin/python}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
$E new -p 3 --seed 42 -o "$dir/g3.json" >/dev/null
$E new -p 4 --seed 7 -o "$dir/g4.json" >/dev/null
"$PY" - "$dir" <<'PYEOF'
import random, sys
from ekonos import State, save_file
d = sys.argv[1]
st = State.from_json(open(f"{d}/g4.json").read())
rng = random.Random(3)
mid = st.copy()
for _ in range(37):                                   # a sell step of seat 3
    mid.push(rng.choice(mid.legal_actions()))
save_file(mid, f"{d}/mid4.json")
rng = random.Random(5)
card = st.copy()
while True:                                           # a card step in round 2
    card.push(rng.choice(card.legal_actions()))
    if str(card.step) == "card" and card.round == 2 and len(card.discard) >= 9:
        break
save_file(card, f"{d}/card4.json")
PYEOF
cd "$dir"
run() { printf '%s  ekonos %s\n' "$($E "$@" 2>&1 | sha256sum | cut -c1-16)" "$*"; }
run arena -p 2 --bot level1 --bot greedy -n 20 --seed 5 --json
run arena -p 4 --bot ismcts:iterations=300 --bot random --bot greedy --bot flat:iterations=300 -n 8 --seed 3 --json
run arena -p 3 --bot ismcts:iterations=200,workers=2 --bot ismcts:iterations=200,reward=win,group=0 --bot ismcts:iterations=200,policy=random -n 6 --seed 9 --json
run hint g3.json -i 20000 --seed 1 --json
run hint mid4.json -i 20000 --seed 2 --top 10 --json
run hint mid4.json -i 30000 -w 2 --seed 3 --top 5 --json
run show mid4.json --json
run hint card4.json -i 20000 --seed 4 --top 8 --json
