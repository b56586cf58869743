"""Training the policy network (JAX and optax, the extra `train`), behind `ekonos learn
train-policy`.

    ekonos learn train-policy selfplay/4p -o policies/ --hidden 256,256 --steps 6000

The network (search/policy.py reads it) gives a logit per action of the engine's table; the loss
of a position is the cross-entropy of its target over the root's legal moves
(search/learn/policy_data.py: the root visits mixed with the move the search played) against a
softmax of the network's logits of those moves only, averaged over a minibatch.
Initialisation: He normal for the two ReLU layers, Glorot normal times 0.1 for the output layer
(every move starts near even), zero biases, from the seed; AdamW (optax) with weight decay on the
weights, not the biases, its learning rate decaying to zero over the steps (cosine); minibatches
from successive seeded permutations of the training positions.  The held-out games (by game, as
the value network's, search/learn/net_data.py) are never trained on: the curve records the loss
on a fixed sample of the training positions and on the held-out ones; the metrics per player
count (how often the search's own move is the network's first choice, and among its best k, with
what chance alone would give) are measured on them.  This recipe, on 3 000 games of level 3's
4-player search, is the prior that won in the arena (docs/strength.md, "A learned policy at the
root").  Same data and seed: the same file, byte for byte (on the same machine and JAX build).

jax is imported by this module only; nothing that plays imports it.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ekonos.moves import NUM_ACTIONS
from search.learn import net_data, policy_data
from search.learn.net_file import net_text, write_net
from search.learn.net_train import init, minibatches, seed_key
from search.network import POLICY_KIND, WEIGHTS
from search.bots import PRIOR_TOP

#: Training positions the curve's training loss is measured on (a fixed seeded sample).
CURVE_SAMPLE = 8192
#: Points of the curve (besides the start).
CURVE_POINTS = 20
#: Positions per forward pass when measuring.
CHUNK = 4096
#: The root sizes the metrics report the recall at (how often the search's move is kept).
RECALL_AT = (8, PRIOR_TOP, 32)


@dataclass(frozen=True)
class Config:
    """How a policy network is trained (recorded in its file)."""
    hidden: tuple[int, int] = (256, 256)
    steps: int = 6000
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-4
    mix: float = policy_data.MIX
    heldout: float = 0.1
    seed: int = 1

    def record(self) -> dict:
        return {"seed": self.seed, "steps": self.steps, "batch": self.batch, "lr": self.lr,
                "schedule": "cosine", "weight_decay": self.weight_decay, "mix": self.mix,
                "heldout": self.heldout}


@dataclass
class Trained:
    """A trained policy network: its weights, how it was trained and its held-out metrics."""
    weights: dict[str, np.ndarray]
    training: dict
    metrics: dict


def logits(p: dict, x, cand):
    """The network's logits of the root moves `cand` [N, W] (as search/policy.py computes)."""
    a = jax.nn.relu(x @ p["w1"] + p["b1"])
    b = jax.nn.relu(a @ p["w2"] + p["b2"])
    return jnp.take_along_axis(b @ p["w3"] + p["b3"], cand, axis=1)


def losses(p: dict, x, cand, target, width):
    """Per position: the cross-entropy of its target against the softmax over its root moves."""
    present = jnp.arange(cand.shape[1])[None, :] < width[:, None]
    lg = jnp.where(present, logits(p, x, cand), -1e9)
    return -jnp.sum(jnp.where(present, target * jax.nn.log_softmax(lg, axis=1), 0.0), axis=1)


def _batch(t: dict, pick) -> tuple:
    return (jnp.asarray(t["x"][pick]), jnp.asarray(t["cand"][pick]),
            jnp.asarray(t["target"][pick]), jnp.asarray(t["width"][pick]))


_sum_loss = jax.jit(lambda p, *b: jnp.sum(losses(p, *b)))
_logits = jax.jit(logits)


def _mean_loss(p: dict, t: dict) -> float | None:
    n = len(t["players"])
    if not n:
        return None
    return sum(float(_sum_loss(p, *_batch(t, slice(a, a + CHUNK))))
               for a in range(0, n, CHUNK)) / n


def train(t: policy_data.Targets, config: Config = Config(),
          progress: Callable[[int], None] | None = None) -> Trained:
    """Train a policy network on targets `t` (policy_data.targets), holding out
    `config.heldout` of the games.  ValueError when the data cannot be split so."""
    c = config
    held = net_data.game_draw(t, c.seed) < c.heldout
    fit, test = policy_data.subset(t, ~held), policy_data.subset(t, held)
    if not len(fit["players"]):
        raise ValueError("every game is held out: lower --heldout or give more games")
    if c.heldout > 0 and not len(test["players"]):
        raise ValueError(f"no game of the {net_data.games(t)} is held out at --heldout "
                         f"{c.heldout:g}: give more games or a larger --heldout (or 0)")
    rng = np.random.default_rng(c.seed)
    sample = policy_data.subset(fit, np.sort(rng.permutation(len(fit["players"]))[:CURVE_SAMPLE]))
    params = init(seed_key(c.seed), c.hidden, NUM_ACTIONS, out_scale=0.1)
    decay = {k: k.startswith("w") for k in WEIGHTS}
    opt = optax.adamw(optax.cosine_decay_schedule(c.lr, c.steps), weight_decay=c.weight_decay,
                      mask=decay)
    state = opt.init(params)

    @jax.jit
    def step(params, state, batch):
        value, grads = jax.value_and_grad(lambda q: jnp.mean(losses(q, *batch)))(params)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    def point(at: int) -> list:
        r = (lambda v: None if v is None else round(v, 6))
        return [at, r(_mean_loss(params, sample)), r(_mean_loss(params, test))]

    every = max(1, c.steps // CURVE_POINTS)
    curve = [point(0)]
    for i, pick in minibatches(rng, len(fit["players"]), c.batch, c.steps):
        params, state, _ = step(params, state, _batch(fit, pick))
        if i % every == 0 or i == c.steps:
            curve.append(point(i))
        if progress:
            progress(i)
    weights = {k: np.asarray(params[k], dtype=np.float32) for k in WEIGHTS}
    training = {**c.record(),
                "positions": {"train": len(fit["players"]), "heldout": len(test["players"])},
                "games": {"train": net_data.games(fit), "heldout": net_data.games(test)},
                "curve": curve}
    return Trained(weights, training, metrics(params, test))


def metrics(p: dict, t: dict, recall_at: tuple[int, ...] = RECALL_AT) -> dict:
    """Per player count ("2" to "6"), on the positions `t` where the search chose its move: how
    often that move is the network's first choice (`top1`) and among its best k for each k of
    `recall_at` (`topK`, over the roots of more than k moves, with `roots_over_K` their share),
    each beside what a uniform draw would give (`*_uniform`); and the loss over all of them."""
    if not len(t["players"]):
        return {}
    lg = np.concatenate([np.asarray(_logits(p, jnp.asarray(t["x"][a:a + CHUNK]),
                                            jnp.asarray(t["cand"][a:a + CHUNK])))
                         for a in range(0, len(t["players"]), CHUNK)])
    width = t["width"]
    lg = np.where(np.arange(lg.shape[1])[None, :] < width[:, None], lg, -np.inf)
    order = np.argsort(-lg, axis=1, kind="stable")
    played = t["played"]
    rank = np.where(played >= 0, (order == played[:, None]).argmax(axis=1), -1)
    out = {}
    for n in sorted(set(t["players"].tolist())):
        on = (t["players"] == n) & (played >= 0)
        m = {"positions": int((t["players"] == n).sum()),
             "loss": round(_mean_loss(p, policy_data.subset(t, t["players"] == n)), 4),
             "top1": round(float(np.mean(rank[on] == 0)), 4),
             "top1_uniform": round(float(np.mean(1 / width[on])), 4)}
        for k in recall_at:
            over = on & (width > k)
            if over.any():
                m[f"top{k}"] = round(float(np.mean(rank[over] < k)), 4)
                m[f"top{k}_uniform"] = round(float(np.mean(k / width[over])), 4)
                m[f"roots_over_{k}"] = round(float(over.sum() / max(on.sum(), 1)), 4)
        out[str(n)] = m
    return out


def train_command(folders: list, c: Config) -> str:
    """The command that trains this network again (every option spelled out; the output
    folder is left out: it does not change the network)."""
    return ("ekonos learn train-policy " + " ".join(shlex.quote(str(f)) for f in folders)
            + f" --hidden {c.hidden[0]},{c.hidden[1]} --steps {c.steps} --batch {c.batch}"
            f" --lr {c.lr:g} --weight-decay {c.weight_decay:g} --mix {c.mix:g}"
            f" --heldout {c.heldout:g} --seed {c.seed}")


def train_folders(folders: list, out: Path, config: Config = Config(),
                  progress: Callable[[int], None] | None = None) -> tuple[str, Path, Trained]:
    """Train a policy network on the self-play folders and write its file (into folder `out`,
    named by its hash, or at the path `out`).  Returns its name, its file and the network."""
    t, entries = policy_data.read_folders(folders, config.mix)
    trained = train(t, config, progress)
    text = net_text(trained.weights, train_command(folders, config), entries, trained.training,
                    trained.metrics, kind=POLICY_KIND)
    name, path = write_net(text, out)
    return name, path, trained
