"""The policy network at play time: a prior over the moves of one decision, read from the
deciding seat's side, that keeps the search's root to the moves it rates best.

A policy network (a file of kind ``policy-net``, search/network.py; trained on self-play root
visits by search/learn/policy_train.py, `ekonos learn train-policy`) reads the inputs the value
network reads (search/_net.pxd `net_inputs`: the public state and the deciding seat's own hand,
nothing of another hand, R21) and gives one logit per action of the engine's table.  The
search's sequential halving (search/halving.py) then spends its budget on the `top` moves only:
with 2 000 iterations and 200 legal moves, each move gets about one iteration in the first
round; kept to 16, about 30 (docs/strength.md, "A policy prior at the root").

The forward pass is numpy's (float32), once per decision: it costs no think time that the arena
can see (docs/strength.md), so it stays out of the C search.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ekonos import State
from search import network
from search._net import net_inputs_of


@dataclass(frozen=True, eq=False)
class Policy:
    """A policy network's weights (float32, by name) and the name it is known by."""
    name: str
    weights: dict

    def logits(self, view: State, seat: int, actions: Sequence[int]) -> np.ndarray:
        """The network's logit of each of `actions` for `seat` deciding in `view`, a view that
        knows that seat's hand (the seat's own; ValueError otherwise)."""
        w = self.weights
        x = net_inputs_of(view, seat)
        h = np.maximum(x @ w["w1"] + w["b1"], 0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0)
        a = np.asarray(actions, dtype=np.int64)
        return self._out_rows[a] @ h + w["b3"][a]

    @functools.cached_property
    def _out_rows(self) -> np.ndarray:
        """The last layer's weights one row per action, so that a decision's moves are
        contiguous rows, not a strided gather of columns."""
        return np.ascontiguousarray(self.weights["w3"].T)

    def top(self, view: State, seat: int, actions: Sequence[int], k: int) -> list[int]:
        """The `k` moves of `actions` the network rates best, in the order given (all of them
        when there are k or fewer; a tie goes to the move given first)."""
        actions = list(actions)
        if len(actions) <= k:
            return actions
        return self.rated(view, seat, actions, k)[0]

    def at_root(self, view: State, seat: int, k: int,
                weight: float) -> tuple[list[int], dict[int, float] | None]:
        """What the halving's root takes from the prior: the `k` legal moves kept and, where
        the logits rank them too (`weight` > 0), the logits (else None)."""
        if weight:
            return self.rated(view, seat, view.legal_actions(), k)
        return self.top(view, seat, view.legal_actions(), k), None

    def rated(self, view: State, seat: int, actions: Sequence[int],
              k: int) -> tuple[list[int], dict[int, float]]:
        """`top`'s moves and the logit of each of `actions`, from one forward pass."""
        actions = list(actions)
        z = self.logits(view, seat, actions)
        order = np.argsort(-z, kind="stable")
        keep = set(order[:k].tolist())
        return [a for i, a in enumerate(actions) if i in keep], dict(zip(actions, z.tolist()))


@functools.cache
def load_policy(name: str) -> Policy:
    """The policy network `name` (a shipped network's name `net-…`, or a file's path), read and
    checked once: NetError saying what is wrong (a value network's file among them)."""
    weights, _ = network.read(network.net_path(name), network.POLICY_KIND)
    return Policy(name, weights)
