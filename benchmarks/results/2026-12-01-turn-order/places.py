"""Win share by place in the turn order of round 2, from a self-play folder's games: the figure
that started the turn-order test (docs/strength.md, "Where a seat plays in the round").  Read
from each game's first recorded decision in round 2 (its inputs say the round and the start
player, relative to the deciding seat, as `win` is).

    python benchmarks/results/2026-12-01-turn-order/places.py FOLDER [GAMES]
"""
import sys

import numpy as np

from ekonos import State
from search._ismcts import EVAL_MAX_ROUNDS
from search._net import NET_LAYOUT
from search.evaluation import MAXP
from search.learn.selfplay import load_dataset, read_manifest

folder = sys.argv[1]
players = int(read_manifest(folder)["players"])
d = load_dataset([folder])
x, L = d["x"], NET_LAYOUT
left = x[:, L["rounds_left"]:L["rounds_left"] + EVAL_MAX_ROUNDS].argmax(axis=1) + 1
second = np.flatnonzero(left == State.new(players, seed=0).rounds - 1)   # decisions in round 2
_, first = np.unique(d["game"][second], return_index=True)          # each game's first
rows = second[first][:int(sys.argv[2]) if len(sys.argv) > 2 else None]
won = np.zeros(players)
for i in rows:
    start = int(x[i, L["start"]:L["start"] + MAXP].argmax())              # relative seat
    for j in range(players):
        won[(j - start) % players] += d["win"][i, j]
share = won / len(rows)
se = np.sqrt(share * (1 - share) / len(rows))
print(f"{folder}: {len(rows)} games of {players} players; win share by place in round 2 "
      f"(0 starts it; parity {1 / players:.3f}):")
for k in range(players):
    print(f"  place {k}: {share[k]:.3f} +- {1.96 * se[k]:.3f}")
