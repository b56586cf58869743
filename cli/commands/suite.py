"""`ekonos suite build|run`: the position suite (search/lab/suite.py builds it,
search/lab/suite_score.py scores bots on it); this module only reads options and prints."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from cli.commands.progress import RunProgress
from cli.errors import InputError, refuse_overwrite
from cli.options import example, json_option, player_counts_option, seed_option
from search.bots import BASELINE, MAX_ITERATIONS
from search.lab.suite import (BuildParams, Suite, fill_references, load_suite, new_suite,
                              rejudged, resume_suite)
from search.lab.suite_score import SuiteScore, check_spec, score_suite

#: Width of the tables when the output is not a terminal.
WIDE = 140


def build_command(output: Path, p: BuildParams, source: Path | None = None) -> str:
    """The command that builds a suite with parameters `p` (recorded in the file); with
    `source`, one that judges that suite's positions again."""
    counts = "" if p.players == BuildParams().players else \
        "".join(f" -p {n}" for n in p.players)
    judge = "" if p.reference == BASELINE else f" --reference {shlex.quote(p.reference)}"
    drawn = f" --positions-from {shlex.quote(str(source))}" if source is not None else \
        f" --positions {p.positions}{counts} --seed {p.seed}"
    return (f"ekonos suite build -o {shlex.quote(str(output))} --iterations {p.iterations} "
            f"--seeds {p.seeds}{judge}{drawn}")


@contextlib.contextmanager
def _stopped(output: Path) -> Iterator[None]:
    """Ctrl-C during the searches: say how to continue (exit status 130)."""
    try:
        yield
    except KeyboardInterrupt:
        data = load_suite(output)
        click.echo(f"Stopped: {len(data.complete())} of {len(data.positions)} positions with "
                   f"references in {output}; continue with: ekonos suite build -o "
                   f"{shlex.quote(str(output))} --resume", err=True)
        raise click.exceptions.Exit(130) from None


def _need_folder(output: Path) -> None:
    if not output.parent.is_dir() and str(output.parent):
        raise InputError(f"{output}: no folder {output.parent}")


def save_suite(data: Suite, output: Path) -> None:
    """Write the suite; a failure names OUTPUT (not a temporary file)."""
    try:
        data.save(output)
    except OSError as e:
        raise InputError(f"{output}: cannot write: {e.strerror or e}") from None


def run_command(path: Path, bots: tuple[str, ...], seed: int) -> str:
    """The command that scores `bots` on the suite `path` (recorded in the JSON output)."""
    return (f"ekonos suite run -f {shlex.quote(str(path))} "
            + " ".join(f"--bot {shlex.quote(b)}" for b in bots) + f" --seed {seed} --json")


@click.group(epilog=example("ekonos suite build -o benchmarks/suites/suite.json --positions 200 "
                            "--iterations 500000 --seeds 2",
                            "ekonos suite run -f benchmarks/suites/suite.json --bot level3 "
                            "--bot baseline"))
def suite() -> None:
    """The position suite: positions from varied games, each with reference values of every
    move from a long search of the seat's view; a bot's score on it is its mean loss of win
    share against the best move and its rate of gifts (moves losing 10 points or more).

    `build` draws the positions and computes the references (hours: it can be stopped and
    resumed); `run` scores bots on a built suite (minutes)."""


@suite.command(epilog=example("ekonos suite build -o benchmarks/suites/suite.json --positions 200 "
                              "--iterations 500000 --seeds 2",
                              "ekonos suite build -o benchmarks/suites/suite.json --resume",
                              "ekonos suite build -o judged.json --positions-from "
                              "benchmarks/suites/suite.json --reference ismcts:horizon=1,plain=1,c=0.3"))
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              required=True, metavar="FILE", help="The suite file to write (JSON).")
@click.option("--positions", "-n", type=click.IntRange(1, 100_000), default=None,
              help="Positions in the suite, shared by the player counts.  [default: 200]")
@click.option("--iterations", "-i", type=click.IntRange(10, MAX_ITERATIONS), default=None,
              help="Reference search budget per seed and position.  [default: 500000]")
@click.option("--seeds", type=click.IntRange(1, 64), default=None,
              help="Reference searches pooled per position.  [default: 2]")
@click.option("--reference", "-r", default=None, metavar="SPEC",
              help="The judge: an ismcts spec (a level or a name too) whose iterations are "
                   "replaced by ITERATIONS.  [default: baseline]")
@player_counts_option("Player counts of the games (repeat; default: 2 to 6).")
@seed_option(help="Seed of the games, the draw of the positions and the searches.  "
                  "[default: 0]")
@click.option("--positions-from", "source", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="SUITE",
              help="Take the positions of the suite SUITE instead of drawing them: the same "
                   "positions judged again (with another --reference or budget).")
@click.option("--resume", is_flag=True,
              help="Continue the interrupted build of FILE (its own parameters).")
@click.option("--force", is_flag=True, help="Start FILE over if it exists.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def build(output: Path, positions: int | None, iterations: int | None, seeds: int | None,
          reference: str | None, players: tuple[int, ...], seed: int | None,
          source: Path | None, resume: bool, force: bool, quiet: bool) -> None:
    """Build a suite into FILE: self-play games at 2-6 players, positions drawn from every step
    and round (stored as the view of the seat to move), then each one searched SEEDS times with
    the judge's parameters (`baseline`'s unless --reference) and ITERATIONS iterations, pooled.
    With --positions-from, the positions of an existing suite are judged again instead.  The
    file is rewritten after every search: stop it at any time and continue with --resume."""
    given = {k: v for k, v in dict(positions=positions, iterations=iterations, seeds=seeds,
                                    seed=seed).items() if v is not None}
    if players:
        given["players"] = tuple(sorted(set(players)))
    if reference is not None:
        given["reference"] = reference
    if resume:
        if force or source:
            raise InputError("--resume continues FILE as it was begun: give neither --force "
                             "nor --positions-from with it")
        current = load_suite(output).params
        if reference is not None:           # written out as the file records it
            given["reference"] = dataclasses.replace(current, reference=reference).reference
        changed = [k for k, v in given.items() if getattr(current, k) != v]
        if changed:
            raise InputError(f"{output} was built with other parameters ("
                             + ", ".join(f"--{k} {getattr(current, k)}" for k in changed)
                             + "); --resume takes them from the file")
        with RunProgress(0, quiet, label="searches") as bar, _stopped(output):
            done = resume_suite(output, lambda d, t: bar.update(d, total=t))
    else:
        refuse_overwrite(output, force)
        if source is not None:
            if source.resolve() == output.resolve():
                raise InputError(f"{output}: --positions-from names the file being written")
            done = rejudged(load_suite(source), **given)
            done.command = build_command(output, done.params, source)
            _need_folder(output)
        else:
            params = BuildParams(**given)
            _need_folder(output)
            with RunProgress(0, quiet, label="games") as bar:
                done = new_suite(params, build_command(output, params),
                                 lambda d, t: bar.update(d, total=t))
        save_suite(done, output)
        with RunProgress(0, quiet, label="searches") as bar, _stopped(output):
            fill_references(done, output, lambda d, t: bar.update(d, total=t))
    click.echo(f"{output}: {len(done.complete())} of {len(done.positions)} positions with "
               f"references.", err=quiet)


@suite.command(epilog=example("ekonos suite run -f benchmarks/suites/suite.json --bot level3 "
                              "--bot baseline",
                              "ekonos suite run -f benchmarks/suites/suite.json --bot "
                              "ismcts:iterations=3000,root=uct --json > result.json"))
@click.option("--file", "-f", "path", type=click.Path(dir_okay=False, path_type=Path),
              required=True, metavar="SUITE",
              help="The suite file (`ekonos suite build` makes one; a checkout of the "
                   "repository has benchmarks/suites/suite.json).")
@click.option("--bot", "-b", "bots", multiple=True, required=True, metavar="SPEC",
              help="A bot to score (a spec as the arena takes it; repeat for several).")
@seed_option(default=0, help="Seed of the bots' decisions.")
@json_option("Print the scores as JSON (per bot: loss, gifts, think time, breakdowns).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def run(path: Path, bots: tuple[str, ...], seed: int, as_json: bool, quiet: bool) -> None:
    """Score bots on a suite: each decides every position from the seat's view at a fixed seed;
    its loss is the best move's reference value minus the chosen move's, in points of win
    share (0-100), a gift a loss of 10 or more.  Per bot: the mean loss with its 95% interval,
    the gift rate (Wilson interval), how often it chose the reference's best move, the median
    think time, and the same by player count and by step."""
    for spec in bots:
        check_spec(spec)
    data = load_suite(path)
    if not data.complete():
        raise InputError(f"{path}: no position has its reference yet (finish it with "
                         f"`ekonos suite build -o {path} --resume`)")
    console = Console(highlight=False, stderr=as_json)
    if not console.is_terminal:             # a file or a pipe: the tables at their width
        console = Console(highlight=False, stderr=as_json, width=WIDE)
    scores: list[SuiteScore] = []
    total = len(bots) * len(data.complete())
    with RunProgress(total, quiet, label="decisions") as bar:
        for i, spec in enumerate(bots):
            base = i * len(data.complete())
            scores.append(score_suite(data, spec, seed,
                                      lambda d, t, base=base: bar.update(base + d)))
    if as_json:
        click.echo(json.dumps({"suite": str(path), "command": run_command(path, bots, seed),
                               "reference": data.params.reference,
                               "iterations": data.params.iterations * data.params.seeds,
                               "positions": len(data.complete()),
                               "of": len(data.positions), "seed": seed,
                               "bots": [s.to_dict() for s in scores]}, indent=2))
        return
    console.print(score_table(scores, len(data.complete()), len(data.positions),
                              judge_name(data.params)))
    console.print(breakdown_table(scores, "players", "by player count"))
    console.print(breakdown_table(scores, "step", "by step"))


def judge_name(p: BuildParams) -> str:
    """Who judged a suite, in a few words: `baseline`, or the judge's spec."""
    return f"baseline x {p.iterations} x {p.seeds}" if p.reference == BASELINE else \
        f"{p.reference} x {p.seeds}"


def score_table(scores: list[SuiteScore], n: int, of: int, judge: str = "") -> Table:
    """The people's table: one row per bot."""
    t = Table(title=f"Position suite: {n} positions" + (f" (of {of})" if n != of else "")
              + (f", judged by {judge}" if judge else ""), title_justify="left")
    for col in ("bot", "mean loss [95%]", "gifts [95%]", "best move", "few-visit picks",
                "think (median)"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for s in scores:
        g = s.overall
        t.add_row(s.spec, f"{g.mean_loss:.2f} [{g.loss_low:.2f}, {g.loss_high:.2f}]",
                  f"{100 * g.gift_rate:.1f}% [{100 * g.gift_low:.1f}, {100 * g.gift_high:.1f}]",
                  f"{100 * g.best_rate:.0f}%", str(g.off_reference),
                  f"{s.think_median * 1000:.0f} ms")
    return t


def breakdown_table(scores: list[SuiteScore], by: str, title: str) -> Table:
    """Mean loss and gift rate of each bot per player count (`by="players"`) or per step."""
    groups = [s.by_players if by == "players" else s.by_step for s in scores]
    keys = list(dict.fromkeys(k for g in groups for k in g))
    t = Table(title=f"Mean loss (gifts) {title}", title_justify="left")
    t.add_column("bot", overflow="fold")
    for k in keys:
        n = max(g[k].positions for g in groups if k in g)
        t.add_column(f"{k}p\n({n})" if by == "players" else f"{k}\n({n})", justify="right",
                     no_wrap=True)
    for s, g in zip(scores, groups):
        t.add_row(s.spec, *(f"{g[k].mean_loss:.1f} ({100 * g[k].gift_rate:.0f}%)" if k in g
                            else "" for k in keys))
    return t
