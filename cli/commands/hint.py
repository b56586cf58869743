"""`ekonos hint`: the search's advice on a position, for a person or a program (--json)."""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cli.errors import load_position
from cli.narration import EVEN_NOTE, read_line
from cli.output import print_report
from cli.panels import continuation_text
from cli.options import FiniteFloatRange, example, json_option, level_option, seed_option
from cli.record import DEFAULT_LEVEL
from search.analysis import (JUDGE_FLOOR, MIN_ITERATIONS, analyse, judge_iterations,
                             level_params)

#: Below NARROW columns the table leaves out the expected continuation, below NARROWER the
#: visits and the score too, so the moves and their win shares stay whole.
NARROW, NARROWER = 72, 52
#: Said when the search tree reached its memory bound (search.memory.node_limit; the setting
#: EKONOS_SEARCH_MB) before the budget was spent.
FULL_NOTE = ("The search tree filled the memory it may use ({nodes} nodes) and the search "
             "stopped there: this advice is from {done} iterations.")


@click.command(epilog=example("ekonos hint game.json",
                              "ekonos hint game.json --iterations 50000 --top 5 --json",
                              "ekonos hint game.json --level 4"))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--iterations", "-i", type=click.IntRange(MIN_ITERATIONS), default=None,
              help=f"Iteration budget (default: the level's, at least {JUDGE_FLOOR}: the "
                   "budget of the in-game hint and of the review's first look).")
@click.option("--time", "-t", "seconds", type=FiniteFloatRange(0, min_open=True), default=None,
              help="Think for this many seconds instead (not reproducible).")
@click.option("--top", "-k", type=click.IntRange(1), default=3, show_default=True,
              help="How many decisions to show.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Threads (one search tree each, merged).")
@level_option(default=DEFAULT_LEVEL,
              help=f"Search as this level of `ekonos play` does (default {DEFAULT_LEVEL}): its "
                   "parameters, and its budget when --iterations and --time are not given.")
@seed_option(default=0, help="Seed of the search.")
@json_option("Print the advice as JSON.")
def hint(file: str, iterations: int | None, seconds: float | None, top: int, workers: int,
         level: int, seed: int, as_json: bool) -> None:
    """Advise the seat to move in the position FILE.

    Searches with information-set MCTS from what that seat can see only: the other hands in
    the file are never read, with the search of a level of `ekonos play` (--level; level 3's
    by default).  Shows the best decisions with their visits, expected win share,
    expected final score and the expected continuation, and says so when their win shares
    are too close to tell apart (`even` in --json).  The win share is calibrated: how often
    positions the search rated so were won in self-play (docs/strength.md); --json gives the
    search's own figure beside it as win_raw, and the map's name as calibration.
    """
    if iterations is not None and seconds is not None:
        raise click.UsageError("--iterations and --time cannot be used together: choose one budget")
    state = load_position(Path(file))
    params = level_params(level)
    if iterations is None and seconds is None:
        iterations = judge_iterations(level)
    result = analyse(state, iterations=iterations, seconds=seconds, top=top, workers=workers,
                     seed=seed, params=params)
    if as_json:
        keys = ("to_move", "step", "moves", "even", "calibration", "exact") + (
            ("full", "nodes", "iterations") if result["full"] else ())
        click.echo(json.dumps({k: result[k] for k in keys}, indent=2))
        return
    out = Console()
    state_names = state.names
    how = (f"exact: every line searched to the end ({result['nodes']} positions)"
           if result["exact"] else f"level {level}'s search, {result['iterations']} iterations")
    parts = [Text.assemble((result["player"], "bold"), f" (seat {result['to_move']}) to decide, "
                           f"step ", (str(result["step"]), "bold"), f", {how}")]
    # the move and its figures never fold; a narrow screen leaves out the continuation, then
    # the visits and the score
    cols = ["#", "move", "visits", "win", "score", "expected continuation"]
    if out.width < NARROW:
        cols = cols[:5] if out.width >= NARROWER else ["#", "move", "win"]
    table = Table(show_edge=False)
    for col in cols:
        left = col in ("move", "expected continuation")
        table.add_column(col, justify="left" if left else "right",
                         no_wrap=col != "expected continuation")
    for i, m in enumerate(result["moves"], 1):
        # who makes each decision of the continuation, and each pass's step, from the file's
        # public facts (cli.narration.read_line)
        seats, labels = read_line(state, [m["move"]] + m["line"])
        cells = {"#": str(i), "move": Text(labels[0]), "visits": "exact" if m.get("exact") else str(m["visits"]),
                 "win": "—" if m["win"] is None else f"{m['win']:.1%}",
                 "score": "—" if m["score"] is None else f"{m['score']:.1f}",
                 "expected continuation": continuation_text(labels[1:], seats[1:], state_names)}
        table.add_row(*(cells[c] for c in cols))
    parts.append(table)
    if result["even"]:
        parts.append(Text(EVEN_NOTE, style="dim"))
    if result["full"]:
        done = result["iterations"]
        parts.append(Text(FULL_NOTE.format(nodes=result["nodes"],
                                           done=f"{done} of {iterations}" if iterations else done),
                          style="yellow"))
    print_report(out, *parts)
