"""`ekonos arena` and `ekonos hint`: the search, for a person or a program (--json)."""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn)
from rich.table import Table

from ekonos.rules import VARIANTS
from search.analysis import analyse
from search.arena import run_arena
from search.bots import LEVELS, parse_spec


def _example(*lines: str) -> str:
    """The --help epilog every ekonos command ends with (\\b keeps the lines as written)."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)


@click.command(epilog=_example(
    "ekonos arena --players 2 --bot level3 --bot greedy --games 200 --workers 2",
    "ekonos arena -p 4 --bot level3 --bot greedy --bot greedy --bot greedy -n 40 --json"))
@click.option("--players", "-p", type=click.IntRange(2, 6), required=True, help="Players per game.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="SPEC",
              help="A bot spec, once per seat (fewer: the list repeats).")
@click.option("--games", "-n", type=click.IntRange(1), required=True, help="Games to play.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of the deals and of the bots.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to spread the games over.")
@click.option("--variant", type=click.Choice(VARIANTS), default="rulebook", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def arena(players, bots, games, seed, workers, variant, as_json):
    """Play bots against each other with seats rotated and fixed seeds.

    Games come in blocks of PLAYERS sharing one deal, every bot in every seat, so use a
    multiple of PLAYERS games.  For each bot: games, win share (ties split), its 95% Wilson
    interval, mean score and mean rank.  The same command prints the same result.

    Bot specs: random, greedy, flat:iterations=N, ismcts:iterations=N[,c=0.7][,workers=W],
    level1-level5.
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
    table = Table(title=f"{games} games, {players} players, seed {seed}, {variant}")
    for col in ("bot", "games", "win share", "95% interval", "mean score", "mean rank"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in result["bots"]:
        low, high = b["ci95"]
        table.add_row(b["bot"], str(b["games"]), f"{b['win_share']:.1%}",
                      f"{low:.1%} – {high:.1%}", f"{b['mean_score']:.1f}", f"{b['mean_rank']:.2f}")
    Console().print(table)


@click.command(epilog=_example("ekonos hint game.json",
                              "ekonos hint game.json --iterations 50000 --top 5 --json"))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--iterations", "-i", type=click.IntRange(1), default=None,
              help=f"Iteration budget (default {parse_spec(LEVELS[4])[1]['iterations']}, level 4).")
@click.option("--time", "-t", "seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="Think for this many seconds instead (not reproducible).")
@click.option("--top", "-k", type=click.IntRange(1), default=3, show_default=True,
              help="How many decisions to show.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Threads (one search tree each, merged).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the advice as JSON.")
def hint(file, iterations, seconds, top, workers, seed, as_json):
    """Advise the seat to move in the position FILE.

    Searches with information-set MCTS from what that seat can see only: the other hands in
    the file are never read.  Shows the best decisions with their visits, expected win share,
    expected final score and the expected continuation.
    """
    if iterations is not None and seconds is not None:
        raise click.UsageError("--iterations and --time cannot be used together: choose one budget")
    from cli.main import load_position  # the group's loader: errors name the file
    state = load_position(Path(file))
    result = analyse(state, iterations=iterations, seconds=seconds, top=top, workers=workers,
                     seed=seed)
    if as_json:
        click.echo(json.dumps({k: result[k] for k in ("to_move", "step", "moves")}, indent=2))
        return
    out = Console()
    out.print(f"[bold]{result['player']}[/] (seat {result['to_move']}) to decide, "
              f"step [bold]{result['step']}[/], {result['iterations']} iterations")
    table = Table(show_edge=False)
    for col in ("#", "move", "visits", "win", "score", "expected continuation"):
        table.add_column(col, justify="left" if col in ("move", "expected continuation") else "right")
    for i, m in enumerate(result["moves"], 1):
        win = "—" if m["win"] is None else f"{m['win']:.1%}"
        score = "—" if m["score"] is None else f"{m['score']:.1f}"
        table.add_row(str(i), m["move"], str(m["visits"]), win, score, ", ".join(m["line"]))
    out.print(table)



