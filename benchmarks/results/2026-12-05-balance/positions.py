"""Self-play positions for simulation balancing: games of one spec in every seat, each seat
deciding from its own view; per game its seed, its moves and how it ended (the win share of each
seat, ties split).  Positions are replayed from these (any prefix of the moves), so the file is
small.  usage: positions.py PLAYERS GAMES SEED OUT.json [SPEC]"""
import json
import random
import sys

from ekonos import State
from search.bots import derive_seed, make_bot
from search.registry import spec_text

players, games, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
spec = spec_text(sys.argv[5] if len(sys.argv) > 5 else "level3")
records = []
for g in range(games):
    gseed = derive_seed(seed, players, g)
    state = State.new(players, seed=derive_seed(gseed, 0))
    bots = [make_bot(spec, seed=derive_seed(gseed, 1, q)) for q in range(players)]
    moves, choices = [], []                 # choices: (ply, seat) where the mover had a choice
    while not state.is_over():
        seat = state.to_move
        view = state.view(seat)
        if view.count_legal() > 1:
            choices.append((len(moves), seat))
            a = int(bots[seat].choose(view))
        else:
            a = int(view.nth_legal(0))
        moves.append(a)
        state.push(a)
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    records.append({"game": g, "seed": derive_seed(gseed, 0), "moves": moves,
                    "choices": choices, "win": win})
    print(g, len(moves), len(choices), win, file=sys.stderr, flush=True)
json.dump({"players": players, "spec": spec, "seed": seed, "games": records}, open(out, "w"))
