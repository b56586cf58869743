"""File locks and Ctrl-C: a Ctrl-C that lands while a lock is taken or let go waits until the
lock file and the process's record of it agree, so no lock file is left behind and no lock is
held unknown (the self-play Ctrl-C run once left `.shard-00003.npz.lock`)."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from ekonos import locks
from ekonos.locks import FileLock, LockHeld, lock_path, locked


@pytest.fixture
def python_ctrl_c():
    """Python's own Ctrl-C handler in place for the test, whatever a test before left (an
    `ekonos` command sets its own where the runner does not capture stderr), then put back."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def ctrl_c_inside(monkeypatch, name: str) -> None:
    """Make `locks.<name>` send this process a SIGINT before doing its work."""
    real = getattr(locks, name)

    def interrupted(*args):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args)
    monkeypatch.setattr(locks, name, interrupted)


def test_ctrl_c_while_taking_a_lock_comes_after_the_lock_is_known(tmp_path, monkeypatch,
                                                                  python_ctrl_c):
    target = tmp_path / "shard.npz"
    lock = FileLock(target)
    ctrl_c_inside(monkeypatch, "_try_lock")
    with pytest.raises(KeyboardInterrupt):
        lock.acquire()
    assert lock.held and lock_path(target).exists()      # taken whole, and known as taken
    monkeypatch.undo()
    lock.release()
    assert not lock_path(target).exists()


def test_ctrl_c_while_letting_go_comes_after_the_lock_file_is_gone(tmp_path, monkeypatch,
                                                                   python_ctrl_c):
    target = tmp_path / "shard.npz"
    lock = FileLock(target).acquire()
    ctrl_c_inside(monkeypatch, "_unlock")
    with pytest.raises(KeyboardInterrupt):
        lock.release()
    assert not lock.held and not lock_path(target).exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # handler restored


def test_a_lock_without_ctrl_c_leaves_the_handler_alone(tmp_path):
    before = signal.getsignal(signal.SIGINT)
    with locked(tmp_path / "results.json"):
        pass
    assert signal.getsignal(signal.SIGINT) is before
    assert os.listdir(tmp_path) == []


def test_waiting_for_a_lock_can_still_be_stopped(tmp_path, python_ctrl_c):
    """A process waiting for another holder is not deaf to Ctrl-C (only the taking is held
    back, never the wait)."""
    target = tmp_path / "results.json"
    other = tmp_path / "other"
    holder = os.fork()
    if holder == 0:                                      # another process holds the lock
        FileLock(target).acquire()
        other.touch()
        time.sleep(30)
        os._exit(0)
    try:
        deadline = time.monotonic() + 10
        while not other.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(LockHeld):
            FileLock(target).acquire(wait=False)
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            FileLock(target).acquire(wait=True)
        assert time.monotonic() - started < 5
    finally:
        os.kill(holder, signal.SIGKILL)
        os.waitpid(holder, 0)
