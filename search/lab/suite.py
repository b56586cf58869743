"""The position suite: positions from varied games, each with reference values of
every move from a long search of the seat's view.  Scoring a bot on it is
`search/lab/suite_score.py`.

Building, in two phases, both reproducible from the build's parameters:

1. **Positions.**  Self-play games at every player count with fixed seeds, each seat a bot drawn
   from `MIX` (level1, level2, greedy: fast, different, realistic play).  Every decision with
   more than one legal move is a candidate; candidates are grouped by (step, round) and drawn
   round-robin over those cells (a card step counts `STEP_WEIGHTS` times per pass), so every
   step kind and every round appears.  Player counts get `COUNT_WEIGHTS` of the positions (more
   2- and 4-player ones) and the positions are interleaved across counts, so a suite whose
   references are only partly computed is still spread over the player counts.  Each position
   is stored as the VIEW of the seat to move (`State.view`), in the position format
   (`State.to_dict`): the hands that seat cannot see are never stored.
2. **References.**  Each view is searched `seeds` times with the `reference` search (by
   default the frozen `baseline` parameters, search/bots.py `BASELINE`; any `ismcts` spec may
   judge instead) and `iterations` iterations per seed; per root move the visits
   and win sums are pooled over the seeds (value = win sum / visits).  The file is rewritten
   atomically after every search, so an interrupted build continues where it stopped
   (`resume_suite`).

Moves with few visits: a move the search stops visiting keeps the estimate of a subtree it
never refined (search/review.py), so its value is a poor one.  A move is a *contender* when its
pooled visits reach `floor_share` of the pooled iterations (default 0.1%: 1,000 of 1,000,000).
The value of a non-contender is taken as min(its own estimate, the lowest contender's value):
the long search ranked it below every contender, so it is never credited more than the weakest
of them, and its own figure only counts when it says worse.  A move the search never visited
has the lowest contender's value.  The best move is the contender of highest value (not the
most visited: at a card step a card's visits are split over its spaces, so a card with a single
use would win on visits alone).  The maximum of many noisy values is a little optimistic, by
the same amount for every bot scored: the floor keeps each contender's noise to about 1.5
points at the full budget.
"""
from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ekonos import State
from ekonos.errors import EkonosError
from ekonos.files import read_json_file, write_atomic
from ekonos.moves import Move
from ekonos.rules import MAX_PLAYERS, MIN_PLAYERS, Step
from search.bots import BASELINE, ISMCTSBot, derive_seed, make_bot, parse_params, recorded_spec
from search.lab.lab_schema import suite_partial, suite_reference
from search.registry import format_spec

FORMAT = "ekonos-suite"
VERSION = 1
#: Bots drawn for the seats of the self-play games.
MIX = ("level1", "level2", "greedy")
#: Share of the positions per player count (normalised).
COUNT_WEIGHTS = {2: 3, 3: 1.5, 4: 3, 5: 1.25, 6: 1.25}
#: Draws per pass over the (step, round) cells: card decisions matter most.
STEP_WEIGHTS = {Step.CARD: 2}
#: Positions drawn from one game at most (on average), so positions come from many games.
PER_GAME = 6
DEFAULT_FLOOR_SHARE = 0.001
_SEED_GAME, _SEED_PICK, _SEED_REF = 1, 2, 3
#: Largest suite file read (the repository's 240-position suites are about 700 KB).
MAX_SUITE_BYTES = 64 << 20


@dataclass(frozen=True)
class BuildParams:
    """What a suite is built from: positions, their reference budget, the seed."""

    positions: int = 200
    iterations: int = 500_000          # per seed
    seeds: int = 2
    seed: int = 0
    floor_share: float = DEFAULT_FLOOR_SHARE
    players: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    mix: tuple[str, ...] = MIX
    #: The judge: an `ismcts` spec whose iterations are replaced by `iterations`.
    reference: str = BASELINE

    def __post_init__(self) -> None:
        for name, lo in (("positions", 1), ("iterations", 10), ("seeds", 1)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise EkonosError(f"{name} must be an integer of at least {lo}, got {v!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or \
                not 0 <= self.seed < 2**64:
            raise EkonosError(f"seed must be an integer 0 to 2**64-1, got {self.seed!r}")
        if not isinstance(self.floor_share, (int, float)) or isinstance(self.floor_share, bool) \
                or not 0 <= self.floor_share < 1:
            raise EkonosError(f"floor_share must be from 0 to below 1, got {self.floor_share!r}")
        if not self.players or any(n not in COUNT_WEIGHTS for n in self.players) or \
                len(set(self.players)) != len(self.players):
            raise EkonosError(f"players must be distinct counts of {MIN_PLAYERS}-{MAX_PLAYERS}, "
                              f"got {self.players!r}")
        if not self.mix:
            raise EkonosError("the bot mix of the self-play games is empty")
        for spec in self.mix:
            make_bot(spec)                      # SpecError (an EkonosError) if bad
        if not isinstance(self.reference, str):
            raise EkonosError(f"reference must be a bot spec, got {self.reference!r}")
        cls, p = parse_params(self.reference)   # SpecError if bad
        if cls is not ISMCTSBot:
            raise EkonosError(f"reference {self.reference}: the judge must be an ismcts search "
                              f"of the seat's view, not {cls.name}")
        if p.time:
            raise EkonosError(f"reference {self.reference}: the judge searches a fixed number of "
                              "iterations (--iterations), not for a time")
        # Written out for the record (a level's meaning may change): `baseline`'s own text, or
        # the parameters that differ from the defaults, with the judge's real iterations.
        text = BASELINE if p == parse_params(BASELINE)[1] else \
            format_spec(cls.name, p.fixed(self.iterations))
        object.__setattr__(self, "reference", text)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["players"], d["mix"] = list(self.players), list(self.mix)
        return d

    @classmethod
    def from_dict(cls, d: object) -> "BuildParams":
        if not isinstance(d, dict):
            raise EkonosError("build: must be an object")
        names = {f.name for f in dataclasses.fields(cls)}
        try:
            kw = {k: v for k, v in d.items() if k in names}
            kw["players"] = tuple(kw.get("players", ()))
            kw["mix"] = tuple(kw.get("mix", ()))
            if isinstance(kw.get("reference"), str):     # as recorded, by any version
                kw["reference"] = recorded_spec(kw["reference"])
            return cls(**kw)
        except TypeError as e:
            raise EkonosError(f"build: {e}") from None


# ---------------------------------------------------------------------------------------------
# Phase 1: positions

def quotas(total: int, players: tuple[int, ...]) -> dict[int, int]:
    """Positions per player count: `total` shared by COUNT_WEIGHTS (largest remainders)."""
    w = sum(COUNT_WEIGHTS[n] for n in players)
    exact = {n: total * COUNT_WEIGHTS[n] / w for n in players}
    out = {n: math.floor(x) for n, x in exact.items()}
    for n in sorted(players, key=lambda n: (-(exact[n] - out[n]), n))[:total - sum(out.values())]:
        out[n] += 1
    return out


def play_candidates(players: int, game_seed: int, mix: tuple[str, ...]) -> list[dict]:
    """Every decision of one self-play game with more than one legal move: players, step,
    round, ply and the view of the seat to move (as a position dict)."""
    rng = random.Random(game_seed)
    specs = [rng.choice(mix) for _ in range(players)]
    bots = [make_bot(spec, seed=derive_seed(game_seed, q)) for q, spec in enumerate(specs)]
    st = State.new(players, seed=game_seed)
    out, ply = [], 0
    while not st.is_over():
        seat = st.to_move
        view = st.view(seat)
        if view.count_legal() > 1:
            out.append({"players": players, "step": st.step, "round": st.round, "ply": ply,
                        "seats": specs, "view": view})
        st.push(bots[seat].choose(view))
        ply += 1
    return out


def pick(candidates: list[dict], k: int, rng: random.Random) -> list[dict]:
    """`k` candidates drawn round-robin over the (step, round) cells, in a shuffled order, a
    card step weighted STEP_WEIGHTS times per pass; each at random within its cell."""
    cells: dict[tuple, list[dict]] = {}
    for c in candidates:
        cells.setdefault((int(c["step"]), c["round"]), []).append(c)
    keys = sorted(cells)
    chosen: list[dict] = []
    while len(chosen) < k and any(cells.values()):
        passes = [key for key in keys for _ in range(STEP_WEIGHTS.get(Step(key[0]), 1))]
        rng.shuffle(passes)
        for key in passes:
            if len(chosen) == k:
                break
            if cells[key]:
                chosen.append(cells[key].pop(rng.randrange(len(cells[key]))))
    return chosen


def sample_positions(params: BuildParams,
                     progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Phase 1: the suite's position entries (no references yet), interleaved across counts."""
    want = quotas(params.positions, params.players)
    rows = []
    total_games = sum(max(1, math.ceil(k / PER_GAME)) for k in want.values() if k)
    games_done = 0
    for n in params.players:
        if not want[n]:
            continue
        candidates = []
        for g in range(max(1, math.ceil(want[n] / PER_GAME))):
            game_seed = derive_seed(params.seed, _SEED_GAME, n, g)
            for c in play_candidates(n, game_seed, params.mix):
                c["game"] = g
                candidates.append(c)
            games_done += 1
            if progress is not None:
                progress(games_done, total_games)
        got = pick(candidates, want[n], random.Random(derive_seed(params.seed, _SEED_PICK, n)))
        got.sort(key=lambda c: (c["game"], c["ply"]))
        rows += [(i / want[n], n, c) for i, c in enumerate(got)]
    rows.sort(key=lambda r: (r[0], r[1]))
    return [{"id": i, "players": c["players"], "step": str(c["step"]), "round": c["round"],
             "game": c["game"], "ply": c["ply"], "seats": c["seats"],
             "legal": c["view"].count_legal(), "position": c["view"].to_dict(),
             "reference": None, "partial": []}
            for i, (_, _, c) in enumerate(rows)]


# ---------------------------------------------------------------------------------------------
# Phase 2: references

def reference_bot(iterations: int, reference: str = BASELINE) -> ISMCTSBot:
    """The reference search: the `reference` spec's parameters (`baseline`'s unless told) with
    `iterations` iterations with every player count (a level's budgets by count dropped)."""
    cls, p = parse_params(reference)
    return cls(params=p.fixed(iterations))


def search_once(state: State, iterations: int, seed: int,
                reference: str = BASELINE) -> dict[str, list]:
    """One reference search of the seat to move, from its view only: {move text: [visits,
    win sum]} over the root moves (the win sum is the mean win share times the visits)."""
    view = state.view(state.to_move)
    moves = reference_bot(iterations, reference).analyse(view, seed=seed, line_length=0).moves
    return {str(Move.from_action(m["action"])): [m["visits"], round(m["win"] * m["visits"], 4)]
            for m in moves}


def pool(partials: list[dict], floor_share: float) -> dict:
    """The reference of a position from its per-seed searches: per move the summed visits and
    win sums, value = win sum / visits; most visited first; the floor of a contender."""
    acc: dict[str, list] = {}
    for part in partials:
        for text, (visits, win) in part["moves"].items():
            a = acc.setdefault(text, [0, 0.0])
            a[0] += visits
            a[1] += win
    total = sum(v for v, _ in acc.values())
    moves = sorted(({"move": t, "visits": v, "win": round(w / v, 5) if v else 0.0}
                    for t, (v, w) in acc.items()), key=lambda m: (-m["visits"], -m["win"],
                                                                 m["move"]))
    tops = [max(p["moves"].items(), key=lambda kv: (kv[1][0], kv[0]))[0] for p in partials]
    return {"iterations": total, "seeds": len(partials),
            "floor": min(max(1, math.ceil(floor_share * total)), moves[0]["visits"]),
            "seed_best": tops, "moves": moves}


def reference_of(state: State, iterations: int, seeds: int, seed: int,
                 floor_share: float = DEFAULT_FLOOR_SHARE, reference: str = BASELINE) -> dict:
    """The pooled reference of one position (searched from the view of the seat to move)."""
    partials = [{"seed": k, "moves": search_once(state, iterations, derive_seed(seed, k),
                                                 reference)}
                for k in range(seeds)]
    return pool(partials, floor_share)


# ---------------------------------------------------------------------------------------------
# The file

@dataclass
class Suite:
    """A suite file in memory: its build parameters, the command that built it, positions."""

    params: BuildParams
    command: str
    positions: list[dict] = field(default_factory=list)

    def complete(self) -> list[dict]:
        """The positions whose reference is computed."""
        return [p for p in self.positions if p["reference"] is not None]

    def searches_done(self) -> int:
        return sum(self.params.seeds if p["reference"] else len(p["partial"])
                   for p in self.positions)

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "command": self.command,
                "build": self.params.to_dict(),
                "complete": len(self.complete()), "positions": self.positions}

    def save(self, path: str | Path) -> None:
        write_atomic(path, json.dumps(self.to_dict(), separators=(",", ":")) + "\n")


def load_suite(path: str | Path) -> Suite:
    """A suite file, checked: EkonosError naming the file and what is wrong."""
    data = read_json_file(path, MAX_SUITE_BYTES, "suite file")    # FileError names the file
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EkonosError(f"{path}: not a suite file (its \"format\" is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise EkonosError(f"{path}: suite version {data.get('version')!r}; this ekonos reads "
                          f"version {VERSION}")
    try:
        params = BuildParams.from_dict(data.get("build"))
        positions = data["positions"]
        if not isinstance(positions, list):
            raise EkonosError("positions: must be a list")
        for i, p in enumerate(positions):
            _check_entry(p, i, params.seeds)
    except EkonosError as e:
        raise EkonosError(f"{path}: {e}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise EkonosError(f"{path}: not a suite file ({type(e).__name__}: {e})") from None
    return Suite(params, str(data.get("command", "")), positions)


def _check_entry(p: object, i: int, seeds: int) -> None:
    if not isinstance(p, dict):
        raise EkonosError(f"positions[{i}]: must be an object")
    view = State.from_dict(p["position"])          # PositionError names the field
    if p.get("id") != i or p.get("players") != view.nplayers or \
            p.get("step") != str(view.step):
        raise EkonosError(f"positions[{i}]: id, players or step do not match the position")
    if view.count_legal() < 2:
        raise EkonosError(f"positions[{i}]: fewer than two legal moves")
    for key, meaning in (("reference", "null until its searches are pooled"),
                         ("partial", "the searches done so far, [] for none")):
        if key not in p:
            raise EkonosError(f"positions[{i}]: no \"{key}\" ({meaning})")
    ref = p["reference"]
    if ref is not None:
        suite_reference(ref, f"positions[{i}].reference")
    suite_partial(p["partial"], f"positions[{i}].partial", seeds)


def new_suite(params: BuildParams, command: str = "",
              progress: Callable[[int, int], None] | None = None) -> Suite:
    """Phase 1 only: a suite with its positions and no references."""
    return Suite(params, command, sample_positions(params, progress))


def rejudged(source: Suite, command: str = "", **changes) -> Suite:
    """Phase 1 taken from `source`: its very positions (and the parameters that drew them),
    without references, for a new judge (`changes`: iterations, seeds, reference,
    floor_share).  The positions stay those of `source` even if drawing them again would
    now give others (a position format that gained a field, a changed bot in the mix)."""
    drawn = {"positions", "seed", "players", "mix"} & set(changes)
    if drawn:
        raise EkonosError("the positions come from the source suite: their number, seed, player "
                          f"counts and bots are its own (given: {', '.join(sorted(drawn))})")
    params = dataclasses.replace(source.params, **changes)
    return Suite(params, command, [{**p, "reference": None, "partial": []}
                                   for p in source.positions])


def fill_references(suite: Suite, path: str | Path | None = None,
                    progress: Callable[[int, int], None] | None = None) -> Suite:
    """Phase 2: every missing search, in file order, the file (if `path`) rewritten after
    each, so an interruption (KeyboardInterrupt included) loses at most the search under way.
    `progress(done, total)` counts searches."""
    prm = suite.params
    total = len(suite.positions) * prm.seeds
    if progress is not None:
        progress(suite.searches_done(), total)
    for p in suite.positions:
        if p["reference"] is not None:
            continue
        view = State.from_dict(p["position"])
        for k in range(len(p["partial"]), prm.seeds):
            moves = search_once(view, prm.iterations,
                                derive_seed(prm.seed, _SEED_REF, p["id"], k), prm.reference)
            p["partial"].append({"seed": k, "moves": moves})
            if len(p["partial"]) == prm.seeds:
                p["reference"] = pool(p["partial"], prm.floor_share)
                p["partial"] = []
            if path is not None:
                suite.save(path)
            if progress is not None:
                progress(suite.searches_done(), total)
    return suite


def build_suite(params: BuildParams, path: str | Path, command: str = "",
                progress: Callable[[str, int, int], None] | None = None) -> Suite:
    """Both phases into `path` (written once the positions are drawn, then after every
    search).  `progress(phase, done, total)`, phase "games" or "searches"."""
    suite = new_suite(params, command,
                      None if progress is None else lambda d, t: progress("games", d, t))
    suite.save(path)
    return fill_references(suite, path,
                           None if progress is None else lambda d, t: progress("searches", d, t))


def resume_suite(path: str | Path,
                 progress: Callable[[int, int], None] | None = None) -> Suite:
    """Continue the build of the suite file `path` where it stopped."""
    return fill_references(load_suite(path), path, progress)
