"""Running arenas: the ordered window over a backend, cancelling,
Ctrl-C with the partial result printed, and the progress display."""
import io
import json

import pytest
from click.testing import CliRunner
from rich.console import Console

import cli.commands.progress as progress_mod
from cli.commands.progress import RunProgress
from cli.main import main
from search.lab import arena
from search.lab.backends import (Backend, Ordered, PoolBackend, SerialBackend, make_backend)


def square(x):
    return x * x


class Shuffled(Backend):
    """Runs tasks at once and hands them back in a fixed scrambled order."""

    def __init__(self, slots=3):
        self.slots = slots
        self.todo = []
        self.max_out = 0

    def submit(self, key, fn, args):
        self.todo.append((key, fn(*args)))
        self.max_out = max(self.max_out, len(self.todo))

    def wait(self):
        return [self.todo.pop(len(self.todo) // 2)]

    def cancel(self):
        self.cancelled += len(self.todo)
        self.todo.clear()


def tasks(n):
    return ((k, square, (k,)) for k in range(n))


def test_ordered_hands_results_back_in_key_order_within_its_window():
    backend = Shuffled(slots=3)
    got = list(Ordered(backend, tasks(20)))
    assert got == [(k, k * k) for k in range(20)]
    assert backend.max_out <= 3


def test_unordered_hands_results_back_as_they_finish():
    got = list(Ordered(Shuffled(slots=3), tasks(20), in_order=False))
    assert sorted(got) == [(k, k * k) for k in range(20)] and got != sorted(got)


def test_stopping_early_cancels_the_rest():
    backend = Shuffled(slots=4)
    run = Ordered(backend, tasks(100))
    for key, _ in run:
        if key == 5:
            break
    run.stop()
    assert backend.cancelled > 0 and not backend.todo


@pytest.mark.parametrize("workers", [1, 2])
def test_local_backends_run_every_task(workers):
    with make_backend("local", workers) as backend:
        assert isinstance(backend, SerialBackend if workers == 1 else PoolBackend)
        assert list(Ordered(backend, tasks(9))) == [(k, k * k) for k in range(9)]


def test_a_failing_task_reaches_the_caller():
    with make_backend("local", 2) as backend:
        with pytest.raises(TypeError):
            list(Ordered(backend, [(0, square, ("x",))]))


def test_bad_backend_choices():
    with pytest.raises(ValueError, match="unknown backend"):
        make_backend("spark")
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        make_backend("local", address="auto")


def interrupt_after(blocks):
    seen = []

    def progress(snap):
        seen.append(snap.done)
        if len(seen) == blocks:
            raise KeyboardInterrupt
    return progress


def test_ctrl_c_returns_the_games_played_so_far():
    out = arena.run_arena(["greedy", "random"], 2, 40, seed=1, progress=interrupt_after(3))
    assert out["stopped"] == "interrupted" and out["games"] == 6
    assert [b["games"] for b in out["bots"]] == [6, 6]
    full = arena.run_arena(["greedy", "random"], 2, 6, seed=1)
    assert {k: v for k, v in arena.untimed(out).items() if k != "stopped"} == \
        {k: v for k, v in arena.untimed(full).items() if k != "stopped"}


def test_ctrl_c_keeps_the_sprt_state_it_had():
    out = arena.run_arena(["greedy", "random"], 2, None, seed=1, sprt=(0, 50),
                          progress=interrupt_after(2))
    assert out["stopped"] == "interrupted" and out["sprt"]["state"] == "continue"
    assert out["sprt"]["games"] == 4


def test_the_command_prints_the_partial_result_and_exits_130(monkeypatch):
    calls = []

    def update(self, done, text=None, total=None):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt
    monkeypatch.setattr(RunProgress, "update", update)
    r = CliRunner().invoke(main, ["arena", "-p", "2", "--bot", "greedy", "--bot", "random",
                                  "-n", "50", "--json"])
    assert r.exit_code == 130
    out = json.loads(r.stdout)
    assert out["stopped"] == "interrupted" and out["games"] == 4
    assert "Interrupted: the result covers the 4 games played." in r.stderr


def test_progress_bar_shows_games_estimate_and_time_left():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=150)
    with RunProgress(10, console=console) as bar:
        for done in (2, 4, 10):
            bar.update(done, lambda: "Elo +123 [+50, +200]")
    text = buf.getvalue()
    assert "games" in text and "10/10" in text and "Elo +123 [+50, +200]" in text
    assert "left" in text


def test_progress_without_a_terminal_logs_plain_lines(monkeypatch):
    monkeypatch.setattr(progress_mod, "LOG_EVERY", 0.0)
    buf = io.StringIO()
    with RunProgress(8, console=Console(file=buf, force_terminal=False, width=200)) as bar:
        bar.update(4, lambda: "LLR +1.00")
    line = buf.getvalue().strip()
    assert line.startswith("4/8 games  LLR +1.00") and "elapsed" in line and "left" in line


def test_quiet_shows_nothing():
    buf = io.StringIO()
    with RunProgress(8, quiet=True, console=Console(file=buf, force_terminal=True)) as bar:
        bar.update(4, lambda: pytest.fail("the estimate is not computed when quiet"))
    assert buf.getvalue() == ""


def test_the_arena_estimate_line():
    from cli.commands.arena import estimate_text
    snap = arena.Snapshot(["greedy", "random"], 2)
    assert estimate_text(snap) == ""
    snap.games = [arena.play_game(["greedy", "random"], 2, 1, g) for g in range(4)]
    assert estimate_text(snap).startswith("Elo +")


def test_the_ray_backend_without_ray_names_the_extra(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_ray)
    r = CliRunner().invoke(main, ["arena", "-p", "2", "--bot", "random", "--bot", "greedy",
                                  "-n", "2", "--backend", "ray"])
    assert r.exit_code == 2
    assert r.output.strip() == ("Error: --backend ray needs the optional extra 'ray': "
                                "pip install 'ekonos[ray]'")


def test_an_sprt_expects_the_games_its_llr_drift_needs():
    from cli.commands.arena import expected_games
    from search.lab.sprt import Sprt
    snap = arena.Snapshot(["a", "b"], 2, planned=1000, test=Sprt(0, 50))
    assert expected_games(snap) == 1000                 # nothing played: the limit
    snap.games = [{}] * 10
    for _ in range(5):
        snap.test.add_pair(2.0)
    llr = snap.test.llr
    assert 0 < llr < snap.test.upper
    assert expected_games(snap) == -(-10 * snap.test.upper // llr)
    assert arena.Snapshot(["a"], 2, planned=7).planned == expected_games(
        arena.Snapshot(["a"], 2, planned=7))
