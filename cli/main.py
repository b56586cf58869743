"""The `ekonos` command line: new, show, apply, play.

Bad input of any kind (a missing or unreadable file, a file that is not a possible position, a
move that is not notation or not legal, a wrong option) is reported in ONE place, `EkonosGroup`:
one line on stderr, exit status 2, no traceback, and nothing written.  Commands just raise
`EkonosError`, `OSError` or a click exception.
"""
from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import click
from rich.console import Console

from cli.render import render_state, summarize_moves, summary_dict
from ekonos import State, load_file, save_file
from ekonos.errors import EkonosError, InvalidMoveError, MoveError, PositionError
from ekonos.rules import VARIANTS

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
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
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
            if e.errno == errno.EPIPE:                     # `ekonos show --json | head`
                sys.stdout = open(os.devnull, "w")
                sys.exit(1)
            _fail(_os_message(e))
        sys.exit(rv if isinstance(rv, int) else 0)


def load_position(path: Path) -> State:
    """A position file, or InputError naming the file, the field and the reason."""
    try:
        return load_file(State, path)
    except PositionError as e:
        message = str(e)
        raise InputError(message if message.startswith(str(path)) else f"{path}: {message}") \
            from None


def _save(st: State, out: Path) -> None:
    """Atomic save; a failure names OUTPUT (not the temporary file) and leaves it untouched."""
    try:
        save_file(st, out)
    except OSError as e:
        raise InputError(f"{out}: cannot write: {e.strerror or e}") from None


def _refuse_overwrite(out: Path, force: bool, unless_same_as: Path | None = None) -> None:
    if force or not out.exists():
        return
    if unless_same_as is not None and _same_file(out, unless_same_as):
        return
    raise InputError(f"{out} already exists; use --force to overwrite it")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _epilog(*lines: str) -> str:
    """An --help epilog: click keeps a paragraph that starts with \\b as written."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)


# ---------------------------------------------------------------------------------------------


@click.group(cls=EkonosGroup, epilog=_epilog("ekonos play --ai 3 --level 3",
                                             "ekonos new --players 4 --seed 7 -o game.json",
                                             "ekonos show game.json",
                                             "ekonos apply game.json \"play 5 grow Crown\" "
                                             "pass \"buy Crown\" -o game.json"))
@click.version_option(package_name="ekonos", prog_name="ekonos")
def main() -> None:
    """Ekonos: play against an information-set MCTS opponent, ask it for advice, run bots.

    `ekonos play` starts a game against three AI players; `ekonos hint FILE` advises the
    player to move in a saved position; `ekonos arena` measures bots against each other.

    Bad input gives one line on stderr and exit status 2; nothing is written then.
    """


@main.command(epilog=_epilog("ekonos new --players 3 --seed 42 --names Ann,Bo,Cy -o game.json"))
@click.option("--players", "-p", type=click.IntRange(2, 6), required=True,
              help="Number of players, 2-6.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Seed of the game's random stream (default: drawn at random and saved).")
@click.option("--names", default=None, metavar="A,B,...",
              help="Comma-separated player names, one per player, in seat order.")
@click.option("--variant", type=click.Choice(VARIANTS), default="rulebook", show_default=True,
              help="Start player of later rounds (rules R6).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="Position file to write.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def new(players: int, seed: int | None, names: str | None, variant: str, out: Path,
        force: bool) -> None:
    """Start a new game, deal the first round and save it as a position file."""
    name_list = [n.strip() for n in names.split(",")] if names is not None else None
    _refuse_overwrite(out, force)
    try:
        st = State.new(players, seed=seed, names=name_list, variant=variant)
    except EkonosError:
        raise
    except ValueError as e:        # names that do not fit (State.new's own check)
        raise click.BadParameter(str(e), param_hint="'--names'") from None
    _save(st, out)
    click.echo(f"{out}: new game of {players} ({', '.join(st.names)}), variant {variant}, "
               f"seed {st.seed}; {st.names[st.to_move]} plays first")


@main.command(epilog=_epilog("ekonos show game.json", "ekonos show game.json --json"))
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON summary for programs: step, to_move, round, values, scores, "
                   "winners, legal moves, ...")
def show(file: Path, as_json: bool) -> None:
    """Show the position in FILE: map, companies, market, players, the hand to play, scores."""
    st = load_position(file)
    if as_json:
        click.echo(json.dumps(summary_dict(st), indent=2))
    else:
        Console(highlight=False).print(render_state(st))


@main.command(epilog=_epilog("ekonos apply game.json \"play 7 place 12\" \"sell Crown\" pass "
                             "-o game.json",
                             "ekonos apply game.json expand \"place 14\" stop > next.json"))
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("moves", nargs=-1, required=True, metavar="MOVE [MOVE]...")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the result here (may be FILE itself) instead of "
                                 "printing it.")
@click.option("--force", is_flag=True,
              help="Overwrite OUTPUT when it exists and is not FILE.")
def apply(file: Path, moves: tuple[str, ...], out: Path | None, force: bool) -> None:
    """Apply decisions to the position in FILE, in order.

    Each MOVE is one decision in the notation of docs/position-format.md; quote a move of
    several words ("play 7 place 12").  Steps with a single legal decision are taken
    automatically.  Without -o the resulting position is printed as JSON on stdout.  With -o
    it is written atomically to OUTPUT; -o FILE updates the game in place, and another
    existing file is overwritten only with --force.  If any move is refused, nothing is written.
    """
    st = load_position(file)
    if out is not None:
        _refuse_overwrite(out, force, unless_same_as=file)
    for i, text in enumerate(moves, 1):
        try:
            st.push_text(text)
        except MoveError as e:
            raise InputError(_move_message(st, i, len(moves), text, e)) from None
    if out is None:
        click.echo(st.to_json())
        return
    _save(st, out)
    after = ("the game is over" if st.is_over() else
             f"{st.names[st.to_move]} to decide ({st.step_name} step)")
    click.echo(f"{out}: {len(moves)} move(s) applied; {after}")


def _move_message(st: State, index: int, count: int, text: str, e: MoveError) -> str:
    where = f"move {index} of {count}" if count > 1 else "move"
    message = f"{where} {text!r}: {e.reason}"
    if isinstance(e, InvalidMoveError) and len(text.split()) == 1 and count > 1:
        message += " (quote each move of several words: \"play 7 place 12\")"
    legal = e.legal or st.legal_moves.texts()
    if legal:
        message += f"; legal here: {summarize_moves(legal)}"
    return message


# -- play: the terminal game (cli/play.py) ---------------------------------------------------
from cli.commands.play import play  # noqa: E402  (after the group, which it joins)

main.add_command(play)

# -- arena and hint: the search (cli/search_commands.py) --------------------------------------
from cli.search_commands import arena, hint  # noqa: E402

main.add_command(arena)
main.add_command(hint)

if __name__ == "__main__":
    main()
