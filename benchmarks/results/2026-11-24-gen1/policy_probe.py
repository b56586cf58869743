"""Probe: how well can a policy head imitate the search's root visits on generation 1's data?

    python benchmarks/results/2026-11-24-gen1/policy_probe.py data/gen1/p2 ... data/gen1/p6 > policy_probe.json

A 644-128-64 MLP (the network's seat-view inputs) with one logit per action of the action table
(2 759), softmax over the legal moves, trained with AdamW (JAX + optax, the `train` extra) on the
cross-entropy against each decision's root visit distribution (pol_action / pol_visits), 10% of
the games held out.  Reported on the held-out decisions: cross-entropy, and how often the
search's most-visited move is among the network's top k, for all decisions and for those with
more than 16 legal moves (card steps mostly), beside a uniform ranking's k / legal.
A probe, not part of the engine: it decides whether a policy prior is worth building.
"""
import json
import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax

from search.learn.selfplay import load_dataset

NUM_ACTIONS, KS, STEPS, BATCH, H1, H2 = 2759, (1, 2, 4, 8, 16, 32), 3000, 512, 128, 64

A = load_dataset(sys.argv[1:])
x, st = A["x"], A["pol_start"]
n, L = len(x), np.diff(st)
M = int(L.max())
IDX = np.zeros((n, M), np.int32)
T = np.zeros((n, M), np.float32)
MASK = np.zeros((n, M), bool)
row = np.repeat(np.arange(n), L)
col = np.arange(len(A["pol_action"])) - np.repeat(st[:-1], L)
IDX[row, col], MASK[row, col], T[row, col] = A["pol_action"], True, A["pol_visits"]
T /= np.maximum(T.sum(1, keepdims=True), 1)
game = A["game"].astype(np.int64) * 8 + A["players"]
games = np.unique(game)
held = np.random.default_rng(0).choice(games, len(games) // 10, replace=False)
test = np.isin(game, held)
tr, te = np.where(~test)[0], np.where(test)[0]


def init(key):
    k = jax.random.split(key, 3)
    he = lambda k, i, o: jax.random.normal(k, (i, o)) * np.sqrt(2 / i)
    return {"w1": he(k[0], x.shape[1], H1), "b1": jnp.zeros(H1), "w2": he(k[1], H1, H2),
            "b2": jnp.zeros(H2), "w3": jax.random.normal(k[2], (H2, NUM_ACTIONS)) / np.sqrt(H2),
            "b3": jnp.zeros(NUM_ACTIONS)}


def logits(p, xb, idx, m):
    h = jax.nn.relu(jax.nn.relu(xb @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"])
    return jnp.where(m, jnp.take_along_axis(h @ p["w3"] + p["b3"], idx, 1), -1e9)


def loss(p, xb, idx, m, t):
    return -(t * jax.nn.log_softmax(logits(p, xb, idx, m))).sum(1).mean()


opt = optax.adamw(1e-3, weight_decay=1e-4)


@jax.jit
def step(p, s, xb, idx, m, t):
    v, g = jax.value_and_grad(loss)(p, xb, idx, m, t)
    u, s = opt.update(g, s, p)
    return optax.apply_updates(p, u), s, v


def measure(p, rows):
    top, uni, ce = np.zeros(len(KS)), np.zeros(len(KS)), 0.0
    for k in range(0, len(rows), 4096):
        b = rows[k:k + 4096]
        lg = np.asarray(jax.jit(logits)(p, x[b], IDX[b], MASK[b]))
        rank = (np.argsort(-lg, 1) == T[b].argmax(1)[:, None]).argmax(1)
        top += [(rank < K).sum() for K in KS]
        uni += [np.minimum(K / L[b], 1).sum() for K in KS]
        ce += float(-(T[b] * np.where(MASK[b], lg - np.logaddexp.reduce(lg, 1, keepdims=True),
                                      0)).sum())
    r = lambda v: [round(float(a) / len(rows), 3) for a in v]
    return {"decisions": len(rows), "cross_entropy": round(ce / len(rows), 3),
            "top_k": dict(zip(map(str, KS), r(top))), "uniform_top_k": dict(zip(map(str, KS), r(uni)))}


p, rng = init(jax.random.PRNGKey(0)), np.random.default_rng(1)
s = opt.init(p)
for it in range(STEPS):
    b = rng.choice(tr, BATCH)
    p, s, _ = step(p, s, x[b], IDX[b], MASK[b], T[b])
print(json.dumps({"decisions": n, "trained_on": len(tr), "steps": STEPS, "hidden": [H1, H2],
                  "held_out": measure(p, te), "held_out_more_than_16_legal":
                  measure(p, te[L[te] > 16])}, indent=1))
