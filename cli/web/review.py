"""The review of a finished game on the web board: search/review.py, run off the event loop,
once per game.

* `Reviews.start(session)` reviews the person's decisions of the game the session has finished
  (`search.review.review_game`, each decision searched from the person's view only), in a
  thread of its own; `status(session)` says how far it is.  `NotOver` while the game is on.
* Progress (decisions reviewed / total) goes to every open page through `publish`, a few times
  a second, and at the end.
* A review is kept under a key made of what it reviews (the start position, the decisions, the
  seat, the budget and the seed): a reload, a second page or a second request shows it again
  without a search.  The last `KEEP` reviews are kept.
* One review runs at a time (a one-thread executor; the search itself uses `workers` threads,
  and releases the GIL); `cancel()` stops the running one (a new game, the server stopping):
  the decisions not begun are dropped, and a later request starts it again.

The budget is the one of `ekonos review` (search.review.DEFAULT_ITERATIONS) and the seed 0, so
the page shows exactly what `ekonos review RECORD --seat K` prints for the same record.
"""
from __future__ import annotations

import hashlib
import json
import logging
import shlex
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from ekonos.position import state_to_dict
from search.review import DEFAULT_ITERATIONS, review_game

from cli.session import GameSession
from cli.web.views import review_json

KEEP = 8                      # finished reviews kept in memory
EVERY = 0.2                   # seconds between two progress messages
log = logging.getLogger("ekonos.web")


class NotOver(Exception):
    """A review asked for a game that is not over."""


class _Stopped(Exception):
    """Raised from the progress callback to stop a review."""


@dataclass
class Job:
    """One review: where it is, and its JSON (cli.web.views.review_json) once done."""

    key: str
    seat: int
    total: int
    command: str
    done: int = 0
    result: dict | None = None
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def status(self) -> str:
        if self.result is not None:
            return "done"
        if self.error is not None:
            return "failed"
        return "running"

    def summary(self) -> dict:
        """What the page is told in every state message (small: no review data)."""
        return {"key": self.key, "status": self.status, "done": self.done,
                "total": self.total, "seat": self.seat, "error": self.error}


class Reviews:
    """The reviews of the games a web board has finished.  `publish(message)` sends a message
    to every open page (from any thread)."""

    def __init__(self, publish: Callable[[dict], None], iterations: int = DEFAULT_ITERATIONS,
                 seed: int = 0, workers: int = 2):
        self.publish = publish
        self.iterations = iterations
        self.seed = seed
        self.workers = workers
        self.searches = 0                        # reviews computed (the cache is tested by it)
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._keys: tuple[object, int, str] | None = None       # (session, version, key)
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekonos-review")

    # -- which game --------------------------------------------------------------------------
    def key(self, session: GameSession) -> str | None:
        """The key of the review of the session's game now (None while it is not over)."""
        if not session.state.is_over():
            return None
        version = session.version
        memo = self._keys
        if memo is not None and memo[0] is session and memo[1] == version:
            return memo[2]
        what = {"start": state_to_dict(session.start), "ply0": session.ply0,
                "moves": [str(d.move) for d in session.decisions], "seat": session.human,
                "iterations": self.iterations, "seed": self.seed}
        key = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:20]
        self._keys = (session, version, key)
        return key

    def job(self, session: GameSession) -> Job | None:
        key = self.key(session)
        return None if key is None else self._jobs.get(key)

    def status(self, session: GameSession) -> dict | None:
        """The review of the session's game: None when none was asked (or it is not over)."""
        job = self.job(session)
        return None if job is None else job.summary()

    # -- running -----------------------------------------------------------------------------
    def start(self, session: GameSession) -> Job:
        """The review of the session's finished game: the one kept or running, else a new one
        begun in the review thread.  NotOver while the game is on."""
        with session.lock:                       # the game and its key as one value
            key = self.key(session)
            if key is None:
                raise NotOver("the review is for a finished game: this one is not over yet "
                              "(finish it, then ask again)")
            start, ply0, seat = session.start, session.ply0, session.human
            moves = [d.move for d in session.decisions]
            mine = sum(1 for d in session.decisions if d.seat == seat)
            record = session.over.saved[0] if session.over and session.over.saved \
                else session.autosave
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.status != "failed":
                self._jobs.move_to_end(key)
                return job
            command = (f"ekonos review {shlex.quote(str(record))} --seat {seat}"
                       if record is not None else "")
            job = Job(key, seat, mine, command)
            self._jobs[key] = job
            while len(self._jobs) > KEEP:
                self._jobs.popitem(last=False)
        self._executor.submit(self._run, job, start, moves, ply0)
        return job

    def _run(self, job: Job, start, moves, ply0: int) -> None:
        """In the review thread: the review, its progress told to the pages."""
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if job.stop.is_set():
                raise _Stopped
            job.done, job.total = done, total
            now = time.monotonic()
            if now - last[0] >= EVERY:
                last[0] = now
                self.publish({"kind": "Review", "review": job.summary()})

        if job.stop.is_set():
            self._forget(job)
            return
        self.searches += 1
        try:
            result = review_game(start, moves, seats=[job.seat], iterations=self.iterations,
                                 seed=self.seed, ply0=ply0, workers=self.workers,
                                 progress=progress)
        except _Stopped:
            self._forget(job)
            return
        except Exception as e:                   # a failure: say so on the page
            log.exception("the review failed")
            job.error = f"the review failed: {e}"
        else:
            data = review_json(result)
            data["command"] = job.command
            job.result = data
        self.publish({"kind": "Review", "review": job.summary()})

    def _forget(self, job: Job) -> None:
        with self._lock:
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]

    def cancel(self) -> None:
        """Stop the reviews not finished (they are forgotten; a new request starts again)."""
        with self._lock:
            running = [j for j in self._jobs.values() if j.status == "running"]
        for job in running:
            job.stop.set()
            self._forget(job)

    def close(self) -> None:
        """The server is stopping: stop the running review, let its thread end."""
        self.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

