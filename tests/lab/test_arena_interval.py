"""The arena's interval on a win share counts blocks, not seat-games, as the independent units:
seats of one bot in one game share its result, games of one block share a deal."""
import random

import pytest

from search.lab import arena
from search.lab.arena import clustered_interval, summarize, wilson


def six_player_games(blocks: int, exclusive: bool, seed: int = 5) -> list[dict]:
    """Blocks of 6 games, bots a and b in alternate seats (3 seats each).  `exclusive`: each
    game has one winner, so a's three seats share one result per game; otherwise every
    seat-game is a coin flip of its own, won with probability 1/6."""
    rng = random.Random(seed)
    games = []
    for g in range(6 * blocks):
        winner = rng.randrange(6)
        results = [{"entrant": q % 2, "seat": q, "score": 0, "rank": 1,
                    "win": (1.0 if q == winner else 0.0) if exclusive
                    else float(rng.random() < 1 / 6)} for q in range(6)]
        games.append({"game": g, "results": results})
    return games


def test_one_trial_a_cluster_is_wilson():
    rng = random.Random(1)
    wins = [float(rng.random() < 0.3) for _ in range(400)]
    low, high = clustered_interval(wins, [1] * 400)
    w_low, w_high = wilson(sum(wins) / 400, 400)
    assert low == pytest.approx(w_low, abs=0.003) and high == pytest.approx(w_high, abs=0.003)


def width(interval: tuple[float, float]) -> float:
    return interval[1] - interval[0]


def test_seats_that_share_a_game_narrow_the_interval_and_shared_fates_widen_it():
    # three seats of one bot, one win between them in half the games (a share of 1/6): the
    # seat-games are negatively correlated, so their mean varies less than 540 coin flips'
    flips = width(wilson(1 / 6, 540))
    one_seat_wins = clustered_interval([1.0] * 90 + [0.0] * 90, [3] * 180)
    assert width(one_seat_wins) < 0.85 * flips
    # games won or lost by all three seats at once: 180 results, not 540
    all_or_none = clustered_interval([3.0] * 30 + [0.0] * 150, [3] * 180)
    assert width(all_or_none) > 1.5 * flips
    for low, high in (one_seat_wins, all_or_none):
        assert low < 1 / 6 < high
    assert clustered_interval([], []) == (0.0, 1.0)
    assert clustered_interval([2.0], [4]) == wilson(0.5, 4)          # one cluster: plain Wilson


def test_the_arena_reports_the_interval_over_blocks():
    exclusive = summarize(six_player_games(40, True), ["a", "b"], 6)["bots"][0]
    independent = summarize(six_player_games(40, False), ["a", "b"], 6)["bots"][0]
    assert exclusive["games"] == independent["games"] == 720
    for bot in (exclusive, independent):
        low, high = bot["ci95"]
        assert low <= bot["win_share"] <= high
    assert width(exclusive["ci95"]) < 0.8 * width(wilson(exclusive["win_share"], 720))
    naive = width(wilson(independent["win_share"], 720))
    assert 0.8 * naive < width(independent["ci95"]) < 1.25 * naive


def test_a_real_run_gives_an_interval_around_its_share():
    r = arena.run_arena(["greedy", "random"], 3, 6, seed=3)
    for bot in r["bots"]:
        assert bot["ci95"][0] <= bot["win_share"] <= bot["ci95"][1]
        assert 0 <= bot["ci95"][0] < bot["ci95"][1] <= 1
