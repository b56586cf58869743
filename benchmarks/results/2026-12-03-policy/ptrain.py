"""Experiment: a policy network over the action table, trained on the root visits of self-play
(ekonos learn selfplay shards), to prune the root of sequential halving.

usage: ptrain.py OUT.npz FOLDER [STEPS] [SEED]
Held out: games whose number % 10 == 0.  Target: the root's visits, normalised, mixed half and
half with the move the search played (the survivor; halving's final two share equal visits),
except in the explored first decisions, where the played move was drawn.
"""
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ekonos.moves import NUM_ACTIONS
from search.learn.selfplay import load_dataset

out, folder = sys.argv[1], sys.argv[2]
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 6000
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
EXPLORE = 4
H1, H2, NA = 256, 256, NUM_ACTIONS

z = load_dataset(folder)      # every shard the manifest lists, sha256 checked, in order
x, g, ps = z["x"], z["game"].astype(np.int64), z["pol_start"]
L = np.diff(ps)
n, K = len(L), 256
pa = np.zeros((n, K), np.int32)
tg = np.zeros((n, K), np.float32)
ch = np.full(n, -1, np.int32)
for i in range(n):
    s, e = ps[i], ps[i + 1]
    a = z["pol_action"][s:e]
    v = z["pol_visits"][s:e].astype(np.float32)
    pa[i, :e - s] = a
    t = v / max(v.sum(), 1)
    hit = np.nonzero(a == z["action"][i])[0]
    if z["ply"][i] >= EXPLORE and len(hit):
        ch[i] = hit[0]
        t = 0.5 * t
        t[hit[0]] += 0.5
    tg[i, :e - s] = t
mask = np.arange(pa.shape[1])[None, :] < L[:, None]
held = g % 10 == 0
print(f"positions {len(x)} (held out {held.sum()}), games {len(np.unique(g))}", flush=True)

key = jax.random.PRNGKey(seed)
k1, k2, k3 = jax.random.split(key, 3)
he, gl = jax.nn.initializers.he_normal(), jax.nn.initializers.glorot_normal()
p = {"w1": he(k1, (x.shape[1], H1)), "b1": jnp.zeros(H1), "w2": he(k2, (H1, H2)),
     "b2": jnp.zeros(H2), "w3": gl(k3, (H2, NA)) * 0.1, "b3": jnp.zeros(NA)}


def logits_of(p, xb, pab):
    h = jax.nn.relu(xb @ p["w1"] + p["b1"])
    h = jax.nn.relu(h @ p["w2"] + p["b2"])
    full = h @ p["w3"] + p["b3"]
    return jnp.take_along_axis(full, pab, axis=1)


def loss(p, xb, pab, tb, mb):
    lg = jnp.where(mb, logits_of(p, xb, pab), -1e9)
    return -jnp.mean(jnp.sum(tb * jax.nn.log_softmax(lg, axis=1), axis=1))


decay = {k: k.startswith("w") for k in p}
opt = optax.adamw(optax.cosine_decay_schedule(1e-3, steps), weight_decay=1e-4, mask=decay)
st = opt.init(p)


@jax.jit
def step(p, st, xb, pab, tb, mb):
    v, gr = jax.value_and_grad(loss)(p, xb, pab, tb, mb)
    up, st = opt.update(gr, st, p)
    return optax.apply_updates(p, up), st, v


tr = np.nonzero(~held)[0]
rng = np.random.default_rng(seed)
B = 512
Kp = 224                        # the largest root seen is 223 moves
Wtr = min(pa.shape[1], Kp)
t0 = time.time()
perm = rng.permutation(tr)
j = 0
for s in range(steps):
    if j + B > len(perm):
        perm, j = rng.permutation(tr), 0
    b = perm[j:j + B]; j += B
    p, st, v = step(p, st, x[b], pa[b, :Wtr], tg[b, :Wtr], mask[b, :Wtr])
    if s % 500 == 0 or s == steps - 1:
        print(f"step {s} loss {float(v):.4f} {time.time() - t0:.0f}s", flush=True)

# held-out metrics
hi = np.nonzero(held)[0]
lgs = []
for i in range(0, len(hi), 2048):
    b = hi[i:i + 2048]
    lgs.append(np.asarray(jnp.where(mask[b, :Wtr], logits_of(p, x[b], pa[b, :Wtr]), -1e9)))
lg = np.concatenate(lgs)
hl = float(-np.mean(np.sum(tg[hi, :Wtr] * (lg - np.log(np.exp(lg - lg.max(1, keepdims=True)).sum(1, keepdims=True)) - lg.max(1, keepdims=True)), axis=1)))
print(f"held-out loss {hl:.4f}")
ok = ch[hi] >= 0
order = np.argsort(-lg, axis=1)
rankc = np.array([np.nonzero(order[i] == ch[hi][i])[0][0] if ok[i] else -1 for i in range(len(hi))])
Lh = L[hi]
print(f"top-1 agreement with the search's move {np.mean(rankc[ok] == 0):.3f} "
      f"(uniform {np.mean(1 / Lh[ok]):.3f})")
for K in (4, 8, 16, 32):
    sel = ok & (Lh > K)
    print(f"roots with > {K} moves: {sel.mean():.3f} of positions; the search's move in the "
          f"prior's top {K}: {np.mean(rankc[sel] < K):.3f} (uniform {np.mean(K / Lh[sel]):.3f})")
np.savez(out, **{k: np.asarray(v, np.float32) for k, v in p.items()})
print("saved", out)
