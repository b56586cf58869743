"""SPSA: tune the learned evaluation's cells of one player count for play, by games.

Each step draws a random sign vector D over the tuned numbers (theta and beta of the named
cells, each in units of its own scale), plays two games on one deal between the model moved by
+ck*D and by -ck*D (seats alternate + and -, then swapped), and moves the numbers by
a * y / (2 ck) * D, y the + seats' wins minus the - seats' wins over the two games.  One JSON
line per step (step, y, the numbers in units), so a run stopped anywhere can be read: the
estimate is the mean of the last half of the steps (Polyak averaging).

python spsa.py --players 6 --cells 1 --steps 100000 --seed 601 --log spsa6.jsonl
"""
import argparse
import copy
import json
import random
import sys
import types

from ekonos import State
from search import evaluation
from search.bots import derive_seed
from search.registry import make_bot

#: the scale of one unit of each theta number (a feature's typical size times it is about half
#: a tile of company value) and of beta
SCALE = [0.5, 0.1, 0.15, 0.15, 0.06, 0.03, 0.15, 0.2]
BETA_SCALE = 0.03


def model_at(theta, beta, players, cells, u):
    th, be = copy.deepcopy(theta), copy.deepcopy(beta)
    i = 0
    for r in cells:
        for f in range(8):
            th[players][r][f] += u[i] * SCALE[f]
            i += 1
        be[players][r] = max(0.0, be[players][r] + u[i] * BETA_SCALE)
        i += 1
    return th, be


def bot_with(spec, seed, tb):
    bot = make_bot(spec, seed=seed)
    plain = bot.searcher

    def searcher(self, players=None):
        s = plain(players)
        s.set_model(*tb)
        return s
    bot.searcher = types.MethodType(searcher, bot)
    return bot


def game(spec, players, deal, seed, plus_tb, minus_tb, swap):
    state = State.new(players, seed=deal)
    plus = [((q + swap) % 2 == 0) for q in range(players)]
    bots = [bot_with(spec, derive_seed(seed, q), plus_tb if plus[q] else minus_tb)
            for q in range(players)]
    while not state.is_over():
        seat = state.to_move
        state.push(bots[seat].choose(state.view(seat)))
    winners = state.winners()
    y = 0.0
    for q in winners:
        y += (1 if plus[q] else -1) / len(winners)
    return y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--cells", type=int, nargs="+", required=True)
    ap.add_argument("--spec", default="level3")
    ap.add_argument("--model", default="")
    ap.add_argument("--steps", type=int, default=100000)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--a", type=float, default=0.008)
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    theta, beta = evaluation.model(args.model)
    n = 9 * len(args.cells)
    u = [0.0] * n
    rng = random.Random(args.seed)
    with open(args.log, "a") as log:
        log.write(json.dumps({"args": vars(args), "scale": SCALE, "beta_scale": BETA_SCALE})
                  + "\n")
        for k in range(args.steps):
            d = [rng.choice((-1, 1)) for _ in range(n)]
            up = [x + args.c * s for x, s in zip(u, d)]
            um = [x - args.c * s for x, s in zip(u, d)]
            tp = model_at(theta, beta, args.players, args.cells, up)
            tm = model_at(theta, beta, args.players, args.cells, um)
            deal = derive_seed(args.seed, k)
            y = sum(game(args.spec, args.players, deal, derive_seed(args.seed, k, g), tp, tm, g)
                    for g in range(2))
            u = [x + args.a * y / (2 * args.c) * s for x, s in zip(u, d)]
            log.write(json.dumps({"k": k, "y": y, "u": [round(x, 5) for x in u]}) + "\n")
            log.flush()


if __name__ == "__main__":
    sys.exit(main())
