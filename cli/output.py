"""The terminal's streams in any encoding, and the one way out of an interrupt.

Output never fails on its encoding: what stdout or stderr cannot encode (an ASCII or Latin-1
terminal, `LC_ALL=C`, `PYTHONIOENCODING=ascii`) is written as an ASCII stand-in (box drawing,
dashes, arrows, bullets) or escaped like Python's backslashreplace (a name in another script:
`\\u65e5`).  rich draws its tables and panels in ASCII by itself when the stream is not UTF-8.

Ctrl-C ends a command with one line, "Interrupted.", and exit status 130; from then on a second
Ctrl-C is ignored, so the way out (the search threads stopping, the interpreter's shutdown)
never prints a traceback.  While a command runs, Ctrl-C raises KeyboardInterrupt once per
press: a second press within DEBOUNCE seconds is the same press (a KeyboardInterrupt raised
inside the cleanup of the first, in a lock's release, would leave the lock broken and end in a
RuntimeError traceback), and any error that escapes after a press ends the command as
interrupted.  Imports only the standard library and click.
"""
from __future__ import annotations

import codecs
import io
import signal
import sys
import threading
import time
from typing import NoReturn

import click

#: Exit status of a command ended by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130
#: The name of the codec error handler that writes STAND_INS, else escapes.
ERRORS = "ekonos-stand-in"

#: ASCII for the characters the commands print, where the terminal cannot show them.
STAND_INS = {
    "·": ".", "→": "->", "←": "<-", "—": "--", "–": "-", "…": "...", "×": "x", "±": "+/-",
    "•": "*", "✗": "x", "✓": "v", "¢": "c", "■": "#", "□": ".", "◀": "<", "▶": ">", "²": "2",
    "›": ">", "‹": "<", "⚠": "!", "★": "*", "µ": "u", "─": "-", "━": "-", "│": "|", "┃": "|",
    "╱": "/", "╲": "\\", "╳": "X", "└": "+", "┘": "+", "┌": "+", "┐": "+", "├": "+", "┤": "+",
    "┬": "+", "┴": "+", "┼": "+", "█": "#", "▌": "#", "▏": "|", "░": ".", "▒": ":", "▓": "#",
    "“": '"', "”": '"', "‘": "'", "’": "'", "\u00a0": " ",
}


def _stand_in(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    out = "".join(STAND_INS.get(ch) or ch.encode("ascii", "backslashreplace").decode("ascii")
                  for ch in text)
    return out, error.end


codecs.register_error(ERRORS, _stand_in)


def any_encoding() -> None:
    """Make this process's stdout and stderr write every character (stand-ins, escapes)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors in (
                "strict", "backslashreplace", "surrogateescape"):
            try:
                stream.reconfigure(errors=ERRORS)
            except (ValueError, OSError):        # closed, or no reconfigure: leave it
                pass


#: Seconds after a Ctrl-C in which another is taken for the same press.
DEBOUNCE = 1.0
_pressed: list[float] = []          # when Ctrl-C was last pressed (monotonic seconds)


def on_interrupt(signum, frame) -> None:
    """The SIGINT handler while a command runs (catch_interrupts)."""
    now = time.monotonic()
    if _pressed and now - _pressed[-1] < DEBOUNCE:
        return                      # the same press: let the first one unwind
    _pressed.append(now)
    raise KeyboardInterrupt


def catch_interrupts() -> None:
    """While a command runs, Ctrl-C raises KeyboardInterrupt once per press (in a real
    process, on its main thread: a test runner keeps its own handler)."""
    if threading.current_thread() is threading.main_thread() and \
            sys.stderr is sys.__stderr__:
        signal.signal(signal.SIGINT, on_interrupt)


def was_interrupted() -> bool:
    """Whether Ctrl-C was pressed while this command ran."""
    return bool(_pressed)


def ignore_second_interrupt() -> None:
    """From now on Ctrl-C is ignored (in a real process, on its main thread only: a test
    runner's capture keeps its own)."""
    if threading.current_thread() is threading.main_thread() and \
            sys.stderr is sys.__stderr__:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def forget_caught_interrupts() -> None:
    """Leave no mark of a Ctrl-C the program has handled, so that it exits with the status it
    chose.  CPython marks a KeyboardInterrupt that ends a string `exec`/`eval` as unhandled
    even when a caller catches it (dataclasses and namedtuples build their methods so, as a
    command imports a module), and under `python -m` the interpreter then ends by SIGINT after
    the program's own exit: status -2, not 130 or 0 (pythonrun.c, `run_eval_code_obj`).  Every
    string eval clears that mark as it starts: this one does only that."""
    eval("0")


def interrupted() -> NoReturn:
    """The end of a command on Ctrl-C: one line, exit status 130."""
    ignore_second_interrupt()
    click.echo("Interrupted.", err=True)
    sys.exit(INTERRUPTED)


def print_report(console, *renderables) -> None:
    """Print rich `renderables` on `console`; into a file or a pipe (no terminal) without the
    spaces rich pads each line of a table with up to the console's width."""
    if console.is_terminal:
        for r in renderables:
            console.print(r)
        return
    with console.capture() as captured:
        for r in renderables:
            console.print(r)
    text = captured.get()
    console.file.write("\n".join(line.rstrip() for line in text.split("\n")))
    console.file.flush()


def typed_ahead(stream=None) -> list[str]:
    """The lines typed into the terminal before the program asked for them (pending on
    `stream`, stdin by default), taken off it so that they are not read as answers to the next
    question; [] when the stream is no terminal (a script's answers are meant in order) or
    cannot be polled."""
    import os
    import select
    stream = sys.stdin if stream is None else stream
    data = b""
    try:
        if not stream.isatty():
            return []
        fd = stream.fileno()
        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    except (AttributeError, ValueError, OSError):
        pass
    return [line for line in data.decode(errors="replace").splitlines() if line.strip()]
