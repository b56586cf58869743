"""Bots, named by spec strings used everywhere (CLI, arena, levels):

    random                       uniform over legal actions
    greedy                       one-ply heuristic (instant)
    flat:iterations=5000         determinized flat Monte Carlo (PIMC)
    ismcts:iterations=20000,c=0.7,workers=2[,time=0.5][,reward=blend][,group=1][,policy=light]

Every bot decides from a *view* (`State.view(seat)`): the other hands are unknown to it (R21).
`choose(view)` returns an action number of the fixed table.  Bots are seeded and reproducible:
the same position, seed and iteration budget give the same move (time budgets do not).
"""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.rules import MAX_TILES, PLAYER_TABLE
from search._ismcts import Searcher, flat_search

MASK64 = 2**64 - 1

#: Strength levels of `ekonos play --level`: named specs (iteration budgets).
LEVELS: dict[int, str] = {
    1: "ismcts:iterations=200",
    2: "ismcts:iterations=1000",
    3: "ismcts:iterations=10000",
    4: "ismcts:iterations=30000,workers=2",
    5: "ismcts:iterations=100000,workers=2",
}


class SpecError(EkonosError):
    """A bot spec that cannot be understood."""


def derive_seed(*parts: int) -> int:
    """A 64-bit seed from integers (splitmix64 mixing): stable across runs and machines."""
    z = 0x243F6A8885A308D3
    for p in parts:
        z = (z + (p & MASK64) + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
    return z


class Bot:
    """Base class: `choose(view) -> action`.  `seed` makes a bot's sequence of choices
    reproducible; `choose(view, seed=...)` fixes the seed of one decision."""

    spec = "bot"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._calls = 0

    def _next_seed(self, seed: int | None) -> int:
        if seed is not None:
            return seed
        self._calls += 1
        return derive_seed(self.seed, self._calls)

    def choose(self, view: State, seed: int | None = None) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"


def _check_view(view: State) -> None:
    if view.is_over():
        raise EkonosError("the game is over: there is no decision to make")
    if view.step_name == "card" and not view.hand_known(view.to_move):
        raise EkonosError(f"seat {view.to_move} must play a card from a hand this position "
                          "does not know")


class RandomBot(Bot):
    spec = "random"

    def choose(self, view, seed=None):
        _check_view(view)
        rng = random.Random(self._next_seed(seed))
        return view.nth_legal(rng.randrange(view.count_legal()))


class GreedyBot(Bot):
    """One ply with a heuristic a casual player would recognise: a share is worth the tiles its
    company has plus what its growth track promises; grow and expand what you own, buy where a
    share is worth more than its price, sell where the column pays more than the share is worth,
    and keep the best opponent down a little.  Expansion decisions are chained greedily."""

    spec = "greedy"
    OPPONENT_WEIGHT = 0.4

    def choose(self, view, seed=None):
        _check_view(view)
        seat = view.to_move
        rng = random.Random(self._next_seed(seed))
        best, best_v = [], None
        for action in view.legal_actions():
            v = self._after(view, action, seat)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = [action], v
            elif abs(v - best_v) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]

    def _after(self, view: State, action: int, seat: int) -> float:
        st = view.copy()
        st.apply_unchecked(action)
        # a seat's own chained expansion decisions: continue greedily (bounded by 3 actions)
        for _ in range(4):
            if st.is_over() or st.to_move != seat or st.step_name not in ("expand-choice", "expand"):
                break
            acts = st.legal_actions()
            nxt = max(acts, key=lambda a: self._value_after(st, a, seat))
            st.apply_unchecked(nxt)
        return self.value(st, seat)

    def _value_after(self, st: State, action: int, seat: int) -> float:
        s2 = st.copy()
        s2.apply_unchecked(action)
        return self.value(s2, seat)

    @classmethod
    def value(cls, st: State, seat: int) -> float:
        f = st._fields()
        n = st.nplayers
        rounds = PLAYER_TABLE[n].rounds
        # how much of the game is left: growth promises more early on
        left = 0.0 if st.is_over() else (rounds - st.round + 1) / rounds
        worth = []
        for c in range(6):
            tiles = bin(f["tiles"][c]).count("1")
            promise = left * (f["growth"][c] / 6.0) * 2.0 if tiles < MAX_TILES else 0.0
            protected = bin(f["tiles"][c] & f["protected"]).count("1")
            worth.append(tiles + promise + 0.15 * protected)
        values = [f["coins"][q] + sum(f["shares"][q][c] * worth[c] for c in range(6))
                  for q in range(n)]
        best_other = max(v for q, v in enumerate(values) if q != seat)
        return values[seat] - cls.OPPONENT_WEIGHT * best_other


class FlatBot(Bot):
    def __init__(self, seed=0, iterations=5000, policy="light"):
        super().__init__(seed)
        self.iterations = iterations
        self.policy = policy
        self.spec = f"flat:iterations={iterations}" + (f",policy={policy}" if policy != "light" else "")

    def choose(self, view, seed=None):
        _check_view(view)
        stats = flat_search(view, view.to_move, self.iterations, self._next_seed(seed), self.policy)
        return max(stats, key=lambda a: (stats[a][1] / max(stats[a][0], 1),
                                         stats[a][2] / max(stats[a][0], 1), -a))


@dataclass
class Analysis:
    """Merged root statistics of a search: moves best first, each a dict with action, visits,
    win (mean win share), score (mean final score) and line (expected continuation)."""
    moves: list[dict]
    iterations: int
    decisions: int
    seconds: float
    nodes: int


class ISMCTSBot(Bot):
    def __init__(self, seed=0, iterations=10000, time=0.0, c=0.7, workers=1, reward="blend",
                 blend=0.25, group=1, policy="light"):
        super().__init__(seed)
        if iterations <= 0 and time <= 0:
            raise SpecError("ismcts needs iterations > 0 or time > 0")
        if workers < 1:
            raise SpecError(f"workers must be at least 1, got {workers}")
        self.iterations, self.time, self.workers = iterations, time, workers
        self.params = dict(c=c, group=group, reward=reward, blend=blend, policy=policy)
        Searcher(**self.params)  # validates reward/policy now, not mid-game
        parts = [f"iterations={iterations}" if not time else f"time={time}", f"c={c}"]
        if workers != 1:
            parts.append(f"workers={workers}")
        defaults = dict(reward="blend", blend=0.25, group=1, policy="light")
        parts += [f"{k}={self.params[k]}" for k, v in defaults.items() if self.params[k] != v]
        self.spec = "ismcts:" + ",".join(parts)

    def analyse(self, view: State, seed: int | None = None, line_length: int = 8) -> Analysis:
        """Search the view for the seat to move; root parallelism over `workers` threads (the
        search releases the GIL), each with its own tree, merged by action."""
        import time as _time
        _check_view(view)
        seed = self._next_seed(seed)
        seat = view.to_move
        w = self.workers
        budgets = [self.iterations // w + (1 if i < self.iterations % w else 0) for i in range(w)]
        searchers = [Searcher(**self.params) for _ in range(w)]
        t0 = _time.perf_counter()
        threads = [threading.Thread(target=searchers[i].run, args=(view, seat),
                                    kwargs=dict(iterations=budgets[i] if not self.time else 0,
                                                seconds=self.time, seed=derive_seed(seed, i)))
                   for i in range(w)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = _time.perf_counter() - t0
        merged: dict[int, dict] = {}
        for s in searchers:
            for m in s.root_moves(line_length):
                cur = merged.get(m["action"])
                if cur is None:
                    merged[m["action"]] = dict(m, best_visits=m["visits"])
                    continue
                if m["visits"] > cur["best_visits"]:
                    cur["line"], cur["best_visits"] = m["line"], m["visits"]
                for k in ("visits", "win", "score"):
                    cur[k] += m[k]
        moves = []
        for m in merged.values():
            v = max(m["visits"], 1)
            moves.append({"action": m["action"], "visits": m["visits"], "win": m["win"] / v,
                          "score": m["score"] / v, "line": m["line"]})
        moves.sort(key=lambda m: (-m["visits"], -m["win"], m["action"]))
        return Analysis(moves, sum(s.iterations_done for s in searchers),
                        sum(s.decisions_simulated for s in searchers), seconds,
                        sum(s.node_count for s in searchers))

    def choose(self, view, seed=None):
        if view.count_legal() == 1:
            return view.nth_legal(0)
        return self.analyse(view, seed).moves[0]["action"]


_BOTS = {"random": RandomBot, "greedy": GreedyBot, "flat": FlatBot, "ismcts": ISMCTSBot}
_PARAMS = {
    "flat": {"iterations": int, "policy": str},
    "ismcts": {"iterations": int, "time": float, "c": float, "workers": int, "reward": str,
               "blend": float, "group": int, "policy": str},
}


def parse_spec(spec: str) -> tuple[str, dict]:
    """'ismcts:iterations=2000,c=0.5' -> ('ismcts', {'iterations': 2000, 'c': 0.5})."""
    text = spec.strip()
    if text.lower().startswith("level") and text[5:].strip(":= ").isdigit():
        level = int(text[5:].strip(":= "))
        if level not in LEVELS:
            raise SpecError(f"bot spec {spec!r}: levels are 1-5")
        text = LEVELS[level]
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in _BOTS:
        raise SpecError(f"bot spec {spec!r}: unknown bot {name!r} "
                        f"(bots: {', '.join(_BOTS)}, or level1-level5)")
    kwargs: dict = {}
    allowed = _PARAMS.get(name, {})
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise SpecError(f"bot spec {spec!r}: {item!r} is not key=value")
        if key not in allowed:
            opts = ", ".join(allowed) or "none"
            raise SpecError(f"bot spec {spec!r}: {name} has no parameter {key!r} (parameters: {opts})")
        try:
            kwargs[key] = allowed[key](value.strip())
        except ValueError:
            raise SpecError(f"bot spec {spec!r}: {key}={value!r} is not a "
                            f"{allowed[key].__name__}") from None
    return name, kwargs


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec string (see the module docstring), seeded."""
    name, kwargs = parse_spec(spec)
    try:
        return _BOTS[name](seed=seed, **kwargs)
    except ValueError as e:
        raise SpecError(f"bot spec {spec!r}: {e}") from None
