"""Game review: where a recorded game was won and lost, decision by decision.

For every decision of the chosen seats: the move played, the best move by the search, each one's
expected win share, the loss (in points of win share: 100 = a certain win), and a mark as chess
players know them (Lichess's thresholds: inaccuracy from 5 points lost, mistake from 10, blunder
from 15); per seat an accuracy figure and the costliest decisions.

Each decision is searched from the seat's view only (`State.view(seat)`, R21): the other hands
and the undealt cards are never read, so the review is the same whatever they were.

How the two win shares are measured (information-set MCTS as level REVIEW_LEVEL searches,
`search.bots.ISMCTSBot`, with the review's own budget `iterations`):

1. The position is searched; the best move is the most visited one.  When the played move is
   that move, its win share is the seat's mean win share over the iterations through it (when
   those are fewer than `visit_floor`, as at a card step where some 200 decisions share the
   budget, it is measured as in 2).
2. When the played move is another one, both moves are measured the same way, each on its own:
   the position after the move is searched with half the budget, and the move's win share is
   the seat's mean win share over all those iterations, the figure step 1 reads for a root
   move, here with thousands of iterations behind each move instead of a few hundred for the
   one the search liked less (reading that minority figure from the first search is biased:
   a move the search stops visiting keeps the estimate of a subtree it never refined; two
   seeds then disagree by 10 points on the same move).  This works when the seat decides next
   after the move (a card play is followed by its own sale or buy, an expansion by its next
   action), with 2 players (the seat's share is one minus the other's), and exactly when the
   game ends after the move (R20, ties split).
3. When another seat of a larger game decides after one of them (after a buy, the next
   player's turn), the search keeps that seat's statistics, not ours: both figures are read
   from the first search when the played move has at least `visit_floor` visits there, else
   from a search with four times the budget.  Method `root` / `again` in the output.

A played move measured at least as good as the search's choice is reported as the best.

The two win shares shown are calibrated (search/calibration_map.py: the search's figure mapped
to how often positions it rated so were won in self-play), and the loss is their difference, so
that the points lost are points of a share that comes true; the search's own figures are kept
as `win_played_raw` and `win_best_raw`.  The map was fitted for level 3's search (see its
``spec``); for the review's search it is an approximation (docs/strength.md).

Seeds derive from `seed` and the decision's number, so a review is reproducible, whatever the
number of threads (`workers` share the decisions, one search each).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.moves import Move
from ekonos.position import state_from_dict
from search import calibration_map
from search.bots import LEVELS, ISMCTSBot, derive_seed, parse_spec
from search.roots import Stop, stopped_by

DEFAULT_ITERATIONS = 4000
#: The level whose search judges each decision (its parameters, the review's own budget): the
#: plain search, playouts to the game's end, as the review has always measured.
REVIEW_LEVEL = 2
#: (points of win share lost, mark), most severe first (Lichess's thresholds).
MARKS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
_SEED_AFTER, _SEED_AGAIN = 1, 2


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
    method: str                 # root | after | exact | again (the module's docstring)
    win_played_raw: float       # the search's own figures, before the calibration map
    win_best_raw: float

    def to_dict(self) -> dict:
        d = asdict(self)
        for k in ("win_played", "win_best", "win_played_raw", "win_best_raw"):
            d[k] = round(d[k], 4)
        d["loss"] = round(d["loss"], 2)
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

    def of(self, seat: int) -> list[DecisionReview]:
        return [d for d in self.decisions if d.seat == seat]

    def accuracy(self, seat: int) -> float | None:
        """Mean of `move_accuracy` over the seat's reviewed decisions (None without any)."""
        mine = self.of(seat)
        return sum(move_accuracy(d.loss) for d in mine) / len(mine) if mine else None

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
            "iterations": self.iterations, "seed": self.seed, "calibration": self.calibration,
            "marks": {name: limit for limit, name in MARKS},
            "accuracy": "mean over the seat's decisions of 103.1668*exp(-0.04354*loss)-3.1669, "
                        "loss in points of win share (Lichess's curve)",
            "summary": [{"seat": q, "name": self.names[q], "decisions": len(self.of(q)),
                         "accuracy": _round(self.accuracy(q), 1), **self.counts(q)}
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
    """Visits under which a root figure is too noisy to judge a move by (step 3 then)."""
    return max(100, iterations // 8)


def review_decision(state: State, move: Move, iterations: int = DEFAULT_ITERATIONS,
                    seed: int = 0, ply: int = 0, calibration: str = "") -> DecisionReview:
    """Review `move` of the seat to move in `state`, from that seat's view only; the shares
    calibrated by the map `calibration` (a shipped map's name or a file; "": the shipped one)."""
    curve = calibration_map.load(calibration)
    seat = state.to_move
    view = state.view(seat)
    options = view.count_legal()
    played, best, method = _search(view, move, iterations, seed)
    win_played = curve.share(played["win"], state.nplayers)
    win_best = curve.share(best["win"], state.nplayers)
    loss = round(max(0.0, (win_best - win_played) * 100.0), 2)   # as shown, as marked
    return DecisionReview(ply=ply, seat=seat, round=state.round, step=str(state.step),
                          played=str(move), best=str(Move.from_action(best["action"])),
                          win_played=win_played, win_best=win_best, loss=loss,
                          mark=mark_of(loss), options=options, visits_played=played["visits"],
                          visits_best=best["visits"], method=method,
                          win_played_raw=played["win"], win_best_raw=best["win"])


def _bot(iterations: int) -> ISMCTSBot:
    """The review's search: level REVIEW_LEVEL's parameters with `iterations`."""
    params = {k: v for k, v in parse_spec(LEVELS[REVIEW_LEVEL])[1].items() if k != "iterations"}
    return ISMCTSBot(iterations=iterations, **params)


def _root(view: State, iterations: int, seed: int) -> dict[int, dict]:
    moves = _bot(iterations).analyse(view, seed=seed, line_length=0).moves
    if not moves:
        raise EkonosError(f"{iterations} iterations are too few to review a decision")
    return {m["action"]: m for m in moves}


def _search(view: State, move: Move, iterations: int, seed: int) -> tuple[dict, dict, str]:
    """(played, best, method): each a dict with action, win and visits."""
    stats = _root(view, iterations, seed)
    best = max(stats.values(), key=lambda m: (m["visits"], m["win"]))
    played = stats.get(move.action, {"action": move.action, "win": 0.0, "visits": 0})
    if played is best:
        if best["visits"] >= visit_floor(iterations):
            return played, best, "root"
        value = _value_after(view, move, iterations // 2, derive_seed(seed, _SEED_AFTER))
        if value is None:
            return played, best, "root"
        played = best = {"action": move.action, "win": value[0], "visits": value[1]}
        return played, best, value[2]
    # two different moves: each measured on its own, with the same budget
    measured = []
    for i, m in enumerate((played, best)):
        value = _value_after(view, Move.from_action(m["action"]), iterations // 2,
                             derive_seed(seed, _SEED_AFTER, i))
        if value is None:
            break
        measured.append({"action": m["action"], "win": value[0], "visits": value[1],
                         "how": value[2]})
    else:
        played, best = measured
        how = "exact" if played["how"] == best["how"] == "exact" else "after"
        if played["win"] >= best["win"]:
            best = played                      # as good as the search's choice
        return played, best, how
    if played["visits"] >= visit_floor(iterations):
        return played, best, "root"
    # another seat decides after one of them, and the played move was hardly searched: a
    # larger search, both figures from it
    stats = _root(view, iterations * 4, derive_seed(seed, _SEED_AGAIN))
    best = max(stats.values(), key=lambda m: (m["visits"], m["win"]))
    played = stats.get(move.action, {"action": move.action, "win": 0.0, "visits": 0})
    return played, best, "again"


def _value_after(view: State, move: Move, iterations: int, seed: int) \
        -> tuple[float, int, str] | None:
    """(win share, iterations behind it, how) of the seat after `move`: exact when the game
    ends; else a search of the position after it: the seat's mean win share over it when the
    seat decides there, or (2 players) one minus the opponent's.  None when another seat of a
    larger game decides there (the search keeps that seat's statistics, not ours)."""
    seat = view.to_move
    after = view.copy()
    after.push(move)
    if after.is_over():
        scores = after.scores()
        top = max(scores)
        winners = [q for q, s in enumerate(scores) if s == top]
        return (1.0 / len(winners) if seat in winners else 0.0), 0, "exact"
    if after.to_move != seat and after.nplayers != 2:
        return None
    # the seat's own search of the position (the other seat's hand, if it is to play a card,
    # is dealt anew every iteration from what the seat cannot see)
    searcher = _bot(max(iterations, 1)).searcher()
    searcher.run(after.view(seat), seat, iterations=max(iterations, 1), seed=seed)
    stats = {m["action"]: dict(m, win=m["win"] / max(m["visits"], 1))
             for m in searcher.root_moves(0)}
    if not stats:
        return None
    visits = sum(m["visits"] for m in stats.values())
    mean = sum(m["win"] * m["visits"] for m in stats.values()) / max(visits, 1)
    return (mean if after.to_move == seat else 1.0 - mean), visits, "after"


# ---------------------------------------------------------------------------------------------
# A game

def review_game(start: State, moves: Sequence[Move], seats: Iterable[int] | None = None,
                iterations: int | None = None, seed: int = 0, ply0: int = 0, workers: int = 2,
                progress: Callable[[int, int], None] | None = None,
                calibration: str = "") -> GameReview:
    """Review the decisions of `seats` (default: every seat) in the game `start` + `moves`,
    the shares calibrated by the map `calibration` ("": the shipped one; `review_decision`).
    `progress(done, total)` is called as decisions are reviewed (from this thread); an
    exception it raises stops the review (the decisions not begun are dropped) and propagates."""
    iterations = DEFAULT_ITERATIONS if iterations is None else iterations
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 10:
        raise EkonosError(f"iterations must be an integer of at least 10, got {iterations!r}")
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
            return review_decision(st, mv, iterations, derive_seed(seed, ply), ply, calibration)

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
                      calibration=curve.name)


# ---------------------------------------------------------------------------------------------
# The better move played out

def expected_line(state: State, move: Move, iterations: int = DEFAULT_ITERATIONS,
                  seed: int = 0, length: int = 8) -> list[str]:
    """The line the review's search expects after `move` in `state`: `move`, then the most
    visited continuation of its subtree (up to `length` decisions, canonical texts), searched
    from the view of the seat to move only: the other seats' cards in it are the search's
    guesses, dealt from what that seat cannot see.  Just `[move]` when the search did not
    reach past it."""
    view = state.view(state.to_move)
    for m in _bot(iterations).analyse(view, seed=seed, line_length=length).moves:
        if m["action"] == move.action:
            return [str(move)] + [str(Move.from_action(a)) for a in m["line"]]
    return [str(move)]
