"""Where in a game the value network and the linear model read the outcome: the held-out win
log loss of each, per player count and rounds left (this one included), on the games a network
file measured itself on (the second half of its held-out games, as `ekonos learn train` splits
them), from the folders it was trained on.  The search scores the start of the next round
(`horizon=1`), so the rows that matter most to it are those of a round's start; every decision
is read here, each "as if a round began there" by the linear model.

    python benchmarks/results/2026-11-27-gen3/by_round.py NET.json FOLDER...
"""
import sys

import numpy as np

from search._net import NET_LAYOUT
from search.learn import net_data
from search.network import forward_numpy, read, win_shares, with_base

net, folders = sys.argv[1], sys.argv[2:]
weights, doc = read(net)
tr = doc["training"]
arrays, _ = net_data.read_folders(folders)
arrays = net_data.needed(arrays)
draw = net_data.game_draw(arrays, tr["seed"])
test = net_data.subset(arrays, (draw >= tr["heldout"] / 2) & (draw < tr["heldout"]))
x, players = test["x"], test["players"].astype(np.int64)
out = np.concatenate([forward_numpy(weights, x[a:a + 8192]) for a in range(0, len(x), 8192)])
mine = win_shares(with_base(out, x, players, doc.get("base")), players)
linear = net_data.linear_shares(x, players)
left = x[:, NET_LAYOUT["rounds_left"]:NET_LAYOUT["rounds_left"] + 6].argmax(1) + 1
print(f"{net}: held-out win log loss, network - linear (network, linear, even odds)")
rng = np.random.default_rng(0)
for n in range(2, 7):
    m = players == n
    w = test["win"][m][:, :n]
    diff = net_data.win_log_loss(mine[m][:, :n], w) - net_data.win_log_loss(linear[m][:, :n], w)
    key = test["source"][m].astype(np.int64) << 32 | test["game"][m]
    _, index = np.unique(key, return_inverse=True)
    per_game, size = np.bincount(index, diff), np.bincount(index)
    draws = [per_game[p].sum() / size[p].sum() for p in
             (rng.integers(0, len(size), len(size)) for _ in range(1000))]
    lo, hi = np.percentile(draws, [2.5, 97.5])
    print(f"{n} players, every decision: {diff.mean():+.4f} [{lo:+.4f}, {hi:+.4f}] (95%, games "
          f"resampled), {m.sum()} positions, {len(size)} games")
for n in range(2, 7):
    for r in sorted(set(left[players == n].tolist()), reverse=True):
        m = (players == n) & (left == r)
        w = test["win"][m][:, :n]
        ll = [net_data.win_log_loss(s[m][:, :n], w).mean() for s in (mine, linear)]
        print(f"  {n} players, {r} rounds left: {ll[0] - ll[1]:+.4f} ({ll[0]:.4f}, {ll[1]:.4f}, "
              f"{np.log(n):.4f}), {m.sum()} positions, {net_data.games(net_data.subset(test, m))} games")
