"""The bots, each one class registered by its `name` (see search.registry), named by specs:

    random                       uniform over legal actions
    greedy                       one-ply heuristic (instant)
    flat:iterations=5000         determinized flat Monte Carlo (PIMC)
    ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving[,workers=2][,time=0.5]

`spec_help()` lists every bot with its parameters and defaults.  Every bot decides from a *view*
(`State.view(seat)`): the other hands are unknown to it (R21).  `choose(view)` returns an action
number of the fixed table.  Bots are seeded and reproducible: the same position, seed and
iteration budget give the same move (time budgets do not).

To add a bot: write one class here with `name`, a docstring whose first line describes it, and
(if it takes settings) a nested `@dataclass(frozen=True) class Params(BotParams)` of `param(...)`
fields; parsing, printing, the help text and the checks follow from it.
"""
from __future__ import annotations

import random
import time as _time
from dataclasses import dataclass, replace

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.moves import NUM_ACTIONS
from ekonos.rules import MAX_PLAYERS, MAX_TILES, MIN_PLAYERS, NUM_COMPANIES, PLAYER_TABLE, Step
from search import evaluation, memory, roots
from search._flat import flat_search
from search._ismcts import EVAL_MAX_ROUNDS, PLAYOUT_EPS, Searcher
from search.by_count import (PLAYER_DIGITS_TEXT, budgets_by_count, check_digits, player_mask,
                             priors_by_count, weights_by_count)
from search.halving import run_halving
from search.registry import (BOTS, LEVELS, MAX_ITERATIONS, MAX_SECONDS, MAX_WORKERS, RETIRED,
                             Bot, BotParams, SpecError, always, define_level, define_named,
                             derive_seed, differs, format_spec, make_bot, param, parse_params,
                             names_level, parse_spec, quote, recorded_spec, retire_level,
                             spec_help, spec_text)

__all__ = ["BASELINE", "BOTS", "LEVELS", "LINEAR", "RETIRED", "Analysis", "Bot", "BotParams",
           "CheatBot", "FlatBot", "GreedyBot", "ISMCTSBot", "RandomBot", "SpecError",
           "budgets_by_count", "derive_seed", "format_spec", "make_bot", "names_level",
           "parse_params", "parse_spec", "recorded_spec", "spec_help", "spec_text"]

#: The growth track runs from 0 to this (R10).
TRACK_TOP = 6
POLICIES = ("random", "light")
#: The search's exploration constant where a spec gives none, and where `cfor` leaves c out.
SEARCH_C = 0.3
#: The root moves a policy network keeps where a spec gives no `ptop` (16 won with 3 and 4
#: players, 8 and 32 did not: docs/strength.md, "A policy prior at the root").
PRIOR_TOP = 16


def _check_view(view: State) -> None:
    if view.is_over():
        raise EkonosError("the game is over: there is no decision to make")
    if view.step is Step.CARD and not view.hand_known(view.to_move):
        raise EkonosError(f"seat {view.to_move} must play a card from a hand this position "
                          "does not know")


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view, seed=None):
        _check_view(view)
        rng = random.Random(self._next_seed(seed))
        return view.nth_legal(rng.randrange(view.count_legal()))


class GreedyBot(Bot):
    """One-ply heuristic a casual player would recognise (instant).

    A share is worth the tiles its company has plus what its growth track promises; grow and
    expand what you own, buy where a share is worth more than its price, sell where the column
    pays more than the share is worth, and keep the best opponent down a little.  Expansion
    decisions are chained greedily."""

    name = "greedy"
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
            if st.is_over() or st.to_move != seat or \
                    st.step not in (Step.EXPAND_CHOICE, Step.EXPAND):
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
        n = st.nplayers
        rounds = PLAYER_TABLE[n].rounds
        # how much of the game is left: growth promises more early on
        left = 0.0 if st.is_over() else (rounds - st.round + 1) / rounds
        worth = []
        for c in range(NUM_COMPANIES):
            tiles = st.value(c)
            promise = left * (st.growth(c) / TRACK_TOP) * 2.0 if tiles < MAX_TILES else 0.0
            protected = len(st.protected_tiles(c))
            worth.append(tiles + promise + 0.15 * protected)
        values = [st.coins(q) + sum(st.shares(q, c) * worth[c] for c in range(NUM_COMPANIES))
                  for q in range(n)]
        best_other = max(v for q, v in enumerate(values) if q != seat)
        return values[seat] - cls.OPPONENT_WEIGHT * best_other


class FlatBot(Bot):
    """Determinized flat Monte Carlo (PIMC): playouts shared by the legal moves."""

    name = "flat"

    @dataclass(frozen=True)
    class Params(BotParams):
        iterations: int = param(5000, lo=1, hi=MAX_ITERATIONS, shown=always,
                                help="playouts, shared in turn by the legal moves")
        policy: str = param("light", choices=POLICIES, help="playout policy")

    def choose(self, view, seed=None):
        _check_view(view)
        p = self.params
        stats = flat_search(view, view.to_move, p.iterations, self._next_seed(seed), p.policy)
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
    #: a tree reached its node limit (memory): the search ended there, with what it held
    full: bool = False


class ISMCTSBot(Bot):
    """Information-set MCTS (SO-ISMCTS) over what the seat can see, root-parallel."""

    name = "ismcts"

    @dataclass(frozen=True)
    class Params(BotParams):
        iterations: int = param(25000, lo=1, hi=MAX_ITERATIONS,
                                shown=lambda p: p.time is None or differs(p, "iterations"),
                                help="iteration budget (reproducible)")
        time: float | None = param(None, lo=0, lo_open=True, hi=MAX_SECONDS,
                                   help="think this many seconds instead (not reproducible)")
        c: float = param(SEARCH_C, lo=0, hi=100, shown=always, help="UCB exploration constant")
        workers: int = param(1, lo=1, hi=MAX_WORKERS,
                             help="threads, one tree each, merged (at most one per iteration)")
        horizon: int = param(1, lo=0, hi=EVAL_MAX_ROUNDS, shown=always,
                             help="0: playouts run to the game's end; h: a playout stops when "
                                  "the h-th round after the searched one begins and the learned "
                                  "evaluation scores it")
        plain: int = param(1, choices=(0, 1), shown=always,
                           help="1: never buy back a share sold this turn when that restores "
                                "the position (as if both steps had passed)")
        root: str = param("halving", choices=("uct", "halving"), shown=always,
                          help="at the root: UCB like every node (uct), or sequential halving "
                               "over the legal moves, the survivor played (halving)")
        eps: float = param(PLAYOUT_EPS, lo=0, hi=1,
                           help="the light playouts' rate of uniformly random moves")
        epsfor: str = param("", help="eps applies in games of these player counts (digits, e.g. "
                                     f"4 or 56); in others the playouts use {PLAYOUT_EPS}",
                            values=f"{PLAYER_DIGITS_TEXT} (not given: every game)")
        cfor: str = param("", help="c applies in games of these player counts (digits, e.g. "
                                   f"5 or 56); in others the search uses {SEARCH_C}",
                          values=f"{PLAYER_DIGITS_TEXT} (not given: every game)")
        iterfor: str = param("", help="the iteration budget by player count: groups "
                                      "COUNTS:N joined by '/', e.g. 3:500/456:2000 (500 "
                                      "iterations with 3 players, 2 000 with 4 to 6); a count "
                                      "not named searches `iterations` (with a time: unused, "
                                      "as `iterations` is)",
                             values=f"COUNTS:N/... ({PLAYER_DIGITS_TEXT} over all groups, "
                                    f"N from 1 to {MAX_ITERATIONS}; not given: `iterations` "
                                    "in every game)")
        model: str = param("", help="with a horizon: the evaluation's model (a shipped name or a "
                                    "file of `ekonos learn fit`) instead of the shipped one, "
                                    "to measure a new model against it",
                           values="a model's name (eval-...) or file (not given: the shipped one)")
        net: str = param("", help="a value network (a shipped name or a file of `ekonos learn "
                                  "train`) scores where a playout stops, instead of the linear "
                                  "model",
                         values="a network's name (net-...) or file (not given: none)")
        rollout: int = param(1, choices=(0, 1),
                             help="with a net: 1 plays out to the horizon before the network "
                                  "scores; 0 scores the leaf the tree just reached, no playout")
        pnet: str = param("", help="a policy network (a shipped name or a file of `ekonos learn "
                                   "train-policy`) whose prior keeps the halving's root to "
                                   "its `ptop` best moves; groups COUNTS:NETWORK joined by "
                                   "'+' give each player count its own (a count not named: "
                                   "the root searched whole)",
                          values="a network's name (net-...) or file, or groups "
                                 "COUNTS:NETWORK joined by '+' (not given: none)")
        ptop: int = param(PRIOR_TOP, lo=1, hi=NUM_ACTIONS,
                          help="with a pnet: the root moves it keeps")
        pweight: str = param("", help="with a pnet: its logits also rank the halving's moves, "
                             "pweight × logit / (50 + visits) added to the win share (Gumbel "
                             "AlphaZero's); groups COUNTS:W joined by '/' give a count its own",
                             values="a number from 0 to 1000, or groups COUNTS:W joined by '/' "
                                    "(not given: the win share alone)")

        def __post_init__(self) -> None:
            super().__post_init__()
            for name in ("epsfor", "cfor"):
                check_digits(name, getattr(self, name))
            budgets_by_count(self.iterfor)                      # SpecError if unreadable
            if self.horizon and not self.model and not self.net:  # the shipped model, named:
                object.__setattr__(self, "model", evaluation.SHIPPED)  # a record says which
            if self.model:
                try:
                    evaluation.model(self.model)
                except (OSError, ValueError) as e:
                    raise SpecError(f"model: {e}") from None
            if self.net:
                from search import network
                try:
                    network.load_net(self.net)
                except (OSError, ValueError) as e:
                    raise SpecError(f"net: {e}") from None
            elif self.rollout != 1:
                raise SpecError("rollout=0 needs a net (net=NAME): without one a leaf has "
                                "nothing to score it")
            if self.pnet:
                from search import policy
                if self.root != "halving":
                    raise SpecError("pnet keeps the moves sequential halving searches at the "
                                    "root: it needs root=halving")
                for name in set(priors_by_count(self.pnet).values()):
                    try:
                        policy.load_policy(name)
                    except (OSError, ValueError) as e:
                        raise SpecError(f"pnet: {e}") from None
            weights_by_count(self.pweight)                      # SpecError if unreadable
            if not self.pnet and (self.ptop != PRIOR_TOP or self.pweight):
                raise SpecError("ptop and pweight need a policy network (pnet=NAME) to rate "
                                "the moves")

        def budget(self, players: int) -> int:
            """The iteration budget of a decision in a game of `players` players: its `iterfor`
            group's, else `iterations`."""
            return budgets_by_count(self.iterfor).get(players, self.iterations)

        def fixed(self, iterations: int) -> "ISMCTSBot.Params":
            """These parameters searching `iterations` iterations with every player count (any
            `iterfor` budgets dropped): a reference or a judge whose budget is its own."""
            return replace(self, iterations=iterations, iterfor="")

    #: Parameters taken out of the search because they lost in the arena (docs/strength.md; the
    #: code is in git history), each with the one value every level and reference played with.
    REMOVED = {"reward": "blend", "blend": 0.25, "group": 1, "pick": "visits", "policy": "light",
               "mast": 0.0, "card": 1.0, "market": 1.0, "cut": "root", "prior": 0.0,
               "expand": "node"}
    #: The defaults before the default became the strong search (level 3's): a spec recorded then
    #: without them meant these.  Canonical specs written since always spell c, horizon, plain
    #: and root, iterations unless a time is given, and the model when there is a horizon.
    FORMER_DEFAULTS = {"iterations": 10000, "c": 0.7, "horizon": 0, "plain": 0, "root": "uct"}
    #: The model a recorded search with a horizon and no model named used: the one shipped when
    #: specs began to name it.
    FORMER_MODEL = "eval-5ec0e708e0a8"

    @classmethod
    def recorded(cls, given: dict[str, str]) -> dict[str, str]:
        """A spec recorded before the losing ideas were taken out and the defaults changed:
        a taken-out parameter at its only played value is dropped (any other value: SpecError,
        that search is gone), and an absent parameter whose default changed takes its former
        default (`iterations` only when no time was given)."""
        out = {}
        for key, value in given.items():
            if key not in cls.REMOVED:
                out[key] = value
                continue
            kind = type(cls.REMOVED[key])
            try:
                same = kind(value) == cls.REMOVED[key]
            except ValueError:
                same = False
            if not same:
                raise SpecError(f"{key}={value}: this search idea lost in the arena and was "
                                "taken out of the engine (docs/strength.md); the bot it "
                                "configured can no longer be played")
        for key, value in cls.FORMER_DEFAULTS.items():
            if key not in out and not (key == "iterations" and "time" in out):
                out[key] = str(value)
        if "model" not in out and out["horizon"].strip() not in ("0", "+0"):
            out["model"] = cls.FORMER_MODEL
        return out

    def searcher(self, players: int | None = None) -> Searcher:
        """A fresh search tree with this bot's parameters (one per thread) for a game of
        `players` players (None: c as given, whatever `cfor` says), its size bounded by the
        memory available to the bot's workers (`memory.node_limit`)."""
        p = self.params
        s = Searcher(c=p.c if players is None or not p.cfor or str(players) in p.cfor
                     else SEARCH_C)
        s.node_limit = memory.node_limit(p.workers)
        s.horizon = p.horizon
        s.plain = p.plain
        s.eps = p.eps
        s.epsmask = player_mask(p.epsfor) if p.epsfor else -1      # not given: every game
        if p.net:
            from search import network
            s.net = network.load_net(p.net)
            s.rollout = p.rollout
        elif p.horizon:
            s.set_model(*evaluation.model(p.model))
        return roots.tracked(s)

    def analyse(self, view: State, seed: int | None = None, line_length: int = 8) -> Analysis:
        """Search the view for the seat to move; root parallelism over `workers` threads (the
        search releases the GIL), each with its own tree, merged by action.  An iteration budget
        is split over the workers, never more workers than iterations."""
        _check_view(view)
        seed = self._next_seed(seed)
        seat = view.to_move
        p = self.params
        iterations, seconds = p.budget(view.nplayers), p.time
        w = p.workers if seconds is not None else min(p.workers, iterations)
        budgets = [iterations // w + (1 if i < iterations % w else 0) for i in range(w)]
        searchers = [self.searcher(view.nplayers) for _ in range(w)]
        jobs = [dict(iterations=budgets[i] if seconds is None else 0, seconds=seconds or 0.0,
                     seed=derive_seed(seed, i)) for i in range(w)]
        t0 = _time.perf_counter()
        rank = None
        if p.root == "halving":
            cands = logits = None
            prior = priors_by_count(p.pnet).get(view.nplayers)
            weight = weights_by_count(p.pweight).get(view.nplayers, 0.0)
            if prior:                                # it reads this seat's view only
                from search import policy
                cands, logits = policy.load_policy(prior).at_root(view, seat, p.ptop, weight)
            rank = run_halving(searchers, view, seat, budgets, seconds,
                               [job["seed"] for job in jobs], cands, logits, weight)
        else:
            roots.side_by_side(lambda i: searchers[i].run(view, seat, **jobs[i]), searchers)
        seconds = _time.perf_counter() - t0
        moves = roots.merge(searchers, line_length)
        if rank is not None:                         # the survivor first, then by round left
            moves.sort(key=lambda m: rank.get(m["action"], len(rank)))
        return Analysis(moves, sum(s.iterations_done for s in searchers),
                        sum(s.decisions_simulated for s in searchers), seconds,
                        sum(s.node_count for s in searchers), any(s.full for s in searchers))

    def choose(self, view, seed=None):
        if view.count_legal() == 1:
            return view.nth_legal(0)
        seed = self._next_seed(seed)
        moves = self.analyse(view, seed).moves
        if moves:
            return moves[0]["action"]
        # a budget too small to expand any decision past its card: choose at random
        return view.nth_legal(random.Random(seed).randrange(view.count_legal()))


class CheatBot(ISMCTSBot):
    """ISMCTS shown every hand, for measurement only (arena and ladder): what knowing them is worth.

    The upper bound of what inference about the hidden hands could give (docs/strength.md).
    The arena and the ladder hand it the whole state (`sees_all`); play, hint, review and serve
    take levels, never specs, so they never seat it.  Same parameters as `ismcts`; its search
    deals only the cards of later rounds."""

    name = "cheat"
    sees_all = True

    def searcher(self, players: int | None = None) -> Searcher:
        s = super().searcher(players)
        s.see_all = True
        return s


#: Strength levels of `ekonos play --level` and `levelN` specs, each spelled out in full (a later
#: change of a default never reaches a level unseen).  Levels 1 and 2 are the plain search at
#: small budgets, for learning the game: playouts to the end, UCB at the root.  Levels 3 and 4
#: are the default search at two budgets: the learned evaluation after one round (horizon=1), no
#: pointless buy-back (plain=1), less exploration (c=0.3) and sequential halving at the root;
#: with 4 players only, they play fewer uniformly random moves (eps=0.03,epsfor=4: won with 4
#: players, lost with 2; confirmed on new deals); with 5 players only, they explore more below
#: the root (c=0.5,cfor=5: H0 once, then H1 on new deals, +15 Elo [+3, +26] and a win share
#: per seat of 21.7% [20.8, 22.5] over all 1 085 games; lost or flat with 3 and 4).  Two steps
#: that each won once at one player count were not confirmed on new deals and are out since:
#: playouts that wait at a growth to 4 early with 6 players (`wait4=30,wait4from=6`) and a
#: leaf past the horizon's round start played on to the next start with 4 (`cutnext=4`).
#: A level is kept only when the arena shows it above the one below; the evidence is in
#: docs/strength.md ("The levels" and each idea's section), the raw results in
#: benchmarks/results/.  Change a level the same way: a new spec measured against the one it
#: replaces.  Level 3 spends less where level 4 was not told apart from its 25 000 iterations
#: (`iterfor`): 1 000 iterations with 3 players, 2 000 with 4 and 5, 5 000 with 6, where level 4
#: beats them (3, 4 players by score: +44 Elo [+11, +78], +53 [+20, +87]; 5, 6 by the win:
#: +53 [+19, +90], +66 [+34, +99]) and they beat level 2 (+349, +244, +152, +135), each an
#: SPRT [0, 30] accepting H1 (docs/strength.md, "A cheaper level 3").  With 6 players it searched
#: 500 iterations from 2026-11-30 to 2026-12-01: that cost it -118 Elo [-155, -84] against
#: its 25 000 iterations, where 5 000 keeps level 4 above it and costs -23 [-49, +3].  With 3
#: players it searched 500 from 2026-11-30 to 2026-12-05, not above `baseline`; 1 000 with its
#: prior is above it (+31 [+8, +55] by the win, H1) with level 4 still above it (docs/strength.md,
#: "The default level against `baseline` with 3 and 4 players, asked again").
PLAIN_SEARCH = dict(c=0.7, horizon=0, plain=0, root="uct")
define_level(1, "ismcts", iterations=200, **PLAIN_SEARCH)
define_level(2, "ismcts", iterations=1000, **PLAIN_SEARCH)
BY_PLAYER_COUNT = dict(c=0.5, cfor="5", eps=0.03, epsfor="4")
#: Level 3's policy priors (search/models/), each where it beat level 3's own search: with 3
#: players the network of the 3- and 4-player self-play with its logits in the halving's
#: ranking (+43 Elo [+11, +76]; +44 [+12, +75] with its first training), with 4 the network of
#: the 4-player self-play alone (+29 [+7, +51]; its first trainings +22, +37, +32), with 5 the
#: network of the 5-player self-play with its logits in the ranking at full weight (+30 [+6,
#: +55], then +25 [+16, +34] on new deals); none with 6 players, where none has won twice, nor
#: with 2, where level 3's 25 000 iterations gain nothing from one (-7 [-29, +16], H0)
#: (docs/strength.md, "The files made again, and the levels", "A 5-player policy file", "A
#: 2-player policy file").
LEVEL3_PRIORS = dict(pnet="3:net-9e28b35287ad+4:net-f2feba62f054+5:net-670d7ae93c25",
                     pweight="3:0.3/5:1")
define_level(3, "ismcts", iterations=25000, iterfor="3:1000/45:2000/6:5000", horizon=1, plain=1,
             root="halving", **BY_PLAYER_COUNT, **LEVEL3_PRIORS)
define_level(4, "ismcts", iterations=75000, horizon=1, plain=1, root="halving",
             **BY_PLAYER_COUNT)
#: Level 5 was level 4 with four times its budget: +4 Elo [-41, +49] against it in 194 games,
#: thinking four times as long; two other searches at its think time did no better
#: (docs/strength.md, "Level 5, retired").  A level returns only when the arena shows it above
#: level 4.
retire_level(5, "not measurably stronger than level 4 at four times its think time",
             "ismcts", iterations=300000, c=0.3, horizon=1, plain=1, root="halving")

#: The frozen references.  Every parameter is written out, so a later change of a default never
#: reaches them; a later search change is a new parameter, and its old value must be added here
#: (tests/search/test_baseline_spec.py pins the moves of both).  Never edit these lines: measure
#: a new configuration against them instead.
#: `baseline`: level 3 as it was when the Elo ladder started (plain search, 10 000 iterations).
BASELINE = define_named("baseline", "ismcts", iterations=10000, c=0.7, workers=1, horizon=0,
                        plain=0, root="uct")
#: `linear`: level 4 as it was when the search's losing ideas were taken out, the strongest
#: search with the linear evaluation: what the next gain in strength is measured against.
LINEAR = define_named("linear", "ismcts", iterations=75000, c=0.3, workers=1, horizon=1,
                      plain=1, root="halving", model="eval-5ec0e708e0a8")
