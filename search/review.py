"""Game review: where a recorded game was won and lost, decision by decision.

For every decision of the chosen seats: the move played, the best move by the search, each one's
expected win share, the loss (in points of win share: 100 = a certain win), and a mark as chess
players know them (Lichess's thresholds: inaccuracy from 5 points lost, mistake from 10, blunder
from 15); per seat an accuracy figure and the costliest decisions.

Each decision is searched from the seat's view only (`State.view(seat)`, R21): the other hands
and the undealt cards are never read, so the review is the same whatever they were.

How a decision is judged: up to three looks, each only where the one before finds a loss.

1. **The first look** is the judge's search (search.analysis: the search of level `level`, level
   3 by default, with its budget rule `judge_iterations`): exactly the search `ekonos hint`
   runs on that position, at the decision's seed (`seed` of each decision), so `ekonos hint
   POSITION --level L --seed S` prints the same figures.  Its first move is the best; when the
   played move is that move, the decision lost nothing.
2. When the played move is another one and the first look measures it within 5 points of the
   best on enough visits (`visit_floor`), the decision is not marked: no mark without a
   measured loss.
3. Otherwise **the second look** compares the two moves directly: REPLICATES independent
   searches (a seed each), each spending the same budget on the played move and on the best
   one, forced at the root in turn (`Searcher.forced`, as sequential halving does), so that both
   are searched as deeply, whatever their first-look visits.  Each replicate gives a loss; the
   loss shown is their mean, with a 90% interval (Student's t over the replicates); the mark
   goes by the interval's lower end, so that a mark is a loss that holds with 95% confidence
   (a blunder: at least 15 points lost, with that confidence).  Method `first` / `second`.
4. A decision the second look would mark gets **a deep look** before it is marked: the same
   comparison in DEEP_REPLICATES searches, each DEEP_SHARE times as deep as the first look on
   each move.  Its figures and interval are the ones shown, and its lower end gives the mark
   (method `deep`): a loss picked because a search found it large is overstated at that
   search's depth (docs/strength.md, "Review marks under a deeper look").

Where the rest of the game needs no card the seat cannot see (its last decisions in the last
round, search/exact.py), neither look samples: every line is searched to the end, the loss is
exact and so is the mark (method `exact`; the shares are exact, not calibrated).

A played move measured at least as good as the search's choice is reported as the best.

The two win shares shown are calibrated (search/calibration_map.py: the search's figure mapped
to how often positions it rated so were won in self-play), and the loss is their difference, so
that the points lost are points of a share that comes true; the search's own figures are kept
as `win_played_raw` and `win_best_raw`.  The map was fitted for level 3's search (see its
``spec``), the judge's by default.

Seeds derive from `seed` and the decision's number, so a review is reproducible, whatever the
number of threads (`workers` share the decisions, one search each).
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.moves import Move
from ekonos.position import state_from_dict
from search import calibration_map, exact
from search.analysis import JUDGE_LEVEL, judge_bot, judge_iterations, level_params
from search.bots import derive_seed
from search.roots import Stop, stopped_by

#: The judge's level when a review is given none (search.analysis.JUDGE_LEVEL).
DEFAULT_LEVEL = JUDGE_LEVEL
#: The first look's budget at the default level (the hint's: search.analysis.judge_iterations).
DEFAULT_ITERATIONS = judge_iterations(DEFAULT_LEVEL)
#: (points of win share lost, mark), most severe first (Lichess's thresholds).
MARKS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
#: The second look: this many independent searches of the two moves, each spending
#: SECOND_SHARE of the first look's budget on each move (docs/strength.md, "Review marks ...").
REPLICATES = 8
SECOND_SHARE = 1 / 8
#: The deep look, for a decision the second look would mark: this many searches, each spending
#: DEEP_SHARE times the first look's budget on each move (64 times the first look in all): its
#: replicates agree within a point, depth is what moves a loss (docs/strength.md, "Review ...").
DEEP_REPLICATES = 2
DEEP_SHARE = 16
#: What the second and the deep look cost, in first looks (both moves counted).
LOOK_TIMES = (2 * REPLICATES * SECOND_SHARE, 2 * DEEP_REPLICATES * DEEP_SHARE)
#: A first-look loss from this many points (or a played move on too few visits) is looked at
#: again; below it, on enough visits, the decision is not marked.
SECOND_LOOK_FROM = MARKS[-1][0]
#: Each replicate alternates between the two moves in this many slices, so both see the tree
#: and the random stream at the same stages.
SLICES = 4
#: One-sided 95% quantiles of Student's t by degrees of freedom (the interval of the loss is
#: mean ± t·sd/√n, 90% two-sided; its lower end is a loss that holds with 95% confidence).
T95 = {1: 6.314, 2: 2.920, 3: 2.353, 4: 2.132, 5: 2.015, 6: 1.943, 7: 1.895, 8: 1.860,
       9: 1.833, 10: 1.812, 11: 1.796, 12: 1.782, 13: 1.771, 14: 1.761, 15: 1.753}
#: A decision whose best move's win share is at most this, or whose played move's is at least
#: 1 - this, was taken in a decided game: whatever is played, little can be lost there.
DECIDED = 0.02
_SEED_SECOND, _SEED_DEEP = 2, 3        # the second and the deep look: streams of their own


def t95(df: int) -> float:
    """The one-sided 95% quantile of Student's t with `df` degrees of freedom (past 15, the
    value at 15: a little wider than needed)."""
    return math.inf if df < 1 else T95[min(df, 15)]


def mark_of(loss: float) -> str | None:
    """The mark of a decision that lost `loss` points of win share (None below 5)."""
    return next((name for limit, name in MARKS if loss >= limit), None)


def move_accuracy(loss: float) -> float:
    """Accuracy of one decision, 0-100, from the points of win share it lost: Lichess's curve
    103.17·e^(−0.04354·loss) − 3.17 (100 for no loss, about 50 at 15 points, 0 past 75)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


@dataclass(frozen=True)
class DecisionReview:
    """One decision reviewed.  Win shares are 0-1, calibrated (the search's own: `_raw`);
    `loss` is in points (0-100) of the calibrated shares."""

    ply: int
    seat: int
    round: int
    step: str
    played: str
    best: str
    win_played: float
    win_best: float
    loss: float
    mark: str | None
    options: int                 # legal decisions in the position
    visits_played: int          # iterations behind win_played
    visits_best: int
    method: str                 # first | second | deep | exact (the module's docstring)
    win_played_raw: float       # the search's own figures, before the calibration map
    win_best_raw: float
    seed: int = 0               # the first look's seed: `ekonos hint --seed` gives its figures
    low: float | None = None    # the loss's 90% interval (second or deep look; None: not
    #                             re-searched)
    high: float | None = None

    @property
    def decided(self) -> bool:
        """Taken in a decided game: the best move's win share at most DECIDED, or the played
        move's at least 1 - DECIDED (little could be lost there, whatever was played)."""
        return self.win_best <= DECIDED or self.win_played >= 1.0 - DECIDED

    def to_dict(self) -> dict:
        d = asdict(self)
        for k in ("win_played", "win_best", "win_played_raw", "win_best_raw"):
            d[k] = round(d[k], 4)
        for k in ("loss", "low", "high"):
            d[k] = _round(d[k], 2)
        d["decided"] = self.decided
        return d


@dataclass(frozen=True)
class GameReview:
    """The review of a game: its players, the reviewed seats, the budget and seed, every
    reviewed decision in order, and the win share each seat ended with (None if unfinished)."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    iterations: int
    seed: int
    decisions: tuple[DecisionReview, ...]
    result: tuple[float, ...] | None = None
    method: str = field(default="ismcts, from each seat's view", compare=False)
    calibration: str = ""        # the name of the calibration map of the shares shown
    level: int = DEFAULT_LEVEL   # the judge's level
    replicates: int = REPLICATES
    deep_replicates: int = DEEP_REPLICATES       # the deep look before a mark
    deep_share: float = DEEP_SHARE

    def of(self, seat: int) -> list[DecisionReview]:
        return [d for d in self.decisions if d.seat == seat]

    def accuracy(self, seat: int) -> float | None:
        """Mean of `move_accuracy` over the seat's reviewed decisions (None without any)."""
        mine = self.of(seat)
        return sum(move_accuracy(d.loss) for d in mine) / len(mine) if mine else None

    def open_accuracy(self, seat: int) -> float | None:
        """`accuracy` over the seat's decisions taken while the game was still open (not
        `decided`); None without any."""
        mine = [d for d in self.of(seat) if not d.decided]
        return sum(move_accuracy(d.loss) for d in mine) / len(mine) if mine else None

    def decided_count(self, seat: int) -> int:
        """The seat's reviewed decisions taken in a decided game."""
        return sum(d.decided for d in self.of(seat))

    def counts(self, seat: int) -> dict[str, int]:
        marks = [d.mark for d in self.of(seat)]
        return {name: marks.count(name) for _, name in MARKS}

    def costliest(self, k: int = 3, seat: int | None = None) -> list[DecisionReview]:
        """The `k` decisions that lost most (of `seat`, or of the reviewed seats), a loss > 0."""
        pool = self.decisions if seat is None else self.of(seat)
        ranked = sorted((d for d in pool if d.loss > 0), key=lambda d: (-d.loss, d.ply))
        return ranked[:k]

    def to_dict(self) -> dict:
        return {
            "format": "ekonos-review", "version": 1,
            "players": list(self.names), "seats": list(self.seats),
            "level": self.level, "iterations": self.iterations, "seed": self.seed,
            "replicates": self.replicates, "deep_replicates": self.deep_replicates,
            "deep_share": self.deep_share, "calibration": self.calibration,
            "marks": {name: limit for limit, name in MARKS},
            "mark_rule": "a mark goes by the lower end of the loss's 90% interval from the "
                         "second look, confirmed by a deep look (a loss that holds with 95% "
                         "confidence)",
            "accuracy": "mean over the seat's decisions of 103.1668*exp(-0.04354*loss)-3.1669, "
                        "loss in points of win share (Lichess's curve); open_accuracy: over "
                        f"the decisions not taken in a decided game (best move's win share "
                        f"<= {DECIDED:g} or played move's >= {1 - DECIDED:g})",
            "summary": [{"seat": q, "name": self.names[q], "decisions": len(self.of(q)),
                         "accuracy": _round(self.accuracy(q), 1),
                         "open_accuracy": _round(self.open_accuracy(q), 1),
                         "decided": self.decided_count(q), **self.counts(q)}
                        for q in self.seats],
            "costliest": [d.ply for d in self.costliest()],
            "result": None if self.result is None else [round(x, 4) for x in self.result],
            "decisions": [d.to_dict() for d in self.decisions],
        }


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


# ---------------------------------------------------------------------------------------------
# A record -> the positions to review

def replay_record(data: object) -> tuple[State, list[Move], int]:
    """The start position, the decisions and `ply0` of a game record (a position file with the
    "play" field `ekonos play` writes: start, moves, ply0).  EkonosError when it has none, or
    its decisions do not replay."""
    if not isinstance(data, dict) or not isinstance(data.get("play"), dict):
        raise EkonosError("not a game record: a review needs the \"play\" field that `ekonos "
                          "play` writes (the start position and every decision)")
    play = data["play"]
    start = state_from_dict(State, play.get("start"))
    texts = play.get("moves")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise EkonosError("play.moves: must be a list of moves in notation")
    ply0 = play.get("ply0", 0)
    if isinstance(ply0, bool) or not isinstance(ply0, int) or ply0 < 0:
        raise EkonosError(f"play.ply0: must be an integer >= 0, got {ply0!r}")
    st, moves = start.copy(), []
    for i, text in enumerate(texts, 1):
        try:
            moves.append(st.push_text(text))
        except EkonosError as e:
            raise EkonosError(f"play.moves[{i - 1}] {text!r} does not replay: {e}") from None
    return start, moves, ply0


def positions(start: State, moves: Sequence[Move]) -> list[tuple[State, Move]]:
    """(position before, move) of every decision from `start`."""
    st, out = start.copy(), []
    for move in moves:
        out.append((st.copy(), move))
        st.push(move)
    return out


# ---------------------------------------------------------------------------------------------
# One decision

def visit_floor(iterations: int) -> int:
    """Visits under which a first-look figure is too noisy to clear a move by: the second look
    then measures it."""
    return max(100, iterations // 20)


def review_decision(state: State, move: Move, iterations: int | None = None, seed: int = 0,
                    ply: int = 0, calibration: str = "", level: int = DEFAULT_LEVEL,
                    replicates: int = REPLICATES) -> DecisionReview:
    """Review `move` of the seat to move in `state`, from that seat's view only, by the judge at
    `level` (`iterations`: its first look's budget, None for the level's) and `seed` (the first
    look's; the module's docstring); the shares calibrated by the map `calibration` (a shipped
    map's name or a file; "": the shipped one)."""
    curve = calibration_map.load(calibration)
    params = level_params(level)
    iterations = judge_iterations(level) if iterations is None else iterations
    seat, n = state.to_move, state.nplayers
    view = state.view(seat)
    options = view.count_legal()
    common = dict(ply=ply, seat=seat, round=state.round, step=str(state.step), played=str(move),
                  options=options, seed=seed)
    solved = exact.solve(view)
    if solved is not None:
        return exact_review(solved, move, common)
    moves = judge_bot(params, iterations).analyse(view, seed=seed, line_length=0).moves
    if not moves:
        raise EkonosError(f"{iterations} iterations are too few to review a decision")
    best = moves[0]
    played = next((m for m in moves if m["action"] == move.action),
                  {"action": move.action, "win": 0.0, "visits": 0})

    def first(best: dict, loss: float) -> DecisionReview:
        wp, wb = curve.share(played["win"], n), curve.share(best["win"], n)
        return DecisionReview(best=str(Move.from_action(best["action"])), win_played=wp,
                              win_best=wb, loss=loss, mark=None, visits_played=played["visits"],
                              visits_best=best["visits"], method="first",
                              win_played_raw=played["win"], win_best_raw=best["win"], **common)

    if played is best:
        return first(best, 0.0)
    first_loss = (curve.share(best["win"], n) - curve.share(played["win"], n)) * 100.0
    if played["visits"] >= visit_floor(iterations) and first_loss < SECOND_LOOK_FROM:
        return first(played, 0.0) if first_loss <= 0 else first(best, round(first_loss, 2))

    def compared(share: float, count: int, stream: int) -> list | None:
        actions, per_move = (move.action, best["action"]), max(1, round(iterations * share))
        from_seed = derive_seed(seed, stream)
        pairs = second_look(view, actions, params, per_move, count, from_seed)
        if pairs is None and params.get("plain"):  # plain=1 never takes a buy-back: measure
            pairs = second_look(view, actions, dict(params, plain=0), per_move, count, from_seed)
        return pairs

    pairs = compared(SECOND_SHARE, replicates, _SEED_SECOND)
    if pairs is None:
        return first(best, round(max(0.0, first_loss), 2))
    looked = looked_at(pairs, curve, n, move, best["action"], "second", common)
    if looked.mark is None:
        return looked
    deep = compared(DEEP_SHARE, DEEP_REPLICATES, _SEED_DEEP)
    return looked if deep is None else looked_at(deep, curve, n, move, best["action"], "deep",
                                                 common)


def looked_at(pairs: list, curve, n: int, move: Move, best: int, method: str,
              common: dict) -> DecisionReview:
    """The review of a decision from a direct comparison (`second_look`'s pairs): the mean loss,
    its 90% interval, and the mark by the interval's lower end."""
    shares = [(curve.share(p, n), curve.share(b, n)) for (p, _), (b, _) in pairs]
    losses = [(b - p) * 100.0 for p, b in shares]
    mean = statistics.fmean(losses)
    half = t95(len(losses) - 1) * statistics.stdev(losses) / math.sqrt(len(losses)) \
        if len(losses) > 1 else math.inf
    low, high = mean - half, mean + half
    wp = statistics.fmean(p for p, _ in shares)
    wb = statistics.fmean(b for _, b in shares)
    raw_p = statistics.fmean(p for (p, _), _ in pairs)
    raw_b = statistics.fmean(b for _, (b, _) in pairs)
    visits_p = sum(v for (_, v), _ in pairs)
    visits_b = sum(v for _, (_, v) in pairs)
    better = mean > 0
    return DecisionReview(best=str(Move.from_action(best)) if better else str(move),
                          win_played=wp, win_best=wb if better else wp,
                          loss=round(max(0.0, mean), 2),
                          mark=mark_of(low) if better else None,
                          visits_played=visits_p, visits_best=visits_b if better else visits_p,
                          method=method, win_played_raw=raw_p,
                          win_best_raw=raw_b if better else raw_p,
                          low=round(low, 2) if math.isfinite(low) else None,
                          high=round(high, 2) if math.isfinite(high) else None, **common)


def exact_review(solved: exact.Solution, move: Move, common: dict) -> DecisionReview:
    """A decision whose rest of the game was searched to the end (search/exact.py): the loss is
    exact, so is the mark (no interval to take the lower end of: `low` = `high` = the loss)."""
    best = solved.moves[0]
    played = next(m for m in solved.moves if m.action == move.action)
    loss = round(max(0.0, (best.win - played.win) * 100.0), 2)
    chosen = best if loss > 0 else played
    return DecisionReview(best=str(Move.from_action(chosen.action)), win_played=played.win,
                          win_best=chosen.win, loss=loss, mark=mark_of(loss), visits_played=0,
                          visits_best=0, method="exact", win_played_raw=played.win,
                          win_best_raw=chosen.win, low=loss, high=loss, **common)


def second_look(view: State, actions: tuple[int, int], params: dict, per_move: int,
                replicates: int, seed: int) -> list[tuple[tuple[float, int], ...]] | None:
    """The two root moves `actions` of the seat to move in `view` compared directly: in each of
    `replicates` independent searches (the judge's parameters `params`, seed derived from `seed`
    and the replicate), each move forced at the root for `per_move` iterations, in SLICES
    alternating slices.  Per replicate, per move: (the seat's mean win share through it, its
    visits).  None when a move gets no visit (one the search never takes)."""
    seat = view.to_move
    bot = judge_bot(params, per_move)
    out = []
    for r in range(replicates):
        searcher = bot.searcher(view.nplayers)
        for k in range(SLICES):
            size = per_move // SLICES + (1 if k < per_move % SLICES else 0)
            for a in actions:
                if size:
                    searcher.forced = a
                    searcher.run(view, seat, iterations=size, seed=derive_seed(seed, r),
                                 more=searcher.node_count > 0)
        searcher.forced = -1
        stats = {m["action"]: m for m in searcher.root_moves(0)}
        pair = []
        for a in actions:
            m = stats.get(a)
            if not m or not m["visits"]:
                return None
            pair.append((m["win"] / m["visits"], m["visits"]))
        out.append(tuple(pair))
    return out


# ---------------------------------------------------------------------------------------------
# A game

def review_game(start: State, moves: Sequence[Move], seats: Iterable[int] | None = None,
                iterations: int | None = None, seed: int = 0, ply0: int = 0, workers: int = 2,
                progress: Callable[[int, int], None] | None = None,
                calibration: str = "", level: int = DEFAULT_LEVEL,
                replicates: int = REPLICATES) -> GameReview:
    """Review the decisions of `seats` (default: every seat) in the game `start` + `moves` by
    the judge at `level` (`iterations`: the first look's budget, None for the level's; the
    second look's `replicates`), the shares calibrated by the map `calibration` ("": the shipped
    one; `review_decision`).  Decision seeds derive from `seed` and the decision's number.
    `progress(done, total)` is called as decisions are reviewed (from this thread); an
    exception it raises stops the review (the decisions not begun are dropped) and propagates."""
    iterations = judge_iterations(level) if iterations is None else iterations   # level checked
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 10:
        raise EkonosError(f"iterations must be an integer of at least 10, got {iterations!r}")
    if isinstance(replicates, bool) or not isinstance(replicates, int) or replicates < 2:
        raise EkonosError(f"replicates must be an integer of at least 2, got {replicates!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EkonosError(f"workers must be at least 1, got {workers!r}")
    n = start.nplayers
    curve = calibration_map.load(calibration)      # a damaged map: refused before any search
    chosen = tuple(range(n)) if seats is None else tuple(sorted(set(seats)))
    for q in chosen:
        if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < n:
            raise EkonosError(f"seat must be 0-{n - 1} for this game, got {q!r}")
    steps = positions(start, moves)
    todo = [(ply0 + i, st, mv) for i, (st, mv) in enumerate(steps, 1) if st.to_move in chosen]
    total = len(todo)
    if progress is not None:
        progress(0, total)

    stop = Stop()

    def one(item: tuple[int, State, Move]) -> DecisionReview:
        ply, st, mv = item
        with stopped_by(stop):
            return review_decision(st, mv, iterations, decision_seed(seed, ply), ply, calibration,
                                   level, replicates)

    done: list[DecisionReview] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            for review in pool.map(one, todo):
                done.append(review)
                if progress is not None:
                    progress(len(done), total)
        except BaseException:        # Ctrl-C, or `progress` raised to stop: drop the rest,
            stop.stop()              # the searches under way stopped within a batch
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    end = steps[-1][0].copy() if steps else start.copy()
    if steps:
        end.push(steps[-1][1])
    result = None
    if end.is_over():
        scores = end.scores()
        top = max(scores)
        k = scores.count(top)
        result = tuple((1.0 / k) if s == top else 0.0 for s in scores)
    return GameReview(tuple(start.names), chosen, iterations, seed, tuple(done), result,
                      calibration=curve.name, level=level, replicates=replicates)


def decision_seed(seed: int, ply: int) -> int:
    """The first look's seed of decision `ply` of a review with `seed` (`ekonos hint --seed`
    with it gives the first look's figures)."""
    return derive_seed(seed, ply)


# ---------------------------------------------------------------------------------------------
# The better move played out

def expected_line(state: State, move: Move, iterations: int | None = None,
                  seed: int = 0, length: int = 8, level: int = DEFAULT_LEVEL) -> list[str]:
    """The line the judge at `level` expects after `move` in `state`: `move`, then the most
    visited continuation of its subtree (up to `length` decisions, canonical texts), searched
    from the view of the seat to move only: the other seats' cards in it are the search's
    guesses, dealt from what that seat cannot see.  Just `[move]` when the search did not
    reach past it."""
    view = state.view(state.to_move)
    solved = exact.solve(view)
    if solved is not None:                   # the rest of the game searched to the end
        line = next(m.line for m in solved.moves if m.action == move.action)
        return [str(move)] + [str(Move.from_action(a)) for a in line[:length]]
    iterations = judge_iterations(level) if iterations is None else iterations
    bot = judge_bot(level_params(level), iterations)
    for m in bot.analyse(view, seed=seed, line_length=length).moves:
        if m["action"] == move.action:
            return [str(move)] + [str(Move.from_action(a)) for a in m["line"]]
    return [str(move)]
