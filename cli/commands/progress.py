"""Progress of a long run (arena, ladder) on stderr, and the options that drive a run.

On a terminal: a rich progress bar with the games done, the current estimate and its interval
(given by the command as a line of text), the time elapsed and the time left.  When stderr is
not a terminal (a log file, CI): one plain line every `LOG_EVERY` seconds instead.  `--quiet`:
nothing.  The estimate is recomputed at most every `REFRESH` seconds, so a run of cheap games
is not slowed down by its own display.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from search.lab.backends import BACKENDS

REFRESH = 0.5
LOG_EVERY = 30.0


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class RunProgress:
    """`with RunProgress(total, quiet) as bar: bar.update(done, total, text_fn)`."""

    def __init__(self, total: int, quiet: bool = False, console: Console | None = None,
                 label: str = "games"):
        self.console = console or Console(stderr=True)
        self.quiet = quiet
        self.live = not quiet and self.console.is_terminal
        self.label = label
        self.total = total
        self._text = ""
        self._shown = 0.0
        self._logged = self._start = time.monotonic()
        self._bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                             TextColumn("{task.fields[estimate]}"), TimeElapsedColumn(),
                             TextColumn("left"), TimeRemainingColumn(),
                             console=self.console, transient=True, disable=not self.live)
        self._task = self._bar.add_task(label, total=total, estimate="")

    def __enter__(self) -> "RunProgress":
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)

    def update(self, done: int, text: Callable[[], str] | None = None,
               total: int | None = None) -> None:
        """`done` games of `total` (unchanged if None); `text()` gives the estimate (called only
        when it will be shown)."""
        if self.quiet:
            return
        self.total = total if total is not None else self.total
        now = time.monotonic()
        if text is not None and (now - self._shown >= REFRESH or done >= self.total):
            self._text = text()
            self._shown = now
        if self.live:
            self._bar.update(self._task, completed=done, total=self.total, estimate=self._text)
        elif now - self._logged >= LOG_EVERY:
            self._logged = now
            elapsed = now - self._start
            left = elapsed / done * (self.total - done) if done else 0.0
            self.console.print(f"{done}/{self.total} {self.label}  {self._text}  "
                               f"{_clock(elapsed)} elapsed, {_clock(left)} left",
                               markup=False, highlight=False, soft_wrap=True)


def backend_options(f: Callable) -> Callable:
    """--backend, --address, --ship/--no-ship, --quiet: shared by arena and ladder."""
    for option in reversed([
        click.option("--backend", type=click.Choice(BACKENDS), default="local",
                     show_default=True,
                     help="Where games run: local processes, or Ray tasks (extra 'ray')."),
        click.option("--address", metavar="ADDR", default=None,
                     help="Ray cluster to use (default: RAY_ADDRESS, else a local Ray with "
                          "--workers CPUs)."),
        click.option("--ship/--no-ship", default=True, show_default=True,
                     help="Ray: ship this checkout's ekonos and search packages to the "
                          "workers (--no-ship: use the package installed on the nodes)."),
        click.option("--quiet", "-q", is_flag=True, help="No progress display."),
    ]):
        f = option(f)
    return f
