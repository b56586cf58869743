"""`ekonos review GAME.json`: where a recorded game was won and lost (search/review.py does the
searching), and the review offered at the end of `ekonos play`."""
from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cli import storage
from cli.errors import InputError, refuse_overwrite, save_figure
from cli.options import example, json_option, level_option, seed_option
from cli.output import print_report
from cli.render.review import review_report
from cli.review_board import ReviewBoard
from search.bots import MAX_ITERATIONS
from search.review import (DEFAULT_ITERATIONS, DEFAULT_LEVEL, LOOK_TIMES, GameReview,
                           replay_record, review_game)

PLOT_MISSING = ("--png needs matplotlib, which is not installed: pip install 'ekonos[plot]' "
                "(or pip install matplotlib)")


def progress_bar(console: Console) -> Progress:
    """The bar shown while decisions are reviewed (nothing when the output is no terminal)."""
    return Progress(TextColumn("Reviewing"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("decisions"), TimeRemainingColumn(), console=console,
                    transient=True)


def run_with_bar(console: Console, work: Callable[[Callable[[int, int], None]], GameReview]) \
        -> GameReview:
    """`work(progress)` with a progress bar fed by its progress(done, total) calls."""
    with progress_bar(console) as bar:
        task = bar.add_task("review", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        return work(progress)


@click.command(epilog=example("ekonos review ~/.local/share/ekonos/games/game-1.json",
                              "ekonos review game.json --seat 0 --iterations 8000 --seed 3",
                              "ekonos review game.json --json > review.json",
                              "ekonos review game.json --png chart.png"))
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seat", type=click.IntRange(0, 5), default=None, metavar="K",
              help="Review only the decisions of seat K (default: every seat).")
@json_option("Print the review as JSON (every decision, the summary, the costliest).")
@click.option("--png", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Also draw the win-share chart into FILE (needs matplotlib: "
                                   "pip install 'ekonos[plot]').")
@click.option("--force", is_flag=True, help="Replace the --png FILE if it exists.")
@click.option("--board", is_flag=True,
              help="Then step through the reviewed decisions on the board (in a terminal): "
                   "the move played and the better one on the map, the better move's line.")
@level_option(default=DEFAULT_LEVEL,
              help=f"Judge with the search of this level of `ekonos play` (default "
                   f"{DEFAULT_LEVEL}, the hint's): its parameters and budget.")
@click.option("--iterations", "-i", type=click.IntRange(10, MAX_ITERATIONS), default=None,
              help=f"Budget of each decision's first look (default: the level's, as the hint "
                   f"searches; {DEFAULT_ITERATIONS} at level {DEFAULT_LEVEL}).  A second look "
                   f"spends {LOOK_TIMES[0]:g} times that on a decision that seems to lose 5 "
                   f"points or more, a deep look {LOOK_TIMES[1]:g} times that on one it would "
                   "mark.")
@seed_option(default=0, help="Seed of the searches: the same seed gives the same review.")
@click.option("--workers", "-w", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Decisions searched at once (one thread each).")
def review(game: Path, seat: int | None, as_json: bool, png: Path | None, force: bool,
           board: bool, level: int, iterations: int | None, seed: int, workers: int) -> None:
    """Review a game recorded by `ekonos play`: for each decision, the move played and the
    best move with their expected win shares, the loss and a mark (inaccuracy from 5 points of
    win share lost, mistake from 10, blunder from 15); each player's accuracy, the three
    costliest decisions and a chart of the win shares over the game.

    Each decision is searched from its player's view only: the other hands are never read, by
    the search the hint uses (`ekonos hint` with the decision's seed, in --json, gives the same
    figures).  A decision the first look finds costly is searched again, the played and the
    better move side by side in several independent searches, and marked only by the lower end
    of the loss's 90% interval: a mark is a loss that holds with 95% confidence.
    Finished games are kept in the games/ folder of the data folder (see `ekonos play --help`).
    """
    if board and (as_json or not (sys.stdin.isatty() and sys.stdout.isatty())):
        raise click.UsageError("--board steps through the review in a terminal: it needs one "
                               "for input and output, and cannot go with --json")
    if png is not None:
        _check_plot()
        refuse_overwrite(png, force)
        storage.check_target(png, overwrite=True)        # its folder exists: fail now, not later
    start, moves, ply0 = replay_record(storage.read_json(game))
    if seat is not None and seat >= start.nplayers:
        raise click.BadParameter(f"seat must be 0-{start.nplayers - 1} for this game, got "
                                 f"{seat}", param_hint="'--seat'")
    console = Console(highlight=False, stderr=as_json)
    result = run_with_bar(console, lambda progress: review_game(
        start, moves, seats=None if seat is None else [seat], iterations=iterations, seed=seed,
        ply0=ply0, workers=workers, progress=progress, level=level))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        print_report(console, review_report(result, console.width))
    if png is not None:
        draw_png(result, png)
        if not as_json:
            console.print(f"Chart drawn in {png}.", markup=False)
    if board:
        ReviewBoard(result, start, moves, ply0, console).run()


def _check_plot() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(PLOT_MISSING) from None


def draw_png(result: GameReview, path: Path) -> None:
    """The win-share chart as a PNG (matplotlib), written atomically."""
    _check_plot()
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    for q in result.seats:
        mine = result.of(q)
        xs = [d.ply for d in mine]
        ys = [d.win_best * 100 for d in mine]
        if result.result is not None and xs:
            xs.append(max(d.ply for d in result.decisions) + 1)
            ys.append(result.result[q] * 100)
        ax.plot(xs, ys, marker=".", label=result.names[q])
        bad = [d for d in mine if d.mark in ("mistake", "blunder")]
        ax.scatter([d.ply for d in bad], [d.win_played * 100 for d in bad], marker="x")
    ax.set_ylim(0, 100)
    ax.set_xlabel("decision")
    ax.set_ylabel("expected win share (%)")
    ax.set_title("Win share over the game (x: a mistake or blunder, at the played move)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)


def offer_review(console: Console, session, input_fn, record: Path | None,
                 command: str = "ekonos") -> None:
    """At the end of `ekonos play`: offer the review of the person's decisions (`command`:
    how to run ekonos from a shell, for the line that reviews the record later)."""
    mine = sum(1 for d in session.decisions if d.seat == session.human)
    if not mine:
        return
    console.print(f"Type [bold]review[/] to see where this game was won and lost ({mine} "
                  f"decisions of yours, about {mine // 5 + 1} s), or press Enter to leave.")
    if record is not None:
        console.print(f"Later, or every player's: {command} review "
                      f"{shlex.quote(str(record))}", markup=False, style="dim", soft_wrap=True)
    try:
        answer = input_fn("review? › ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return
    if answer not in ("review", "r", "y", "yes"):
        return
    result = run_with_bar(console, lambda progress: session.review(progress=progress))
    console.print(review_report(result, console.width))
    console.print("Type [bold]board[/] to step through your decisions on the board (the move "
                  "played and the better one on the map), or press Enter to leave.")
    try:
        answer = input_fn("board? › ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return
    if answer in ("board", "b", "y", "yes"):
        ReviewBoard(result, session.start, [d.move for d in session.decisions],
                    session.ply0, console, input_fn).run()
