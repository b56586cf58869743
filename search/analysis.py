"""Advice for the seat to move: the search behind `ekonos hint` (and the in-game hint), and the
judge: the one search that advises (hint, in `play`, in `serve` and `ekonos hint`) and judges
(the review's first look, search/review.py) a position, with one budget rule, so that the same
position, level and seed give the same figures wherever they are asked for.

The search receives `state.view(to_move)` only, so hands the seat cannot see are never read:
the result is the same whether the position knows the other hands or not (R21).

The win share shown is calibrated (search/calibration_map.py): the search's own figure, which is
overconfident, mapped to how often positions it rated so were won in self-play; the search's
figure stays beside it as ``win_raw``.  The ranking and `even` read the search's figures.

Where the rest of the game needs no card the seat cannot see (the last decisions of the last
round, search/exact.py), the judge does not sample: every line is searched to the end and each
move's figures are exact (``"exact": true``; no calibration, no visits, no seed).
"""
from __future__ import annotations

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.notation import action_text
from ekonos.rules import Step
from search import calibration_map
from search import exact
from search.bots import LEVELS, ISMCTSBot, parse_spec

#: The judge's level when none is asked for: level 3, the strongest search whose budget fits a
#: whole game's review in under a minute on two cores (benchmarks/test_bench_review.py); level
#: 4 thinks three times as long for a gain the arena does not show with four players.
JUDGE_LEVEL = 3
#: A level's parameters the judge does not take: its budget is its own, and it searches every
#: legal move, without a level's policy prior (`pnet`, which keeps the root to its best 16): a
#: hint or a review must rate the move a player asks about or played, and the calibration map
#: was fitted on the search without it (docs/strength.md#policy-again).
NOT_JUDGED = ("iterations", "iterfor", "time", "workers", "pnet", "ptop", "pweight")
#: The least budget of the judge's search: a level with a smaller budget (levels 1 and 2, for
#: learning the game) is searched with this many iterations when it advises or judges.
JUDGE_FLOOR = 25_000
#: The budget of a hint without one: the judge's at its level (judge_iterations(JUDGE_LEVEL)).
DEFAULT_ITERATIONS = JUDGE_FLOOR
MAX_LINE = 1000     # decisions of an expected continuation
#: The least iteration budget of a hint, and of each of its workers.  A card turn is searched as
#: the card, then its use: the first iterations only try the cards (up to 6), so a
#: search of fewer than 7 iterations may end without a single real move to advise.
MIN_ITERATIONS = 10
#: Win shares closer than this (one point) are not told apart: a hint says so instead of
#: ranking by noise.  Early in a 3-player game, for one, every move reads 33.3%: no one can call
#: the winner from there, and the search is led by the expected score.
EVEN_MARGIN = 0.01
#: Expected final scores further apart than this (one point) are a difference too: a move that
#: hands tiles to another company or costs points is not "about as good" as the others because
#: the win shares read alike (a decided game, or the opening of a 3-player one).
EVEN_SCORE_MARGIN = 1.0


def even(moves: list[dict]) -> bool:
    """True when two or more moves are shown, the search's win shares of them (``win_raw``,
    else ``win``) are all within EVEN_MARGIN of each other and their expected final scores
    within EVEN_SCORE_MARGIN where they are given (a forced move has no share: never even).  The search's own figures:
    the calibration map pools positions of every stage of the game, so two moves it maps close
    together may still be told apart by the search."""
    wins = [m.get("win_raw", m["win"]) for m in moves if m["win"] is not None]
    if len(wins) < 2 or len(wins) != len(moves) or max(wins) - min(wins) >= EVEN_MARGIN:
        return False
    scores = [m["score"] for m in moves if m.get("score") is not None]
    return not scores or max(scores) - min(scores) <= EVEN_SCORE_MARGIN


def level_params(level: int) -> dict:
    """The `ismcts` parameters of strength level `level` (search.bots.LEVELS), its iteration
    budget included: the search a hint at that level runs, from `ekonos hint --level` or in
    the game.  An unknown level is an EkonosError."""
    if level not in LEVELS:
        raise EkonosError(f"there is no level {level!r}: "
                          f"the levels are {min(LEVELS)}-{max(LEVELS)}")
    return parse_spec(LEVELS[level])[1]


def judge_iterations(level: int) -> int:
    """The judge's iteration budget at `level`: the level's own, at least JUDGE_FLOOR.  One rule
    for the hint in `play` and `serve`, `ekonos hint` and the review's first look."""
    return max(level_params(level).get("iterations", 0), JUDGE_FLOOR)


def judge_bot(params: dict | None = None, iterations: int | None = None,
              seconds: float | None = None, workers: int = 1) -> ISMCTSBot:
    """The judge's search: an `ismcts` bot with `params` (a level's, via level_params; else the
    defaults) and the budget `iterations` or `seconds`; never more workers than each can spend
    MIN_ITERATIONS on.  SpecError (an EkonosError) naming a wrong parameter."""
    params = {k: v for k, v in (params or {}).items() if k not in NOT_JUDGED}
    budget = {"iterations": iterations} if seconds is None else {"time": seconds}
    bot = ISMCTSBot(workers=workers, **params, **budget)   # SpecError (an EkonosError) if bad
    if iterations is not None and workers > iterations // MIN_ITERATIONS:   # each worker >= 10
        bot = ISMCTSBot(workers=max(1, iterations // MIN_ITERATIONS), **params, **budget)
    return bot


def analyse(state: State, iterations: int | None = None, seconds: float | None = None,
            top: int = 3, workers: int = 1, seed: int = 0, line_length: int = 8,
            params: dict | None = None, calibration: str = "") -> dict:
    """Search the position for the seat to move; the best `top` decisions, best first.

    Each move: canonical text, visits, expected win share (`win`: calibrated by the map
    `calibration`, a shipped map's name or a file, "" for the shipped one; `win_raw`: the
    search's own figure), expected final score of the seat, and the expected continuation (the
    most visited line, as canonical texts); `even`: whether their win shares are too close to
    tell apart (`even`); `calibration`: the map's name.  The budget is
    `iterations` or `seconds` (not both); they and `workers` are checked like the `ismcts` bot's
    parameters (finite, in range): EkonosError naming the one that is wrong.  `params`: other
    `ismcts` parameters (a level's, for the in-game hint), else the defaults."""
    if state.is_over():
        raise EkonosError("the game is over: there is nothing to advise")
    seat = state.to_move
    if state.step is Step.CARD and not state.hand_known(seat):
        raise EkonosError(f"{state.names[seat]} (seat {seat}) must play a card, but the position "
                          "does not give their hand")
    if iterations is not None and seconds is not None:
        raise EkonosError("give an iteration budget or a time budget, not both")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise EkonosError(f"top must be at least 1, got {top!r}")
    if isinstance(line_length, bool) or not isinstance(line_length, int) or \
            not 0 <= line_length <= MAX_LINE:
        raise EkonosError(f"line_length must be from 0 to {MAX_LINE}, got {line_length!r}")
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    if iterations is not None and not isinstance(iterations, bool) and \
            isinstance(iterations, int) and iterations < MIN_ITERATIONS:
        raise EkonosError(f"iterations must be at least {MIN_ITERATIONS} for a hint, got "
                          f"{iterations} (fewer may not reach a single decision)")
    curve = calibration_map.load(calibration)     # a damaged map: refused before any search
    bot = judge_bot(params, iterations, seconds, workers)
    view = state.view(seat)
    solved = exact.solve(view)
    if solved is not None:
        return exact_advice(state, solved, top, line_length, curve.name)
    if view.count_legal() == 1:   # cannot happen after auto-play, but keep the answer honest
        only = view.nth_legal(0)
        moves = [{"action": only, "visits": 0, "win": None, "score": None, "line": []}]
        result = None
    else:
        result = bot.analyse(view, seed=seed, line_length=line_length)
        moves = result.moves
    n = state.nplayers
    shown = [{"move": action_text(m["action"]), "visits": m["visits"],
              "win": None if m["win"] is None else round(curve.share(m["win"], n), 4),
              "win_raw": None if m["win"] is None else round(m["win"], 4),
              "score": None if m["score"] is None else round(m["score"], 2),
              "line": [action_text(a) for a in m["line"]]}
             for m in moves[:top]]
    return {
        "to_move": seat,
        "player": state.names[seat],
        "step": state.step_name,
        "iterations": result.iterations if result else 0,
        "moves": shown,
        "even": even(shown),
        # the search tree reached its memory bound (search.memory.node_limit): it ended there
        "full": bool(result and result.full),
        "nodes": result.nodes if result else 0,
        "calibration": curve.name,
        "exact": False,
    }


def exact_advice(state: State, solved: exact.Solution, top: int, line_length: int,
                 calibration: str) -> dict:
    """`analyse`'s answer from an exact solution (search/exact.py): the same keys, the figures
    exact (``win`` = ``win_raw``: nothing to calibrate), ``visits`` 0, ``exact`` true."""
    shown = [{"move": action_text(m.action), "visits": 0, "win": round(m.win, 4),
              "win_raw": round(m.win, 4), "score": round(m.score, 2),
              "line": [action_text(a) for a in m.line[:line_length]], "exact": True}
             for m in solved.moves[:top]]
    return {"to_move": state.to_move, "player": state.names[state.to_move],
            "step": state.step_name, "iterations": 0, "moves": shown, "even": even(shown),
            "full": False, "nodes": solved.nodes, "calibration": calibration, "exact": True}
