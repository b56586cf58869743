"""Root-parallel workers never outnumber iterations, an empty tree answers [],
and a worker's failure reaches the caller."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import mid_game

from ekonos import EkonosError, State
from search.analysis import analyse
from search.bots import ISMCTSBot, make_bot

ROOT = Path(__file__).resolve().parents[2]
PARAMS = dict(c=0.7)


def run(args: list[str], timeout: float = 300) -> subprocess.CompletedProcess:
    """A fresh interpreter on this checkout: a segfault fails the test, not pytest."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


# -- more workers than iterations (used to segfault) --------------------------------------------

@pytest.mark.parametrize("iterations, workers", [(10, 16), (15, 32), (25, 64)])
def test_hint_with_more_workers_than_iterations_in_a_fresh_process(tmp_path, iterations, workers):
    """Used to segfault; now the workers are capped (each gets at least MIN_ITERATIONS) and the
    hint advises legal decisions."""
    game = tmp_path / "g.json"
    made = run(["-m", "cli.main", "new", "-p", "3", "--seed", "42", "-o", str(game)])
    assert made.returncode == 0, made.stderr
    for _ in range(3):      # the crash was intermittent
        r = run(["-m", "cli.main", "hint", str(game), "-i", str(iterations), "-w", str(workers),
                 "--json"])
        assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
        assert r.stderr == ""
        assert json.loads(r.stdout)["moves"], "a hint always advises something"


@pytest.mark.parametrize("iterations", [1, 5, 9])
def test_hint_below_the_minimum_budget_is_one_line_exit_2(tmp_path, iterations):
    """`hint -i 1 -w 4` printed an empty table (the first iterations only try cards)."""
    game = tmp_path / "g.json"
    run(["-m", "cli.main", "new", "-p", "3", "--seed", "42", "-o", str(game)])
    r = run(["-m", "cli.main", "hint", str(game), "-i", str(iterations), "-w", "4"])
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("Error:") and "10" in r.stderr


def test_arena_with_more_workers_than_iterations_in_a_fresh_process():
    r = run(["-m", "cli.main", "arena", "-p", "2", "--bot", "ismcts:iterations=3,workers=4",
             "--bot", "random", "-n", "2", "--json"])
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert '"games": 2' in r.stdout


def test_workers_are_capped_at_the_iteration_budget():
    view = mid_game().view(mid_game().to_move)
    for iterations, workers in [(1, 4), (3, 4), (5, 6), (7, 64)]:
        capped = make_bot(f"ismcts:iterations={iterations},workers={workers}").analyse(view, 5)
        exact = make_bot(f"ismcts:iterations={iterations},workers={iterations}").analyse(view, 5)
        assert capped.iterations == iterations
        assert capped.moves == exact.moves and capped.nodes == exact.nodes


def test_the_budget_is_split_exactly_over_the_workers():
    view = mid_game().view(mid_game().to_move)
    for workers in (1, 2, 3, 7):
        result = make_bot(f"ismcts:iterations=100,workers={workers}").analyse(view, 1)
        assert result.iterations == 100
        assert sum(m["visits"] for m in result.moves) <= 100


def test_a_tiny_budget_still_chooses_a_legal_action():
    """With a card to choose first, one iteration expands no real decision: the tree's
    root moves are [] and the bot still answers."""
    for players in (2, 3, 6):
        st = State.new(players, seed=players)
        view = st.view(st.to_move)
        bot = make_bot("ismcts:iterations=1,workers=4", seed=2)
        assert bot.analyse(view, seed=1).moves == []
        assert bot.choose(view) in st.legal_moves
        with pytest.raises(EkonosError, match="at least 10"):     # a hint must advise something
            analyse(st, iterations=1, workers=4)
        assert analyse(st, iterations=10, workers=4)["moves"]


# -- the tree: empty answers [], a worker's failure reaches the caller ---------------------------

def test_an_empty_tree_answers_no_moves_in_a_fresh_process():
    r = run(["-c",
             "from ekonos import State\n"
             "from search._ismcts import Searcher\n"
             f"s = Searcher(**{PARAMS!r})\n"
             "assert s.root_moves() == [] and s.node_count == 0\n"
             "try:\n    s.run(State.new(3, seed=42).view(0), 0, iterations=0)\n"
             "except ValueError as e:\n    print('refused:', e)\n"
             "assert s.root_moves() == [] and s.node_count == 0\n"
             "s.run(State.new(3, seed=42).view(0), 0, iterations=50)\n"
             "assert s.root_moves()\n"
             "try:\n    s.run(State.new(3, seed=42).view(0), 0, iterations=0)\n"
             "except ValueError:\n    pass\n"
             "assert s.root_moves() == [], 'a failed run leaves no stale tree'\n"
             "print('ok')\n"])
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout.endswith("ok\n") and "refused: give a positive" in r.stdout


class _Failing:
    """A searcher whose run fails like a worker that hits an error."""
    node_count = 0
    forced = -1

    def __init__(self, error: Exception):
        self.error = error

    def run(self, *args, **kwargs):
        raise self.error


@pytest.mark.parametrize("root", ["uct", "halving"])
@pytest.mark.parametrize("error", [RuntimeError("worker broke"), MemoryError("no room")])
def test_a_workers_exception_reaches_the_caller(monkeypatch, error, root):
    made = []
    real = ISMCTSBot.searcher

    def searcher(self, players=None):
        made.append(real(self, players) if len(made) != 1 else _Failing(error))
        return made[-1]

    monkeypatch.setattr(ISMCTSBot, "searcher", searcher)
    st = mid_game()
    with pytest.raises(type(error), match=str(error)):
        make_bot(f"ismcts:iterations=400,workers=3,root={root}").analyse(st.view(st.to_move),
                                                                           seed=1)
    assert len(made) == 3
    assert made[0].iterations_done + made[2].iterations_done > 0   # the others ran to their end


def test_a_stop_group_keeps_no_finished_tree_alive():
    """A review tracks two searchers a decision: held strongly, a 4-player review at 20 000
    iterations kept every tree and reached ~600 MB; held weakly, a finished tree is freed."""
    import gc
    import weakref

    from search._ismcts import Searcher
    from search.roots import Stop
    stop = Stop()
    s = stop.track(Searcher(c=0.7))
    gone = weakref.ref(s)
    live = stop.track(Searcher(c=0.7))
    del s
    gc.collect()
    assert gone() is None
    stop.stop()
    assert live.stopped
