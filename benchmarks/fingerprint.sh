#!/usr/bin/env bash
# Behaviour fingerprint of a refactor: fixed-seed `arena`, `hint` and `show` JSON, one sha256
# prefix per command.  Run it before and after a change that must not change behaviour and
# compare the two outputs (`diff`).  Usage: benchmarks/fingerprint.sh [EKONOS_COMMAND]
#
# An arena line hashes the games and results only; what each entrant's label resolved to (the
# `specs` record: its text changes when a default or a canonical form changes, which is not a
# change of play) is printed in clear at the end, so a diff shows exactly that and nothing else.
# LINEAR names the frozen reference `linear` (today's level 4): set LINEAR=level4 to fingerprint
# a commit from before `linear` existed (its label in the results then reads `linear`).
set -euo pipefail
E=${1:-.venv/bin/ekonos}
PY=${PY:-.venv/bin/python}
LINEAR=${LINEAR:-linear}
[[ -e $E ]] && E=$(realpath "$E")       # the runs below happen in a temporary folder
[[ -e $PY ]] && PY=$(realpath "$PY")
# the plain search of baseline and levels 1-2, and the strong one of levels 3-4, spelled out
WEAK="ismcts:iterations=300,c=0.7,horizon=0,plain=0,root=uct"
STRONG="ismcts:iterations=200,c=0.3,horizon=1,plain=1,root=halving"
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
games() {   # an arena run: the games hashed, the specs record kept for the end
    $E arena "$@" --json > out.json 2> err.txt || { cat err.txt out.json; exit 1; }
    LINEAR="$LINEAR" "$PY" -c 'import json, os; d = json.load(open("out.json"));
s = d.pop("specs", {}); open("specs.txt", "a").write("".join(f"  {k} = {v}\n" for k, v in s.items()))
print(json.dumps(d, sort_keys=True).replace(json.dumps(os.environ["LINEAR"]), json.dumps("linear")))' |
        sha256sum | cut -c1-16 | tr -d '\n'
    printf '  ekonos arena %s\n' "$*"
}
: > specs.txt
games -p 2 --bot level1 --bot greedy -n 20 --seed 5
games -p 4 --bot "$WEAK" --bot random --bot greedy --bot flat:iterations=300 -n 8 --seed 3
games -p 3 --bot "$WEAK,workers=2" --bot level2 --bot "$STRONG" -n 6 --seed 9
games -p 2 --bot baseline --bot level2 -n 2 --seed 2
games -p 2 --bot "$LINEAR" --bot level3 -n 2 --seed 1
run hint g3.json -i 20000 --seed 1 --json
run hint mid4.json -i 20000 --seed 2 --top 10 --json
run hint mid4.json -i 30000 -w 2 --seed 3 --top 5 --json
run show mid4.json --json
run hint card4.json -i 20000 --seed 4 --top 8 --json
run hint mid4.json -i 5000 --level 1 --seed 6 --top 5 --json
echo "what the arena's labels resolved to:"
sort -u specs.txt
