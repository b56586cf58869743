"""`ekonos arena`: bots against each other, for a person or a program (--json)."""
from __future__ import annotations

import json

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn)
from rich.table import Table
from rich.text import Text

from cli.options import example, json_option, players_option, seed_option, variant_option
from search.arena import run_arena
from search.bots import parse_spec, spec_help


@click.command(epilog="\b\n" + spec_help() + "\n\n" + example(
    "ekonos arena --players 2 --bot level3 --bot greedy --games 200 --workers 2",
    "ekonos arena -p 4 --bot level3 --bot greedy --bot greedy --bot greedy -n 40 --json"))
@players_option("Players per game.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="SPEC",
              help="A bot spec, once per seat (fewer: the list repeats).")
@click.option("--games", "-n", type=click.IntRange(1), required=True, help="Games to play.")
@seed_option(default=0, help="Seed of the deals and of the bots.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to spread the games over.")
@variant_option()
@json_option("Print the result as JSON.")
def arena(players: int, bots: tuple[str, ...], games: int, seed: int, workers: int,
          variant: str, as_json: bool) -> None:
    """Play bots against each other with seats rotated and fixed seeds.

    Games come in blocks of PLAYERS sharing one deal, every bot in every seat, so use a
    multiple of PLAYERS games.  For each bot: games, win share (ties split), its 95% Wilson
    interval, mean score and mean rank.  The same command prints the same result.  The bots
    and their parameters are listed below (from the bots' own registration).
    """
    for spec in bots:
        parse_spec(spec)
    if len(bots) > players:
        raise click.UsageError(f"{len(bots)} --bot options for {players} players")
    err = Console(stderr=True)
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("arena", total=games)
        result = run_arena(list(bots), players, games, seed=seed, workers=workers,
                           variant=variant, progress=lambda done: bar.update(task, completed=done))
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    table = Table(title=Text(f"{games} games, {players} players, seed {seed}, {variant}"))
    for col in ("bot", "games", "win share", "95% interval", "mean score", "mean rank"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in result["bots"]:
        low, high = b["ci95"]
        table.add_row(Text(b["bot"]), str(b["games"]), f"{b['win_share']:.1%}",      # spec text
                      f"{low:.1%} – {high:.1%}", f"{b['mean_score']:.1f}", f"{b['mean_rank']:.2f}")
    Console().print(table)
