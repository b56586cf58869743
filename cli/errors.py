"""Bad input, reported in ONE place, and the position-file helpers that raise it.

Bad input of any kind (a missing or unreadable file, a file that is not a possible position, a
move that is not notation or not legal, a wrong option) ends in `EkonosGroup`: one line on
stderr, exit status 2, no traceback, and nothing written.  Commands just raise `InputError`,
`EkonosError`, `OSError` or a click exception.

Imports neither `cli.main` nor any command, so every command module can import it.
"""
from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import click

from cli.output import (any_encoding, catch_interrupts, forget_caught_interrupts,
                        ignore_second_interrupt, interrupted, was_interrupted)
from ekonos import State, load_file, save_file
from ekonos.errors import EkonosError, PositionError

#: Exit status of every refusal of bad input (the same as click's usage errors).
BAD_INPUT = 2


class InputError(click.ClickException):
    """Bad input found by a command (exit status 2, like click's usage errors)."""

    exit_code = BAD_INPUT


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _fail(message: str, code: int = BAD_INPUT) -> None:
    click.echo(f"Error: {_one_line(message)}", err=True)
    sys.exit(code)


def _os_message(e: OSError) -> str:
    where = e.filename if e.filename is not None else ""
    return f"{where}: {e.strerror or e}" if where else str(e.strerror or e)


class EkonosGroup(click.Group):
    """A click group whose every failure on bad input is one line on stderr and exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        any_encoding()                                     # never a UnicodeEncodeError
        catch_interrupts()                                 # one KeyboardInterrupt a press
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except KeyboardInterrupt:                          # Ctrl-C: one line, exit status 130
            interrupted()
        except click.exceptions.NoArgsIsHelpError as e:   # bare `ekonos`: the help, not an error
            click.echo(e.ctx.get_help() if e.ctx else self.get_help(click.Context(self)))
            sys.exit(0)
        except click.UsageError as e:                      # wrong option, missing argument, ...
            where = e.ctx.command_path if e.ctx else "ekonos"
            _fail(f"{where}: {e.format_message()} (see '{where} --help')", BAD_INPUT)
        except click.ClickException as e:
            _fail(e.format_message(), e.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except EkonosError as e:
            _fail(str(e))
        except OSError as e:
            if was_interrupted():                          # what Ctrl-C broke on its way out
                interrupted()
            if e.errno == errno.EPIPE:                     # `ekonos show --json | head`
                sys.stdout = open(os.devnull, "w")
                sys.exit(1)
            _fail(_os_message(e))
        except Exception:
            if was_interrupted():          # e.g. a lock released twice by the interrupt: the
                interrupted()              # command was stopped, not broken
            raise
        finally:            # the command is over: a Ctrl-C on the way out (threads ending,
            ignore_second_interrupt()      # the interpreter's shutdown) is ignored, not a kill
            forget_caught_interrupts()     # and one caught is not taken for one unhandled
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context):
        # before click turns Ctrl-C into a blank line and "Aborted."
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()


# -- position files ---------------------------------------------------------------------------


def load_position(path: Path) -> State:
    """A position file, or InputError naming the file, the field and the reason."""
    try:
        return load_file(State, path)
    except PositionError as e:
        message = str(e)
        raise InputError(message if message.startswith(str(path)) else f"{path}: {message}") \
            from None


def save_position(st: State, out: Path) -> None:
    """Atomic save; a failure names OUTPUT (not the temporary file) and leaves it untouched."""
    try:
        save_file(st, out)
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e.strerror or e}") from None


def refuse_overwrite(out: Path, force: bool, unless_same_as: Path | None = None) -> None:
    """InputError when `out` exists, unless `force` or it is the file `unless_same_as`."""
    if force or not out.exists():
        return
    if unless_same_as is not None and same_file(out, unless_same_as):
        return
    raise InputError(f"{out} already exists; use --force to overwrite it")


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (by identity when both exist, else by resolved path)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def save_figure(fig, path: Path) -> None:
    """Write a matplotlib figure to `path` as PNG atomically: a temporary file beside it, then
    renamed over it, so a failed or interrupted save leaves the old file (or none), never half
    a picture."""
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent or ".")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
