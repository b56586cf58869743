"""When another process plays the data folder's game: what `ekonos play` and `ekonos serve`
offer instead of taking it over.

A game in progress is owned by one process (`storage.claim_autosave`).  A second program
there never moves that game aside and never writes its autosave; in a terminal it says who
plays (which process, since when) and offers to watch the game (a read-only view of the
autosave, redrawn as it changes), to start a new game beside it (its own autosave,
`autosave-2.json`, ...), or to quit.  Without a terminal it is an error (`refusal`).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape

from cli import render, storage
from ekonos import State
from ekonos.locks import FileLock, LockHeld

WATCH, BESIDE, QUIT = "watch", "beside", "quit"


def refusal(busy: storage.AutosaveBusy, load: bool = False) -> str:
    """The one-line error of a program that cannot ask (no terminal, or --load)."""
    how = ("--load would share its autosave: finish or quit that game first" if load else
           "run the command in a terminal to watch it or to start a game beside it")
    return f"{busy}; {how} (nothing was changed)"


def choose(busy: storage.AutosaveBusy, console: Console, input_fn: Callable[[str], str],
           can_watch: bool = True) -> str:
    """Say who plays there and ask: WATCH, BESIDE or QUIT (the default: Enter, end of input,
    Ctrl-C)."""
    console.print(f"[yellow]A game is in progress in [bold]{escape(str(busy.path))}[/]: "
                  f"{escape(str(busy).partition(': ')[2])}.[/]")
    console.print("It is not touched here. You can:")
    keys = {"w": WATCH} if can_watch else {}
    keys |= {"n": BESIDE, "q": QUIT}
    if can_watch:
        console.print("  [bold]w[/]  watch it (the board, redrawn after every decision)")
    console.print("  [bold]n[/]  start a new game beside it (saved in its own file)")
    console.print("  [bold]q[/]  quit")
    while True:
        try:
            # no square brackets: rich's console.input would read them as markup and show nothing
            answer = input_fn(f"Your choice ({'/'.join(keys)}, Enter quits): ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return QUIT
        if not answer:
            return QUIT
        if answer[:1] in keys:
            return keys[answer[:1]]
        console.print(f"[red]✗ type {', '.join(keys)}[/]")


def open_beside(make: Callable[[Path], object], auto: Path):
    """`make(path)` with the first free autosave beside `auto` (autosave-2.json, -3, ...)."""
    for path in storage.beside_paths(auto):
        try:
            return make(path)
        except storage.AutosaveBusy:
            continue


def _owner_left(path: Path) -> bool:
    """Whether no process owns the autosave any more (checked by taking its lock a moment)."""
    try:
        FileLock(path).acquire().release()
        return True
    except LockHeld:
        return False
    except OSError:
        return False


def watch(path: Path, console: Console, interval: float = 1.0,
          sleep: Callable[[float], None] = time.sleep) -> None:
    """A read-only view of the game in the autosave `path`: the board again after every change,
    until the game ends, its player leaves it, or Ctrl-C."""
    console.print(f"Watching {escape(str(path))} (read-only). Ctrl-C stops watching.")
    seen = None
    try:
        while True:
            try:
                stamp = path.stat().st_mtime_ns
            except OSError:
                stamp = None
            if stamp is not None and stamp != seen:
                seen = stamp
                st, human = _read(path)
                if st is not None:
                    console.print(render.play_board(st, console.width, human))
                    if st.is_over():
                        console.print("[bold]The game is over.[/]")
                        return
            if _owner_left(path):
                console.print("Its player has left the game; resume it with "
                              f"`ekonos play --load {escape(str(path))}`.")
                return
            sleep(interval)
    except KeyboardInterrupt:
        console.print("\nStopped watching; the game goes on.")


def _read(path: Path) -> tuple[State | None, int | None]:
    try:
        data = storage.read_json(path)
        st = State.from_dict(data)
    except (storage.StorageError, ValueError, IndexError):
        return None, None
    human = data.get("play", {}).get("human") if isinstance(data.get("play"), dict) else None
    if not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < st.nplayers:
        human = None
    return st, human
