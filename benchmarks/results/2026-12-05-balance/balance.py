"""Simulation balancing of the light playouts (Silver & Tesauro 2009; Huang, Coulom & Lin 2010):
tune the playout policy so that what its playouts say a position is worth matches what it was worth
in self-play, rather than so that it plays like the search. For each position (a seat's view at one
of its decisions in a self-play game) the searcher's own measure (`playout_values`, added by
balance.patch: run with PYTHONPATH at a worktree of 17c5f9a with it built) runs N playouts from
fresh determinizations of the seat's view to the horizon, scored by the model as the search scores
a leaf, in two halves A and B; the loss is the mean over positions of (w - A)(w - B), w the seat's
realized win share: an unbiased estimate of the squared bias of the playouts' value plus the
outcome's noise (the playouts' own variance drops out). Parameters: eps and the 8 weights of
LIGHT_W. Every parameter vector is measured on the same seeds (common random numbers), and a change
is kept only when the loss falls by more than twice its standard error over positions.

usage: balance.py POSITIONS.json {fit|measure} [THETA ...]
  fit: coordinate search from level 3's playouts on the games of even index; then the found
       and the start measured on the odd games with new seeds.
  measure THETA...: each 'eps/w0/.../w7' against the first, on every game."""
import json
import os
import random
import sys

import numpy as np

from ekonos import State
import search.bots  # noqa: F401 (defines the levels)
from search.registry import make_bot, spec_text

N = int(os.environ.get("BAL_N", 256))     # playouts per position (two halves)
K = int(os.environ.get("BAL_K", 40))      # positions per game
START = [0.03, 0.3, 0.2, 0.35, 1.0, 1.5, 1.0, 0.5, -0.5]   # eps and LIGHT_W (4 players)
NAMES = ["eps", "noise", "protect", "grow", "x4", "x6", "sell", "bnoise", "bmin"]


def positions(data, parity=None):
    out = []
    for rec in data["games"]:
        if parity is not None and rec["game"] % 2 != parity:
            continue
        pick = random.Random(rec["game"]).sample(rec["choices"], min(K, len(rec["choices"])))
        at = {ply: seat for ply, seat in pick}
        state = State.new(data["players"], seed=rec["seed"])
        for ply, move in enumerate(rec["moves"]):
            if ply in at:
                out.append((state.view(at[ply]), at[ply], rec["win"][at[ply]]))
            state.push_unchecked(move)
    return out


def terms(searcher, theta, pos, seed):
    searcher.eps, searcher.epsmask = theta[0], -1
    searcher.light = theta[1:]
    t = np.empty(len(pos))
    for i, (view, seat, w) in enumerate(pos):
        a, b = searcher.playout_values(view, seat, N, seed * 1_000_003 + i)
        t[i] = (w - a) * (w - b)
    return t


def main():
    data = json.load(open(sys.argv[1]))
    searcher = make_bot(spec_text("level3")).searcher(data["players"])
    if sys.argv[2] == "measure":
        thetas = [[float(x) for x in arg.split("/")] for arg in sys.argv[3:]]
        pos = positions(data)
        base = terms(searcher, thetas[0], pos, 7)
        print(f"{len(pos)} positions; loss {base.mean():.5f}")
        for th in thetas[1:]:
            d = terms(searcher, th, pos, 7) - base
            print(f"{th}: loss {base.mean() + d.mean():.5f}, change {d.mean():+.5f} "
                  f"+- {2 * d.std(ddof=1) / len(d) ** 0.5:.5f} (2 SE)", flush=True)
        return
    pos = positions(data, 0)
    theta = list(START)
    cur = terms(searcher, theta, pos, 1)
    print(f"fit on {len(pos)} positions; start loss {cur.mean():.5f}", flush=True)
    for sweep in range(2):
        for j in range(len(theta)):
            if j == 0:
                tries = [0.0, 0.01, 0.06, 0.1, 0.2]
            elif j == 8:
                tries = [theta[j] + x for x in (-1.0, -0.5, 0.5, 1.0)]
            else:
                tries = [theta[j] * f for f in (0.0, 0.5, 0.75, 1.33, 2.0)]
            best, bt = None, None
            for v in tries:
                if v == theta[j]:
                    continue
                th = theta[:j] + [v] + theta[j + 1:]
                t = terms(searcher, th, pos, 1)
                d = t - cur
                se = d.std(ddof=1) / len(d) ** 0.5
                print(f"  {NAMES[j]}={v:g}: change {d.mean():+.5f} +- {2 * se:.5f}", flush=True)
                if d.mean() < -2 * se and (best is None or t.mean() < bt.mean()):
                    best, bt = v, t
            if best is not None:
                theta[j], cur = best, bt
                print(f"sweep {sweep}: {NAMES[j]} -> {best:g}; loss {cur.mean():.5f}", flush=True)
    print("found:", "/".join(f"{x:g}" for x in theta), flush=True)
    held = positions(data, 1)
    a = terms(searcher, START, held, 2)
    d = terms(searcher, theta, held, 2) - a
    print(f"held out ({len(held)} positions, new seeds): start {a.mean():.5f}, found "
          f"{a.mean() + d.mean():.5f}, change {d.mean():+.5f} +- "
          f"{2 * d.std(ddof=1) / len(d) ** 0.5:.5f} (2 SE)", flush=True)


main()
