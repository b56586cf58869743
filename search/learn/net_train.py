"""Training the value network (JAX and optax, the extra `train`), behind `ekonos learn train`.

    ekonos learn train selfplay/2p selfplay/4p -o search/models --hidden 128,32 --steps 20000

The loss of a position of n players, its outputs o and its game's realized win shares w and
final scores s per relative seat j < n (seats past n are masked out):
``-sum_j w_j log softmax(o[0:n])_j + score_weight * mean_j (o[6 + j] - s_j / 30)^2``, averaged
over a minibatch, plus (`teacher_weight` > 0) that weight times the cross-entropy of the win
shares against the linear evaluation's on the same position (a teacher), plus (`q_weight` > 0)
that weight times the binary cross-entropy of the mover's win share against the search's own
estimate recorded with the position (`q`: the expert's reading, which the network learns to
give without searching); the validation loss that chooses the step kept is the outcome loss
alone.  Initialisation: He normal for the two ReLU layers, Glorot normal for the
output layer, zero biases, from the seed; AdamW (optax) with weight decay on the weights, not the
biases; minibatches drawn from successive seeded permutations of the training positions.  The
held-out games (search/learn/net_data.py, by game) are never trained on: the curve records, every
so many steps, the loss on (a fixed sample of at most CURVE_SAMPLE of) the training positions
and on the first half of the held-out games (validation); the weights kept are those of the
curve's point with the least validation loss (early stopping: with a few thousand games a
network learns to recognise the games long before it stops improving), and the metrics per
player count are measured on the other half, never used for any choice.
Same data and seed: the same file, byte for byte (on the same machine and JAX build).

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

from search._net import NET_INPUT_COUNT, NET_OUTPUT_COUNT, NET_SCORE_SCALE
from search.evaluation import MAXP
from search.learn import net_data
from search.learn.net_file import net_text, write_net
from search import evaluation
from search.network import WEIGHTS, forward_numpy, linear_reading, with_base

#: Training positions the curve's training loss is measured on (a fixed seeded sample).
CURVE_SAMPLE = 8192
#: Points of the curve (besides the start).
CURVE_POINTS = 40
#: Positions per forward pass when measuring.
CHUNK = 8192


@dataclass(frozen=True)
class Config:
    """How a network is trained (recorded in its file)."""
    hidden: tuple[int, int] = (128, 32)
    steps: int = 20000
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-4
    score_weight: float = 1.0
    heldout: float = 0.1
    seed: int = 0
    teacher_weight: float = 0.0
    base: str | None = evaluation.SHIPPED
    q_weight: float = 0.0


    def record(self) -> dict:
        return {"seed": self.seed, "steps": self.steps, "batch": self.batch, "lr": self.lr,
                "weight_decay": self.weight_decay, "score_weight": self.score_weight,
                "heldout": self.heldout, "teacher_weight": self.teacher_weight,
                "base": self.base, "q_weight": self.q_weight}

    def base_text(self) -> str:
        return self.base or "none"


@dataclass
class Trained:
    """A trained network: its weights (float32 by name), how it was trained (Config.record,
    the positions and games each side of the split, the curve) and its held-out metrics."""
    weights: dict[str, np.ndarray]
    training: dict
    metrics: dict


def seed_key(seed: int):
    """The JAX key of a seed of 64 bits (jax.random.PRNGKey alone keeps 32 of them, so seeds
    2**32 apart would start alike): both halves, the low one as the key, the high folded in."""
    return jax.random.fold_in(jax.random.PRNGKey(seed & 0xFFFFFFFF), (seed >> 32) & 0xFFFFFFFF)


def init(key, hidden: tuple[int, int], outputs: int = NET_OUTPUT_COUNT,
         out_scale: float = 1.0) -> dict:
    """Seeded initial weights: He normal before a ReLU, Glorot normal (times `out_scale`) for
    the `outputs` outputs."""
    h1, h2 = hidden
    k1, k2, k3 = jax.random.split(key, 3)
    he, glorot = jax.nn.initializers.he_normal(), jax.nn.initializers.glorot_normal()
    w3 = glorot(k3, (h2, outputs), jnp.float32)
    return {"w1": he(k1, (NET_INPUT_COUNT, h1), jnp.float32), "b1": jnp.zeros(h1, jnp.float32),
            "w2": he(k2, (h1, h2), jnp.float32), "b2": jnp.zeros(h2, jnp.float32),
            "w3": w3 if out_scale == 1.0 else w3 * out_scale,
            "b3": jnp.zeros(outputs, jnp.float32)}


def minibatches(rng: np.random.Generator, n: int, batch: int, steps: int):
    """(step, positions) for steps 1 to `steps`: minibatches of `batch` of the `n` positions
    (all of them when fewer), from successive permutations drawn by `rng`, each sorted."""
    size = min(batch, n)
    order, at = rng.permutation(n), 0
    for i in range(1, steps + 1):
        if at + size > n:
            order, at = rng.permutation(n), 0
        yield i, np.sort(order[at:at + size])
        at += size


def forward(p: dict, x):
    """The network in JAX (as _net.pxd `net_forward`)."""
    a = jax.nn.relu(x @ p["w1"] + p["b1"])
    b = jax.nn.relu(a @ p["w2"] + p["b2"])
    return b @ p["w3"] + p["b3"]


def combined(p: dict, x, base_logit, base_score):
    """The network's outputs with its base's reading added (zeros: no base)."""
    out = forward(p, x)
    return jnp.concatenate([out[:, :MAXP] + base_logit,
                            out[:, MAXP:] + base_score / NET_SCORE_SCALE], axis=1)


def losses(p: dict, x, players, win, score, base_logit, base_score):
    """Per position: the win cross-entropy and the mean squared score error over its seats."""
    out = combined(p, x, base_logit, base_score)
    present = jnp.arange(MAXP)[None, :] < players[:, None]
    logits = jnp.where(present, out[:, :MAXP], -1e9)
    ce = -jnp.sum(jnp.where(present, win * jax.nn.log_softmax(logits), 0.0), axis=1)
    err = out[:, MAXP:] - score / NET_SCORE_SCALE
    mse = jnp.sum(jnp.where(present, err * err, 0.0), axis=1) / players
    return ce, mse


def loss(p: dict, batch: tuple, score_weight) -> jnp.ndarray:
    ce, mse = losses(p, *batch)
    return jnp.mean(ce + score_weight * mse)


def taught_loss(p: dict, batch: tuple, teacher, score_weight, teacher_weight,
                q_weight=0.0) -> jnp.ndarray:
    """`loss` plus teacher_weight x the cross-entropy of the network's win shares against the
    linear evaluation's (the teacher: what the search knows today, given on every position
    where the outcomes of a few thousand games are thin)."""
    x, players = batch[0], batch[1]
    ce, mse = losses(p, *batch[:6])
    present = jnp.arange(MAXP)[None, :] < players[:, None]
    logits = jnp.where(present, combined(p, x, batch[4], batch[5])[:, :MAXP], -1e9)
    shares = jax.nn.log_softmax(logits)
    taught = -jnp.sum(jnp.where(present, teacher * shares, 0.0), axis=1)
    # the search's own estimate of the mover's share (relative seat 0), where there is one
    q = batch[6]
    known = jnp.isfinite(q)
    q = jnp.where(known, jnp.clip(q, 0.0, 1.0), 0.0)
    mover = jnp.clip(jnp.exp(shares[:, 0]), 1e-7, 1 - 1e-7)
    searched = jnp.where(known, -(q * jnp.log(mover) + (1 - q) * jnp.log(1 - mover)), 0.0)
    return jnp.mean(ce + score_weight * mse + teacher_weight * taught + q_weight * searched)


def _device(arrays: dict, q: bool = False) -> tuple:
    names = ("x", "players", "win", "score", "base_logit", "base_score") + (("q",) if q else ())
    return tuple(jnp.asarray(arrays[k], jnp.float32) for k in names)


def _with_base_arrays(arrays: dict, base: str | None) -> dict:
    """The arrays with the base's reading of each position (zeros without a base)."""
    n = len(arrays["players"])
    if base:
        logit, score = linear_reading(arrays["x"], arrays["players"], base)
    else:
        logit = score = np.zeros((n, MAXP))
    return {**arrays, "base_logit": logit.astype(np.float32),
            "base_score": score.astype(np.float32)}


def _mean_loss(p: dict, arrays: dict, score_weight: float) -> float:
    """The loss over all `arrays` (in chunks)."""
    total, n = 0.0, len(arrays["players"])
    for at in range(0, n, CHUNK):
        part = {k: v[at:at + CHUNK] for k, v in arrays.items()}
        total += float(_sum_loss(p, _device(part), score_weight))
    return total / n


@jax.jit
def _sum_loss(p, batch, score_weight):
    ce, mse = losses(p, *batch)
    return jnp.sum(ce + score_weight * mse)


def train(arrays: dict, config: Config = Config(),
          progress: Callable[[int], None] | None = None) -> Trained:
    """Train a network on `arrays` (selfplay.ARRAYS: x, players, win, score, game at least),
    holding out `config.heldout` of the games.  ValueError when the data cannot be split so."""
    c = config
    arrays = _with_base_arrays(net_data.needed(arrays), c.base)
    draw = net_data.game_draw(arrays, c.seed)
    held = draw < c.heldout
    fit, test = net_data.subset(arrays, ~held), net_data.subset(arrays, held)
    # the held-out games' first half chooses the step kept, the second half is measured
    valid = net_data.subset(test, draw[held] < c.heldout / 2)
    test = net_data.subset(test, draw[held] >= c.heldout / 2)
    if not len(fit["players"]):
        raise ValueError("every game is held out: lower --heldout or give more games")
    if c.heldout > 0 and not len(test["players"]):
        raise ValueError(f"no game of the {net_data.games(arrays)} is held out at --heldout "
                         f"{c.heldout:g}: give more games or a larger --heldout (or 0)")
    rng = np.random.default_rng(c.seed)
    sample = net_data.subset(fit, np.sort(rng.permutation(len(fit["players"]))[:CURVE_SAMPLE]))
    params = init(seed_key(c.seed), c.hidden)
    if c.base:                       # start from the base's reading exactly: no correction yet
        params = {**params, "w3": jnp.zeros_like(params["w3"]), "b3": jnp.zeros_like(params["b3"])}
    decay = {k: k.startswith("w") for k in WEIGHTS}
    opt = optax.adamw(c.lr, weight_decay=c.weight_decay, mask=decay)
    state = opt.init(params)

    teacher = net_data.linear_shares(fit["x"], fit["players"].astype(np.int64)) \
        if c.teacher_weight > 0 else np.zeros((len(fit["players"]), MAXP))

    @jax.jit
    def step(params, state, batch, taught):
        value, grads = jax.value_and_grad(taught_loss)(params, batch, taught, c.score_weight,
                                                       c.teacher_weight, c.q_weight)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    best = {"loss": None, "step": 0, "params": params}

    def point(at: int) -> list:
        heldout = _mean_loss(params, valid, c.score_weight) if len(valid["players"]) else None
        if heldout is not None and (best["loss"] is None or heldout < best["loss"]):
            best.update(loss=heldout, step=at, params=params)
        return [at, round(_mean_loss(params, sample, c.score_weight), 6),
                None if heldout is None else round(heldout, 6)]

    every = max(1, c.steps // CURVE_POINTS)
    curve = [point(0)]
    for i, pick in minibatches(rng, len(fit["players"]), c.batch, c.steps):
        params, state, _ = step(params, state, _device(net_data.subset(fit, pick), q=True),
                                jnp.asarray(teacher[pick], jnp.float32))
        if i % every == 0 or i == c.steps:
            curve.append(point(i))
        if progress:
            progress(i)
    if best["loss"] is None:                    # nothing held out: the last step
        best.update(step=c.steps, params=params)
    weights = {k: np.asarray(best["params"][k], dtype=np.float32) for k in WEIGHTS}
    training = {**c.record(),
                "positions": {"train": len(fit["players"]), "valid": len(valid["players"]),
                              "heldout": len(test["players"])},
                "games": {"train": net_data.games(fit), "valid": net_data.games(valid),
                          "heldout": net_data.games(test)},
                "curve": curve, "kept_step": best["step"]}
    metrics = net_data.metrics(with_base(_outputs(weights, test), test["x"], test["players"],
                                         c.base), test) if len(test["players"]) else {}
    return Trained(weights, training, metrics)


def _outputs(weights: dict, arrays: dict) -> np.ndarray:
    x = arrays["x"]
    return np.concatenate([forward_numpy(weights, x[a:a + CHUNK])
                           for a in range(0, len(x), CHUNK)])


def train_command(folders: list, c: Config) -> str:
    """The command that trains this network again (every option spelled out; the output
    folder is left out: it does not change the network)."""
    return ("ekonos learn train " + " ".join(shlex.quote(str(f)) for f in folders)
            + f" --hidden {c.hidden[0]},{c.hidden[1]} --steps {c.steps} --batch {c.batch}"
            f" --lr {c.lr:g} --weight-decay {c.weight_decay:g} --score-weight"
            f" {c.score_weight:g} --teacher-weight {c.teacher_weight:g} --q-weight"
            f" {c.q_weight:g} --base {c.base_text()}"
            f" --heldout {c.heldout:g} --seed {c.seed}")


def train_folders(folders: list, out: Path, config: Config = Config(),
                  progress: Callable[[int], None] | None = None) -> tuple[str, Path, Trained]:
    """Train a network on the self-play folders and write its file (into folder `out`, named
    by its hash, or at the path `out`).  Returns its name, its file and the trained network."""
    arrays, entries = net_data.read_folders(folders)
    trained = train(arrays, config, progress)
    text = net_text(trained.weights, train_command(folders, config), entries, trained.training,
                    trained.metrics, config.base)
    name, path = write_net(text, out)
    return name, path, trained
