"""A bot's score on the position suite (search/lab/suite.py builds it).

For every position with a reference, the bot decides from the stored view (never more: the
suite stores views) at a seed derived from `seed` and the position's id.  Its loss is the best
move's reference value minus the chosen move's value, in points of win share (0-100), never
below 0; a gift is a loss of `GIFT` points or more.  The values follow search/lab/suite.py's rule
for moves with few visits (`move_value`).

Per bot: the mean loss with a 95% normal interval over positions (mean ± 1.96·sd/√n), the gift
rate with its Wilson interval, how often it chose the reference's best move, how often it chose
a non-contender (a move valued by the few-visits rule), the median think time, and the same
figures by player count and by step.
"""
from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.moves import Move
from ekonos.rules import Step
from search.lab.arena import wilson
from search.bots import derive_seed, make_bot, parse_params
from search.lab.suite import Suite

#: Points of win share lost from which a move is a gift.
GIFT = 10.0
Z95 = 1.959964


def check_spec(spec: str) -> None:
    """SpecError for a spec the arena would refuse; EkonosError for a bot that sees every hand
    (a suite stores views: such a bot has nothing more to see, and measures nothing)."""
    cls, _ = parse_params(spec)
    if cls.sees_all:
        raise EkonosError(f"bot spec {spec!r}: {cls.name} is shown every hand; a suite stores "
                          "only the view of the seat to move, so it cannot be scored on one")


def contender_floor(reference: dict) -> int:
    """Visits a move needs to be a contender (the most visited move always is one)."""
    return min(reference["floor"], max(m["visits"] for m in reference["moves"]))


def move_value(reference: dict, move: str) -> tuple[float, bool]:
    """(value 0-1, contender?) of `move` in a reference: its pooled win share when its visits
    reach the contender floor; else min(its win share, the lowest contender's); the lowest
    contender's when the search never visited it."""
    floor = contender_floor(reference)
    lowest = min(m["win"] for m in reference["moves"] if m["visits"] >= floor)
    for m in reference["moves"]:
        if m["move"] == move:
            if m["visits"] >= floor:
                return float(m["win"]), True
            return min(float(m["win"]), lowest), False
    return float(lowest), False


def best_move(reference: dict) -> dict:
    """The reference's best move: the contender of highest value (not the most visited: at a
    card step the visits of a card are split over its spaces, so a card with one use would
    win on visits alone)."""
    floor = contender_floor(reference)
    return max((m for m in reference["moves"] if m["visits"] >= floor),
               key=lambda m: (m["win"], m["visits"]))


def loss_of(reference: dict, move: str) -> tuple[float, bool]:
    """(points of win share lost by `move`, contender?): best value − its value (>= 0)."""
    value, contender = move_value(reference, move)
    return max(0.0, 100.0 * (best_move(reference)["win"] - value)), contender


@dataclass(frozen=True)
class Decision:
    """One position decided by a bot."""

    id: int
    players: int
    step: str
    move: str
    best: str
    loss: float
    contender: bool
    seconds: float


@dataclass(frozen=True)
class Group:
    """Loss and gift figures over a set of decisions."""

    positions: int
    mean_loss: float
    loss_low: float
    loss_high: float
    gifts: int
    gift_rate: float
    gift_low: float
    gift_high: float
    best_rate: float
    off_reference: int             # choices valued by the few-visits rule

    @classmethod
    def of(cls, ds: list[Decision]) -> "Group":
        n = len(ds)
        losses = [d.loss for d in ds]
        mean = sum(losses) / n
        half = Z95 * statistics.stdev(losses) / math.sqrt(n) if n > 1 else math.inf
        gifts = sum(1 for x in losses if x >= GIFT)
        low, high = wilson(gifts / n, n)
        return cls(n, mean, max(0.0, mean - half), mean + half, gifts, gifts / n, low, high,
                   sum(1 for d in ds if d.move == d.best) / n,
                   sum(1 for d in ds if not d.contender))

    def to_dict(self) -> dict:
        r = {k: round(v, 4) if isinstance(v, float) and math.isfinite(v) else v
             for k, v in self.__dict__.items()}
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in r.items()}


@dataclass(frozen=True)
class SuiteScore:
    """A bot's score on a suite: the overall figures, the breakdowns and every decision."""

    spec: str
    seed: int
    overall: Group
    think_median: float
    by_players: dict[int, Group]
    by_step: dict[str, Group]
    decisions: list[Decision] = field(repr=False)

    def to_dict(self) -> dict:
        return {"bot": self.spec, "seed": self.seed, **self.overall.to_dict(),
                "gift_threshold": GIFT, "think_median": round(self.think_median, 5),
                "by_players": {str(k): g.to_dict() for k, g in self.by_players.items()},
                "by_step": {k: g.to_dict() for k, g in self.by_step.items()},
                "decisions": [{"id": d.id, "move": d.move, "loss": round(d.loss, 3),
                               "contender": d.contender, "seconds": round(d.seconds, 5)}
                              for d in self.decisions]}


def decide(entry: dict, spec: str, seed: int) -> Decision:
    """The bot of `spec` decides one suite position (from its stored view)."""
    view = State.from_dict(entry["position"])
    ref = entry["reference"]
    bot = make_bot(spec, seed=seed)
    t0 = time.perf_counter()
    action = bot.choose(view, seed=derive_seed(seed, entry["id"]))
    seconds = time.perf_counter() - t0
    move = str(Move.from_action(action))
    loss, contender = loss_of(ref, move)
    return Decision(entry["id"], entry["players"], entry["step"], move, best_move(ref)["move"],
                    loss, contender, seconds)


def score_suite(suite: Suite, spec: str, seed: int = 0,
                progress: Callable[[int, int], None] | None = None) -> SuiteScore:
    """Score the bot of `spec` on every position of `suite` with a reference."""
    check_spec(spec)
    entries = suite.complete()
    if not entries:
        raise EkonosError("the suite has no position with a reference yet")
    ds = []
    for i, entry in enumerate(entries):
        ds.append(decide(entry, spec, seed))
        if progress is not None:
            progress(i + 1, len(entries))
    players = sorted({d.players for d in ds})
    steps = sorted({d.step for d in ds}, key=Step.from_text)
    return SuiteScore(spec, seed, Group.of(ds), statistics.median(d.seconds for d in ds),
                      {n: Group.of([d for d in ds if d.players == n]) for n in players},
                      {s: Group.of([d for d in ds if d.step == s]) for s in steps}, ds)
