"""`ekonos new`, `show` and `apply`: position files, created, shown and played on."""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from cli.errors import InputError, load_position, refuse_overwrite, save_position
from cli.options import example, json_option, players_option, seed_option, variant_option
from cli.render import render_state, summarize_moves, summary_dict
from ekonos import State
from ekonos.errors import EkonosError, InvalidMoveError, MoveError

_OUTPUT = click.Path(dir_okay=False, path_type=Path)


@click.command(epilog=example("ekonos new --players 3 --seed 42 --names Ann,Bo,Cy -o game.json"))
@players_option()
@seed_option(help="Seed of the game's random stream (default: drawn at random and saved).")
@click.option("--names", default=None, metavar="A,B,...",
              help="Comma-separated player names, one per player, in seat order.")
@variant_option()
@click.option("-o", "--output", "out", type=_OUTPUT, required=True, help="Position file to write.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def new(players: int, seed: int | None, names: str | None, variant: str, out: Path,
        force: bool) -> None:
    """Start a new game, deal the first round and save it as a position file."""
    name_list = [n.strip() for n in names.split(",")] if names is not None else None
    refuse_overwrite(out, force)
    try:
        st = State.new(players, seed=seed, names=name_list, variant=variant)
    except EkonosError:
        raise
    except ValueError as e:        # names that do not fit (State.new's own check)
        raise click.BadParameter(str(e), param_hint="'--names'") from None
    save_position(st, out)
    click.echo(f"{out}: new game of {players} ({', '.join(st.names)}), variant {variant}, "
               f"seed {st.seed}; {st.names[st.to_move]} plays first")


@click.command(epilog=example("ekonos show game.json", "ekonos show game.json --json"))
@click.argument("file", type=click.Path(path_type=Path))
@json_option("Print a JSON summary for programs: step, to_move, round, values, scores, "
             "winners, legal moves, ...")
def show(file: Path, as_json: bool) -> None:
    """Show the position in FILE: map, companies, market, players, the hand to play, scores.

    In a terminal the layout follows its width, as in `ekonos play` (side by side from 120
    columns); into a file or a pipe everything is printed stacked."""
    st = load_position(file)
    if as_json:
        click.echo(json.dumps(summary_dict(st), indent=2))
    else:                  # a terminal: the layout of its width (as `play`); else all stacked
        console = Console(highlight=False)
        console.print(render_state(st, console.width if console.is_terminal else None))


@click.command(epilog=example("ekonos apply game.json \"play 7 place 12\" \"sell Crown\" pass "
                              "-o game.json",
                              "ekonos apply game.json expand \"place 14\" stop > next.json"))
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("moves", nargs=-1, required=True, metavar="MOVE [MOVE]...")
@click.option("-o", "--output", "out", type=_OUTPUT, default=None,
              help="Write the result here (may be FILE itself) instead of printing it.")
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
        refuse_overwrite(out, force, unless_same_as=file)
    for i, text in enumerate(moves, 1):
        try:
            st.push_text(text)
        except MoveError as e:
            raise InputError(_move_message(st, i, len(moves), text, e)) from None
    if out is None:
        click.echo(st.to_json())
        return
    save_position(st, out)
    after = ("the game is over" if st.is_over() else
             f"{st.names[st.to_move]} to decide ({st.step} step)")
    click.echo(f"{out}: {len(moves)} move(s) applied; {after}")


def _move_message(st: State, index: int, count: int, text: str, e: MoveError) -> str:
    """One line: which move, why it was refused, and what is legal here."""
    where = f"move {index} of {count}" if count > 1 else "move"
    message = f"{where} {text!r}: {e.reason}"
    if isinstance(e, InvalidMoveError) and _one_word(text) and count > 1:
        message += " (quote each move of several words: \"play 7 place 12\")"
    legal = e.legal or st.legal_moves.texts()
    if legal:
        message += f"; legal here: {summarize_moves(legal)}"
    return message


def _one_word(text: str) -> bool:
    """Whether a command-line argument is a single word (a move of several words split by the
    shell arrives as several one-word arguments)."""
    word = text.strip()
    return bool(word) and not any(ch.isspace() for ch in word)
