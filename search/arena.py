"""The arena: bots play each other with seats rotated and fixed seeds.

Games come in blocks of P (the player count): every game of a block uses the same deal seed and
the bots sit in rotated seats, so every bot plays every seat equally often and from the same
cards (duplicate-style, which also lowers variance).  The same arguments give the same result.
Each bot only ever sees `State.view(seat)`.

Win share counts a game won alone as 1 and a shared win among k as 1/k (R20).  The 95% interval
is Wilson's score interval on the win share over the games a bot played.
"""
from __future__ import annotations

import math
import multiprocessing as mp
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ekonos import State
from search.bots import derive_seed, make_bot, parse_spec

Z95 = 1.959963984540054


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion p observed over n trials."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # clamp: rounding must never put the observed share outside its own interval
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def seating(entrants: int, players: int, game: int) -> list[int]:
    """Entrant index per seat in game `game`: rotation by the game's place in its block."""
    r = game % players
    return [(seat + r) % players for seat in range(players)]


def play_game(specs: list[str], players: int, seed: int, game: int,
              variant: str = "rulebook") -> dict:
    """One arena game.  Returns per entrant: score, win share, rank (1 = best, ties share)."""
    deal_seed = derive_seed(seed, game // players)
    seats = seating(len(specs), players, game)
    state = State.new(players, seed=deal_seed, variant=variant)
    bots = [make_bot(specs[seats[q]], seed=derive_seed(seed, game, q)) for q in range(players)]
    while not state.is_over():
        seat = state.to_move
        action = bots[seat].choose(state.view(seat))
        state.push(action)   # checked: a bot choosing an illegal action is a bug we want to see
    scores = state.scores()
    winners = state.winners()
    out = []
    for q in range(players):
        better = sum(1 for s in scores if s > scores[q])
        ties = sum(1 for s in scores if s == scores[q])
        out.append({"entrant": seats[q], "seat": q, "score": scores[q],
                    "win": (1 / len(winners)) if q in winners else 0.0,
                    "rank": better + (ties + 1) / 2})
    return {"game": game, "results": out}


def _play(args):
    return play_game(*args)


@dataclass
class BotResult:
    spec: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0

    def as_dict(self) -> dict:
        share = self.wins / self.games if self.games else 0.0
        low, high = wilson(share, self.games)
        return {"bot": self.spec, "games": self.games, "win_share": share,
                "ci95": [low, high], "mean_score": self.score_sum / max(self.games, 1),
                "mean_rank": self.rank_sum / max(self.games, 1)}


def run_arena(specs: list[str], players: int, games: int, seed: int = 0, workers: int = 1,
              variant: str = "rulebook",
              progress: Callable[[int], None] | None = None) -> dict:
    """Play `games` games.  `specs` has one entry per seat, or fewer: then the list is repeated
    (two specs in 4 players: A B A B).  Results are grouped by spec string."""
    if not specs:
        raise ValueError("give at least one bot")
    for s in specs:
        parse_spec(s)  # refuse a bad spec before any game starts
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} seats")
    entrants = [specs[i % len(specs)] for i in range(players)]
    tasks = [(entrants, players, seed, g, variant) for g in range(games)]
    results: dict[str, BotResult] = {}
    for spec in entrants:
        results.setdefault(spec, BotResult(spec))

    def collect(outcomes: Iterator[dict]) -> None:
        for done, o in enumerate(outcomes, 1):
            for r in o["results"]:
                br = results[entrants[r["entrant"]]]
                br.games += 1
                br.wins += r["win"]
                br.score_sum += r["score"]
                br.rank_sum += r["rank"]
            if progress:
                progress(done)

    if workers <= 1:
        collect(map(_play, tasks))
    else:
        ctx = mp.get_context("fork")
        with ctx.Pool(workers) as pool:
            collect(pool.imap(_play, tasks, chunksize=1))
    return {"players": players, "games": games, "seed": seed, "variant": variant,
            "bots": [results[s].as_dict() for s in dict.fromkeys(entrants)]}
