"""The `ekonos` command line (the group is `cli.main`).

This file is the first of the program's own code that Python runs, both for the `ekonos`
script (`from cli.main import main`) and for `python -m cli.main`: the start-up handler for
Ctrl-C is installed here, as early as it can be, so that an interrupt while the program starts
gives one line and exit status 130 rather than an import's traceback.  Before this line runs the
interpreter itself is starting, and a Ctrl-C there is Python's own (a traceback from
`<frozen runpy>` and death by SIGINT).  A SIGINT blocked by whoever started the program (a
blocked signal is inherited) is unblocked here, once the handler is in place, so a Ctrl-C held
back until the program runs arrives at this line: the tests start their processes so, which keeps
the interpreter's own start out of what they measure however slow a busy machine makes it.
"""
from __future__ import annotations

import os
import signal
import sys


def interrupted_at_start(signum, frame) -> None:
    """Ctrl-C while the program starts (imports, a command's module): one line and exit status
    130, as later (cli.output.interrupted), never an import's traceback."""
    os.write(2, b"Interrupted.\n")
    os._exit(130)


def _is_the_program() -> bool:
    # `ekonos ...`, or `python [options] -m cli.main ...` (while Python locates the module it
    # imports this package with sys.argv[0] == "-m"); not a test or a library importing cli
    argv0 = sys.argv[0] if sys.argv else ""
    return os.path.basename(argv0) == "ekonos" or \
        (argv0 == "-m" and "cli.main" in getattr(sys, "orig_argv", ()))


if _is_the_program():
    signal.signal(signal.SIGINT, interrupted_at_start)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
