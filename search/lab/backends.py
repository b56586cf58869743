"""Where arena blocks run: in this process, in a pool of local processes, or as Ray tasks.

A *task* is a call of a module-level function with picklable arguments (the arena's
`play_block`), under an integer key (the block's number).  A backend runs tasks and hands back
``(key, result)`` pairs as they finish, in any order.  `Ordered` keeps a window of tasks in
flight, returns the results in key order whatever finished first (so a run's result, and an
SPRT's decision, do not depend on which worker was fast), and cancels what is still outstanding
when its consumer stops early (an SPRT decision, Ctrl-C, an error).

Backends:

* ``local``, one worker: the tasks run in this process, one at a time (no pool, nothing extra).
* ``local``, W workers: a pool of W forked processes that ignore SIGINT (Ctrl-C reaches this
  process only, which stops the pool).
* ``ray``: every task is a Ray task (optional extra ``ray``).  `RayBackend` connects to the
  cluster at `address` (or ``RAY_ADDRESS``), else starts a local Ray with `cpus` CPUs.  The code
  reaches the workers through Ray's runtime environment: the ``ekonos`` and ``search`` package
  directories of this process, compiled extensions included, are shipped as ``py_modules`` (so
  the workers run exactly the code of the driver; the nodes need the same Python version,
  platform and numpy).  With ``ship=False`` nothing is shipped and the workers import the
  packages installed on the nodes (``pip install ekonos`` from a wheel built with
  ``pip wheel . -w dist``).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ekonos.errors import EkonosError

Task = tuple[int, Callable[..., Any], tuple]
"""A task: its key, a module-level function and its arguments."""

BACKENDS = ("local", "ray")
_POLL = 0.2   # seconds between checks for Ctrl-C while waiting


class Backend:
    """Runs tasks; `slots` is how many are worth keeping in flight."""

    slots: int = 1
    cancelled: int = 0

    def submit(self, key: int, fn: Callable[..., Any], args: tuple) -> None:
        raise NotImplementedError

    def wait(self) -> list[tuple[int, Any]]:
        """At least one finished task as ``(key, result)``; a task's exception is raised here."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Drop every task submitted and not yet returned (counted in `cancelled`)."""

    def close(self) -> None:
        """Release the workers (after `cancel`, or when every task has returned)."""

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()
        self.close()


class SerialBackend(Backend):
    """Tasks run in this process, in submission order, when their result is asked for."""

    def __init__(self) -> None:
        self._todo: list[Task] = []

    def submit(self, key: int, fn: Callable[..., Any], args: tuple) -> None:
        self._todo.append((key, fn, args))

    def wait(self) -> list[tuple[int, Any]]:
        key, fn, args = self._todo.pop(0)
        return [(key, fn(*args))]

    def cancel(self) -> None:
        self.cancelled += len(self._todo)
        self._todo.clear()


_PR_SET_PDEATHSIG = 1       # <linux/prctl.h>


def _worker_start(parent: int) -> None:
    """A pool worker: Ctrl-C is the parent's to handle; when the parent dies (even by kill -9)
    the worker dies with it, quietly (Linux: PR_SET_PDEATHSIG), instead of writing its result
    into a closed pipe (BrokenPipeError tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):          # not Linux: the pool's own checks remain
        pass
    if os.getppid() != parent:                 # the parent died before prctl took effect
        os._exit(0)


class PoolBackend(Backend):
    """A pool of `workers` forked processes (they ignore Ctrl-C: this process handles it)."""

    def __init__(self, workers: int):
        self.slots = 2 * workers
        self._pool = mp.get_context("fork").Pool(workers, initializer=_worker_start,
                                                 initargs=(os.getpid(),))
        self._done: queue.Queue = queue.Queue()
        self._out = 0

    def submit(self, key: int, fn: Callable[..., Any], args: tuple) -> None:
        self._out += 1
        self._pool.apply_async(fn, args, callback=lambda r: self._done.put((key, r, None)),
                               error_callback=lambda e: self._done.put((key, None, e)))

    def wait(self) -> list[tuple[int, Any]]:
        while True:
            try:
                key, result, error = self._done.get(timeout=_POLL)
                break
            except queue.Empty:
                continue
        self._out -= 1
        if error is not None:
            raise error
        return [(key, result)]

    def cancel(self) -> None:
        if self._out:
            self.cancelled += self._out
            self._out = 0
            self._pool.terminate()

    def close(self) -> None:
        self._pool.terminate()
        self._pool.join()


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise EkonosError("--backend ray needs the optional extra 'ray': "
                          "pip install 'ekonos[ray]'") from exc
    return ray


def _call(fn: Callable[..., Any], args: tuple) -> Any:
    return fn(*args)


def origin(module: str = "search") -> tuple[str, list[str]]:
    """The file `module` is imported from in this process, and the import path (run it as a
    task to see where the workers take the code from)."""
    import importlib
    import sys
    return str(importlib.import_module(module).__file__), list(sys.path)


def code_dirs() -> list[str]:
    """The directories of the packages the workers need (the game and the search)."""
    import ekonos
    import search
    return [str(Path(ekonos.__file__).parent), str(Path(search.__file__).parent)]


class RayBackend(Backend):
    """Tasks as Ray tasks on the cluster at `address` (default: ``RAY_ADDRESS``, else a local
    Ray started here with `cpus` CPUs, None: all).  Each task asks for `task_cpus` CPUs (the
    most threads a bot of the block uses).  An already initialised Ray (a test's) is used as it
    is, with the runtime environment it was started with (Ray ships local directories only at
    `ray.init`: start it with ``runtime_env={"py_modules": code_dirs()}``), and left running; a
    Ray started here is shut down by `close`."""

    def __init__(self, address: str | None = None, cpus: int | None = None, task_cpus: int = 1,
                 ship: bool = True):
        ray = self._ray = _ray()
        self._started = False
        env = {"py_modules": code_dirs()} if ship else None
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            import logging
            kwargs: dict[str, Any] = dict(runtime_env=env, log_to_driver=False,
                                          logging_level=logging.ERROR, include_dashboard=False,
                                          configure_logging=False)
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=cpus, **kwargs)
            self._started = True
        total = int(ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, 2 * total // max(task_cpus, 1))
        self._remote = ray.remote(num_cpus=task_cpus, max_retries=0)(_call)
        self._refs: dict[Any, int] = {}

    def submit(self, key: int, fn: Callable[..., Any], args: tuple) -> None:
        self._refs[self._remote.remote(fn, args)] = key

    def wait(self) -> list[tuple[int, Any]]:
        ray = self._ray
        while True:
            ready, _ = ray.wait(list(self._refs), num_returns=1, timeout=_POLL)
            if ready:
                break
        return [(self._refs.pop(ref), ray.get(ref)) for ref in ready]

    def cancel(self) -> None:
        for ref in self._refs:
            self._ray.cancel(ref, force=True)
        self.cancelled += len(self._refs)
        self._refs.clear()

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_backend(name: str = "local", workers: int = 1, address: str | None = None,
                 task_cpus: int = 1, ship: bool = True) -> Backend:
    """The backend called `name` (``local`` or ``ray``).  Local: `workers` processes (1: this
    process).  Ray: the cluster at `address` or ``RAY_ADDRESS``, else a local Ray with `workers`
    CPUs."""
    if name == "local":
        if address:
            raise EkonosError("--address is for --backend ray")
        return SerialBackend() if workers <= 1 else PoolBackend(workers)
    if name == "ray":
        return RayBackend(address=address, cpus=workers, task_cpus=task_cpus, ship=ship)
    raise EkonosError(f"unknown backend {name!r}: one of {', '.join(BACKENDS)}")


class Ordered:
    """``(key, result)`` of `tasks` in key order (keys must be 0, 1, 2, ...): key k is submitted only once
    every key before k - `backend.slots` has been handed out, so at most `slots` tasks are in
    flight or waiting for an earlier one (a slow early task holds the window, not memory).
    With ``in_order=False`` results come as they finish and `slots` tasks are kept in flight
    (for a consumer that does not care about order: no task waits behind a slow one).  Iterate it; stop whenever you like and call `stop()` (or leave the `with` block):
    outstanding tasks are cancelled.  `leftovers()` gives the results that finished but were
    not handed out yet because an earlier key had not (after an interruption)."""

    def __init__(self, backend: Backend, tasks: Iterable[Task], in_order: bool = True):
        self.backend = backend
        self.in_order = in_order
        self._tasks = iter(tasks)
        self._waiting: dict[int, Any] = {}
        self._next = 0
        self._submitted = 0
        self._in_flight = 0
        self._exhausted = False

    def _fill(self) -> None:
        while not self._exhausted and (
                self._submitted < self._next + self.backend.slots if self.in_order
                else self._in_flight < self.backend.slots):
            task = next(self._tasks, None)
            if task is None:
                self._exhausted = True
                return
            self.backend.submit(*task)
            self._submitted += 1
            self._in_flight += 1

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        while True:
            self._fill()
            if self._next in self._waiting:
                self._next += 1
                yield self._next - 1, self._waiting.pop(self._next - 1)
                continue
            if not self.in_order and self._waiting:
                key = min(self._waiting)
                yield key, self._waiting.pop(key)
                continue
            if not self._in_flight:
                return
            for key, result in self.backend.wait():
                self._in_flight -= 1
                self._waiting[key] = result

    def leftovers(self) -> list[tuple[int, Any]]:
        """``(key, result)`` of the tasks finished but not handed out, in key order."""
        return [(k, self._waiting[k]) for k in sorted(self._waiting)]

    def stop(self) -> None:
        self.backend.cancel()
        self._in_flight = 0

    def __enter__(self) -> "Ordered":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
