"""The arena: bots play each other with seats rotated and fixed seeds.

Games come in blocks of P (the player count): every game of a block uses the same deal seed and
the bots sit in rotated seats, so every bot plays every seat equally often and from the same
cards (duplicate-style, which also lowers variance).  The same arguments give the same result,
on any backend and any number of workers: blocks are the units of work, and their results are
taken in block order whatever finished first.  Each bot only ever sees `State.view(seat)`.

An entrant is a bot spec, or ``SPEC@N`` (N a positive integer): the same bot as an entrant of
its own, its seeds offset by N, so a bot can meet itself (``--bot level2 --bot level2@1``).

Win share counts a game won alone as 1 and a shared win among k as 1/k (R20).  The 95% interval
is Wilson's score interval at the effective number of games (`clustered_interval`): the games of
one block share a deal, and the seats one bot holds in a game share one result (two seats of one
bot cannot both win alone), so its seat-games are not independent trials; the blocks are.
Ratings (see search.lab.ratings): the Elo of the first entrant against each other one from
their pairwise results (Board Game Arena scoring; the interval over blocks, the independent
units), and a Plackett-Luce rating of every entrant from the finishing orders (optional extra
``ratings``).

Every game record also keeps, per seat, the bot's think time: the number of decisions, the total
and the median seconds per decision, and every decision's seconds (``think_times``, rounded to
the microsecond), measured around `choose` inside the game loop.  A decision is every call of
`choose`: `State.push` plays a step with one legal move by itself, so no bot is asked for a forced
move (and `ismcts` would answer one without searching).  The result gives per bot its think time
per decision pooled over all its decisions of the run (`think_stats`), so that equal think time
is read from the run that gave the win shares.  Timings are the one part of the result that
varies from run to run (`untimed` leaves them out); the ladder stores the per-game totals.
"""
from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ekonos import State
from ekonos.errors import EkonosError
from search.lab.backends import Backend, Ordered, make_backend
from search.bots import derive_seed, make_bot, parse_params, parse_spec, spec_text
from search.lab.ratings import elo_between, plackett_luce
from search.lab.sprt import Sprt, sprt as new_sprt, tally

Z95 = 1.959963984540054
SPRT_GAMES = 20000
"""Games an SPRT may play at most when no --games is given."""

_LABEL = re.compile(r"(.*\S)\s*@\s*([0-9]{1,9})")


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion p observed over n trials (n may be an effective
    number, not a whole one)."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # clamp: rounding must never put the observed share outside its own interval
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def clustered_interval(wins: list[float], counts: list[int], z: float = Z95
                       ) -> tuple[float, float]:
    """95% interval of the share sum(wins) / sum(counts) from clusters of trials (a bot's wins and
    seat-games per block): Wilson's interval at the effective number of trials, p(1 - p) over
    the ratio estimator's cluster-robust variance (a design effect, as in survey sampling).
    Negatively correlated trials in a cluster (seats of one game) make it narrower than Wilson's
    over every trial, positively correlated ones wider.  Fewer than two clusters, or no spread
    between them: Wilson's over every trial."""
    n = sum(counts)
    if n == 0:
        return (0.0, 1.0)
    p = sum(wins) / n
    units = len(counts)
    var = (units / (units - 1) * math.fsum((w - p * c) ** 2 for w, c in zip(wins, counts))
           / (n * n)) if units > 1 else 0.0
    effective = p * (1 - p) / var if var > 0 else n
    return wilson(p, effective, z)


def seating(entrants: int, players: int, game: int) -> list[int]:
    """Entrant index per seat in game `game`: rotation by the game's place in its block."""
    r = game % players
    return [(seat + r) % players for seat in range(players)]


def split_label(label: str) -> tuple[str, int]:
    """``'level2@1'`` -> ``('level2', 1)``; a plain spec has offset 0.  The spec is checked."""
    m = _LABEL.fullmatch(label.strip())
    spec, offset = (m.group(1), int(m.group(2))) if m else (label, 0)
    if m and offset == 0:
        raise EkonosError(f"entrant {label!r}: the offset after @ must be 1 or more")
    parse_spec(spec)
    return spec, offset


def resolved(label: str) -> str:
    """What an entrant label plays as today, as its bot's canonical spec (``level3`` ->
    ``ismcts:iterations=25000,...``; the offset dropped), stored with results so that a later
    change of what a name means cannot pool two bots' games."""
    return spec_text(split_label(label)[0])


def bot_threads(label: str) -> int:
    """Threads a bot uses while it thinks (its `workers` parameter, else 1)."""
    _, params = parse_params(split_label(label)[0])
    return int(getattr(params, "workers", 1) or 1)


def play_game(specs: list[str], players: int, seed: int, game: int,
              variant: str = "rulebook") -> dict:
    """One arena game.  Returns per seat: the entrant, score, win share, rank (1 = best, ties
    share), and the bot's decisions, total think time, median think time per decision and
    each decision's think time (``think_times``, seconds rounded to the microsecond)."""
    deal_seed = derive_seed(seed, game // players)
    seats = seating(len(specs), players, game)
    state = State.new(players, seed=deal_seed, variant=variant)
    bots = []
    for q in range(players):
        spec, offset = split_label(specs[seats[q]])
        bot_seed = derive_seed(seed, game, q, offset) if offset else derive_seed(seed, game, q)
        bots.append(make_bot(spec, seed=bot_seed))
    times: list[list[float]] = [[] for _ in range(players)]
    clock = time.perf_counter
    while not state.is_over():
        seat = state.to_move
        # R21: a bot sees its seat's view; only a measuring bot (`cheat`) is shown every hand
        view = state.copy() if bots[seat].sees_all else state.view(seat)
        t0 = clock()
        action = bots[seat].choose(view)
        times[seat].append(clock() - t0)
        state.push(action)   # checked: a bot choosing an illegal action is a bug we want to see
    scores = state.scores()
    winners = state.winners()
    out = []
    for q in range(players):
        better = sum(1 for s in scores if s > scores[q])
        ties = sum(1 for s in scores if s == scores[q])
        out.append({"entrant": seats[q], "seat": q, "score": scores[q],
                    "win": (1 / len(winners)) if q in winners else 0.0,
                    "rank": better + (ties + 1) / 2, "decisions": len(times[q]),
                    "think": sum(times[q]),
                    "think_median": statistics.median(times[q]) if times[q] else 0.0,
                    "think_times": [round(t, 6) for t in times[q]]})
    return {"game": game, "results": out}


def play_block(specs: list[str], players: int, seed: int, block: int, games: int,
               variant: str = "rulebook") -> list[dict]:
    """The games of block `block` (its first `games` games: the last block of a run may be
    short), one deal, seats rotated."""
    first = block * players
    return [play_game(specs, players, seed, g, variant) for g in range(first, first + games)]


def entrants_of(specs: list[str], players: int) -> list[str]:
    """One entrant per seat: `specs` repeated (two specs in 4 players: A B A B); checked."""
    if not specs:
        raise EkonosError("give at least one bot")
    for s in specs:
        split_label(s)  # refuse a bad spec before any game starts
    if len(specs) > players:
        raise EkonosError(f"{len(specs)} bots for {players} seats")
    return [specs[i % len(specs)] for i in range(players)]


def seat_scores(game: dict, entrants: list[str]) -> list[tuple[str, float]]:
    """A game record as search.lab.ratings reads it: per seat, in seat order, (label, score)."""
    return [(entrants[r["entrant"]], r["score"]) for r in game["results"]]


def seat_wins(game: dict, entrants: list[str]) -> list[tuple[str, float]]:
    """A game record as a test by the win reads it: per seat, in seat order, (label, win), the
    win as `play_game` split it (1/k to each of k tied winners, R20)."""
    return [(entrants[r["entrant"]], r["win"]) for r in game["results"]]


def quantile(ordered: list[float], q: float) -> float:
    """The q-quantile (0 <= q <= 1) of sorted values by linear interpolation between the two
    nearest ranks: position q * (n - 1) counted from 0 (Hyndman and Fan's type 7, the default of
    numpy.percentile and R, and statistics.quantiles' method 'inclusive').  q = 0.5 is the
    median."""
    if not ordered:
        raise ValueError("the quantile of no values")
    h = q * (len(ordered) - 1)
    lo = math.floor(h)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (h - lo) * (ordered[hi] - ordered[lo])


def think_stats(times: list[float]) -> dict:
    """Think time per decision over `times` (seconds, one per decision): the decisions, the
    median, the 95th percentile (`quantile`, linear interpolation) and the mean; the times are
    None when there are no decisions.  Rounded to the nanosecond (the inputs are microseconds)."""
    if not times:
        return {"decisions": 0, "median": None, "p95": None, "mean": None}
    ordered = sorted(times)
    return {"decisions": len(ordered), "median": round(quantile(ordered, 0.5), 9),
            "p95": round(quantile(ordered, 0.95), 9),
            "mean": round(math.fsum(ordered) / len(ordered), 9)}


@dataclass
class BotResult:
    spec: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0
    times: list[float] = field(default_factory=list)
    blocks: dict[int, list[float]] = field(default_factory=dict)   # block -> [wins, seat-games]

    def as_dict(self) -> dict:
        share = self.wins / self.games if self.games else 0.0
        low, high = clustered_interval([b[0] for b in self.blocks.values()],
                                       [b[1] for b in self.blocks.values()])
        return {"bot": self.spec, "games": self.games, "win_share": share,
                "ci95": [low, high], "mean_score": self.score_sum / max(self.games, 1),
                "mean_rank": self.rank_sum / max(self.games, 1),
                "think": think_stats(self.times),
                # per block, in block order: what pools shards' win shares (`lab pool-sprt`)
                "blocks": [self.blocks[k] for k in sorted(self.blocks)]}


def ratings(games: list[dict], entrants: list[str], players: int) -> dict:
    """The Elo of the first label against each other one (pairwise results, intervals over
    blocks of `players` games) and the Plackett-Luce rating of every label (None without the
    optional extra 'ratings')."""
    labels = list(dict.fromkeys(entrants))
    rated = [seat_scores(g, entrants) for g in games]
    elo = []
    for other in labels[1:]:
        if rated:
            est = elo_between(rated, labels[0], other, block=players)
            elo.append({"bot": labels[0], "against": other, **est.as_dict()})
    try:
        pl = plackett_luce(rated)
        skill = [{"bot": lab, **pl[lab].as_dict()} for lab in labels if lab in pl]
    except EkonosError:        # openskill is not installed
        skill = None
    return {"elo": elo, "plackett_luce": skill}


def summarize(games: list[dict], entrants: list[str], players: int) -> dict:
    """Per label: games, win share and its interval (`clustered_interval`, blocks the clusters),
    mean score, mean rank, and think time per decision (``think``: decisions, median, p95 and
    mean in seconds, see `think_stats`), pooled over every decision of the label in `games`, not
    averaged over games; then the ratings.

    A decision is one call of `choose` (steps with a single legal move are played by `State.push`
    and never reach a bot).  A seat record without ``think_times`` (one made before they were
    kept) counts for everything but the think time."""
    results = {spec: BotResult(spec) for spec in entrants}
    for i, o in enumerate(games):
        block = o.get("game", i) // players
        for r in o["results"]:
            br = results[entrants[r["entrant"]]]
            br.games += 1
            br.wins += r["win"]
            tally = br.blocks.setdefault(block, [0.0, 0])
            tally[0] += r["win"]
            tally[1] += 1
            br.score_sum += r["score"]
            br.rank_sum += r["rank"]
            br.times.extend(r.get("think_times", ()))
    return {"bots": [results[s].as_dict() for s in dict.fromkeys(entrants)],
            "ratings": ratings(games, entrants, players)}


def whole_blocks(games: list[dict], entrants: list[str], players: int) -> list[list]:
    """The blocks of `games` that are whole (all `players` games of one deal: a run stopped by
    Ctrl-C or a games limit off a block's end leaves a part), each as per-seat scores."""
    blocks: dict[int, list] = {}
    for i, o in enumerate(games):
        blocks.setdefault(o.get("game", i) // players, []).append(seat_scores(o, entrants))
    return [b for _, b in sorted(blocks.items()) if len(b) == players]


def untimed(result: dict) -> dict:
    """An arena result without its think times, the one part that varies from run to run: what
    the same arguments give again, on any backend and any number of workers."""
    out = dict(result)
    out["bots"] = [{k: v for k, v in b.items() if k != "think"} for b in result["bots"]]
    return out


@dataclass
class Snapshot:
    """What a progress display needs after each block: the games so far (in block order), how
    many are planned, and the sequential test when there is one."""

    entrants: list[str]
    players: int
    games: list[dict] = field(default_factory=list)
    planned: int = 0
    test: Sprt | None = None

    @property
    def done(self) -> int:
        return len(self.games)


def run_arena(specs: list[str], players: int, games: int | None, seed: int = 0,
              workers: int = 1, variant: str = "rulebook",
              progress: Callable[[Snapshot], None] | None = None,
              sprt: tuple[float, float] | None = None, alpha: float = 0.05, beta: float = 0.05,
              backend: Backend | None = None, sprt_by: str = "score") -> dict:
    """Play `games` games (with `sprt`: at most that many, default SPRT_GAMES).  `specs` has one
    entry per seat, or fewer: then the list is repeated (two specs in 4 players: A B A B).
    Results are grouped by entrant label (`summarize`: each with its think time per decision over
    the whole run; all else is the same for the same arguments, see `untimed`).

    `sprt=(elo0, elo1)`: a sequential test of the first label (test) against the second (base),
    fed block by block in block order, stopping at the first decision (outstanding blocks are
    cancelled); its result is under ``"sprt"``; `sprt_by` ``win`` scores a block by the first
    label's share of the wins (`search.lab.sprt`), and the run then keeps its units by score
    too (``"tally"``).  `backend`: where blocks run (default: local,
    `workers` processes).  Ctrl-C stops the run: the result then covers the games finished so
    far and says ``"stopped": "interrupted"``.  `progress(snapshot)` is called after each block.
    """
    entrants = entrants_of(specs, players)
    test = None
    if sprt is not None:
        labels = list(dict.fromkeys(entrants))
        if len(labels) != 2:
            raise EkonosError(f"--sprt compares two bots, not {len(labels)} (to test a bot "
                              "against itself name it twice with an offset: BOT and BOT@1)")
        odds = entrants.count(labels[0]) / entrants.count(labels[1])
        test = new_sprt(sprt[0], sprt[1], alpha, beta, players, by=sprt_by,
                        odds=odds if sprt_by == "win" else 1.0)
        games = SPRT_GAMES if games is None else games
        games = -(-games // players) * players          # whole blocks: a test takes blocks
    if games is None or games < 1:
        raise EkonosError("give a number of games of at least 1")
    blocks = -(-games // players)
    tasks = ((b, play_block, (entrants, players, seed, b, min(players, games - b * players),
                              variant)) for b in range(blocks))
    snap = Snapshot(entrants, players, planned=games, test=test)
    stopped = None
    own = backend is None
    if own:
        backend = make_backend("local", workers)
    run = Ordered(backend, tasks)
    try:
        for _, block in run:
            snap.games += block
            if test is not None:
                rows = seat_wins if test.by == "win" else seat_scores
                test.add_block([rows(g, entrants) for g in block], labels[0], labels[1])
            if progress:
                progress(snap)
            if test is not None and test.state != "continue":
                stopped = "sprt"
                break
        else:
            if test is not None:
                stopped = "limit"
    except KeyboardInterrupt:
        stopped = "interrupted"
        for _, block in run.leftovers():
            snap.games += block
    finally:
        run.stop()
        if own:
            backend.close()
    out = {"players": players, "games": snap.done, "seed": seed, "variant": variant,
           **summarize(snap.games, entrants, players), "stopped": stopped}
    if test is not None:
        out["sprt"] = {"test": labels[0], "base": labels[1], **test.result()}
    if len(set(entrants)) == 2 and (test is None or test.by != "score"):
        # no test by score, but the units one would take: poolable
        test_label, base_label = dict.fromkeys(entrants)
        out["tally"] = tally(whole_blocks(snap.games, entrants, players), test_label,
                             base_label, players)
    out["specs"] = {label: resolved(label) for label in dict.fromkeys(entrants)}
    return out
