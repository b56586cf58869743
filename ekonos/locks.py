"""Advisory file locks: one writer per file, across processes.

A lock is a small file beside the file it guards (`.NAME.lock`), locked with `fcntl.flock`
(POSIX) or `msvcrt.locking` (Windows); the operating system drops it when the process ends,
kill -9 included, so a lock is never left stale.  The lock file holds who holds it (process
id, what, since when) for the message of a second process.  The holder removes the lock file
when it lets go; a process that locked a file removed meanwhile locks again (its inode is
checked), so two processes never both believe they hold it.

* `FileLock(path).acquire(wait=False)`: held for as long as the holder wants (a game in
  progress owns its autosave for the process's life); `LockHeld` says who holds it;
* `locked(path)`: a short exclusive section (a read-merge-write of a results file), waiting
  for the holder.

Within one process a lock is counted, not taken twice: a second `acquire` of a path this
process holds succeeds (a web server starting a new game in place of the last one).
"""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Iterator

try:                                    # POSIX
    import fcntl
except ImportError:                     # pragma: no cover - Windows
    fcntl = None                        # type: ignore[assignment]
    try:
        import msvcrt
    except ImportError:
        msvcrt = None                   # type: ignore[assignment]

from ekonos.errors import EkonosError

#: True when this platform has a real lock (fcntl or msvcrt); without one, locks always
#: succeed and `LOCKS_WORK` tells the caller so (it then says that nothing guards the file).
LOCKS_WORK = fcntl is not None or globals().get("msvcrt") is not None


class LockHeld(EkonosError):
    """Another process holds the lock; `owner` is what it wrote (pid, what, since), or {}."""

    def __init__(self, path: Path, owner: dict):
        self.path = path
        self.owner = owner
        super().__init__(f"{path} is in use by {owner_text(owner)}")


def lock_path(path: str | os.PathLike) -> Path:
    """The lock file of `path`: `.NAME.lock` in the same folder."""
    p = Path(path)
    return p.with_name(f".{p.name}.lock")


def owner_text(owner: dict) -> str:
    """'process 1234 (ekonos play, since 2024-05-01 14:02)', or 'another process'."""
    pid = owner.get("pid")
    if not isinstance(pid, int):
        return "another process"
    details = [str(owner[k]) for k in ("what",) if isinstance(owner.get(k), str)]
    since = owner.get("since")
    if isinstance(since, str):
        details.append(f"since {since}")
    return f"process {pid}" + (f" ({', '.join(details)})" if details else "")


def _try_lock(fd: int) -> bool:
    """Lock `fd` if no other process holds it (never waits)."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
    if globals().get("msvcrt") is not None:  # pragma: no cover - Windows
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    return True                          # no lock on this platform (LOCKS_WORK is False)


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    elif globals().get("msvcrt") is not None:  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def read_owner(path: str | os.PathLike) -> dict:
    """What the holder of `path`'s lock wrote in the lock file ({} if nothing readable)."""
    try:
        with open(lock_path(path), "rb") as fh:
            data = json.loads(fh.read(4096).decode("utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C back while a lock is taken or let go, so that the lock file and this
    process's record of it never disagree (a lock file left behind, or a lock held but not
    known).  A Ctrl-C meanwhile is raised as soon as the section ends.  Only the main thread
    receives signals; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    if not callable(before):            # ignored or the default action: nothing to defer
        yield
        return
    caught: list[tuple] = []
    signal.signal(signal.SIGINT, lambda *a: caught.append(a))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if caught:
            before(*caught[0])


_HELD: dict[Path, "FileLock"] = {}        # this process's held locks, by lock file
_GUARD = threading.Lock()


class FileLock:
    """The lock of one file (see the module's docstring).  OSError when the lock file cannot
    be made (a read-only folder, a full disk): the caller names the file it meant."""

    def __init__(self, path: str | os.PathLike, what: str = ""):
        self.path = Path(path)
        self.lock = lock_path(self.path)
        self.what = what
        self._fd: int | None = None
        self._count = 0

    def acquire(self, wait: bool = False) -> "FileLock":
        """Take the lock (LockHeld if another process holds it and not `wait`); returns the
        lock held (the same object for every holder in this process)."""
        if wait:                                 # wait outside the section Ctrl-C can stop
            while True:
                try:
                    return self.acquire(wait=False)
                except LockHeld:
                    time.sleep(0.02)
        key = Path(os.path.abspath(self.lock))
        with _uninterrupted(), _GUARD:
            held = _HELD.get(key)
            if held is not None:
                held._count += 1
                return held
            while True:
                fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o644)
                if not _try_lock(fd):
                    os.close(fd)
                    raise LockHeld(self.path, read_owner(self.path))
                try:
                    same = os.fstat(fd).st_ino == os.stat(self.lock).st_ino
                except FileNotFoundError:
                    same = False
                if same:
                    break
                os.close(fd)                     # removed by its last holder: lock anew
            self._fd, self._count = fd, 1
            self._write_owner()
            _HELD[key] = self
            return self

    def _write_owner(self) -> None:
        info = {"pid": os.getpid(), "what": self.what,
                "since": datetime.now().strftime("%Y-%m-%d %H:%M")}
        try:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, json.dumps(info).encode(), 0)
        except OSError:
            pass                                 # the lock holds; only the message is poorer

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let go (the last holder in this process removes the lock file, then unlocks)."""
        with _uninterrupted(), _GUARD:
            if self._fd is None:
                return
            self._count -= 1
            if self._count > 0:
                return
            _HELD.pop(Path(os.path.abspath(self.lock)), None)
            try:
                os.unlink(self.lock)
            except OSError:
                pass
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "FileLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


@contextmanager
def locked(path: str | os.PathLike, what: str = "") -> Iterator[FileLock]:
    """Hold `path`'s lock for a short section, waiting for another holder to finish."""
    lock = FileLock(path, what).acquire(wait=True)
    try:
        yield lock
    finally:
        lock.release()
