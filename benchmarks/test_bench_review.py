"""Game review speed: a whole 4-player game, every seat, with the default budget of
`ekonos review` (search.review.DEFAULT_ITERATIONS a decision, 2 threads).

Target: at most 60 s on this project's 2-core machine.  The game is played once by
level-2 AIs at every seat (fixed seed), outside the timing; the review is the measured part.
Run alone: `.venv/bin/python -m pytest benchmarks/test_bench_review.py --benchmark-only`.
"""
import pytest

from cli.session import GameSession
from ekonos.moves import Move
from search.review import DEFAULT_ITERATIONS, review_game

TARGET_SECONDS = 60


@pytest.fixture(scope="module")
def game():
    """A whole 4-player game: the person's seat played by a level-2 AI too."""
    s = GameSession.new(ai=3, level=2, seed=12)
    person = GameSession.new(ai=1, level=2, seed=13).bots[1]
    while not s.state.is_over():
        if s.human_to_move():
            s.decide(Move.from_action(person.choose(s.state.view(s.human), seed=len(s.decisions))))
        else:
            s.play_ai()
    return s.start, [d.move for d in s.decisions]


def test_review_a_whole_four_player_game(benchmark, game):
    start, moves = game
    result = benchmark.pedantic(review_game, args=(start, moves),
                                kwargs=dict(seed=1, workers=2), rounds=3, iterations=1)
    median = benchmark.stats.stats.median
    benchmark.extra_info["decisions"] = len(result.decisions)
    benchmark.extra_info["iterations_per_decision"] = DEFAULT_ITERATIONS
    benchmark.extra_info["seconds_per_decision"] = round(median / len(result.decisions), 3)
    benchmark.extra_info["within_target"] = median <= TARGET_SECONDS
    assert len(result.decisions) == len(moves)
