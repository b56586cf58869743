"""`ekonos ladder`: many specs on one Elo scale, appended to a ladder file, with a picture.

A run plays a schedule of 2- and/or multi-player games (search.lab.ladder), appends every game to
the ladder file (saved every few seconds and at the end, Ctrl-C included), then fits all the
games of the file and prints each spec's Elo with its interval, games and think time.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from cli.commands.progress import RunProgress, backend_options
from cli.errors import InputError
from cli.options import example, json_option, seed_option, variant_option
from search.lab.backends import make_backend
from search.lab.ladder import (DEFAULT_SPECS, give_back_run, merge_save, report,
                               reserve_run, run_ladder, schedule, task_threads)
from search.lab.ladder_fit import WAS, Ladder, seat_label

INTERRUPTED = 130


def player_counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a list of player counts like 2,4") from None
    if not counts or any(not 2 <= p <= 6 for p in counts):
        raise click.BadParameter(f"{text!r}: player counts are 2 to 6")
    return list(dict.fromkeys(counts))


def _plot_module():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--png needs the optional extra 'plot' (matplotlib): "
                         "pip install 'ekonos[plot]'") from None
    return plt


def seconds_text(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


def estimate_text(ladder: Ladder, anchor: str) -> str:
    """Progress line: the strongest spec so far with its interval."""
    try:
        rated = ladder.fit(anchor=anchor)
    except ValueError:
        return ""
    top, r = next(iter(rated.items()))
    return f"top {top} {r.elo:+.0f} [{r.low:+.0f}, {r.high:+.0f}]"


def print_report(rep: dict, out: Console, path: Path) -> None:
    fits = {k: v for k, v in rep["fits"].items() if k != "all" or len(rep["fits"]) == 1}
    think = rep["think"]
    specs = list(dict.fromkeys(s for f in fits.values() for s in f.get("ratings", {})))
    table = RichTable(title=Text(f"{path}: {rep['games']} games, Elo relative to "
                                 f"{rep['anchor']} = 0 (± the 95% interval)"))
    table.add_column("spec", no_wrap=True)
    for name in fits:
        what = "all" if name == "all" else f"{name}p"
        table.add_column(f"Elo {what}", justify="right", no_wrap=True)
        table.add_column("games", justify="right", no_wrap=True)
    table.add_column("think/decision", justify="right", no_wrap=True)
    labels = plot_labels(specs)         # a level under its old meaning: short, meaning below
    for s in specs:
        row = [Text(labels[s])]
        for f in fits.values():
            r = f.get("ratings", {}).get(s)
            half = (r["ci95"][1] - r["ci95"][0]) / 2 if r else 0.0
            row += [f"{round(r['elo']):+d} ± {half:.0f}", str(r["games"])] if r else ["", ""]
        row.append(seconds_text(think[s]["median"]) if s in think else "")
        table.add_row(*row)
    out.print(table)
    for s in specs:
        if labels[s] != s:
            out.print(Text(f"{labels[s]}: {s.partition(WAS)[2]}"), soft_wrap=True)
    for name, f in fits.items():
        if "error" in f:
            out.print(Text(f"{name}-player fit: {f['error']}"), soft_wrap=True)


def plot_labels(specs: list[str]) -> dict[str, str]:
    """Short labels for the picture: a spec as it is, and a level rated apart under its old
    meaning (``level4 = ismcts:...``, search.lab.ladder_fit.seat_label) as ``level4 (old)``,
    numbered when a level was redefined more than once (the table gives the full specs)."""
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for s in specs:
        name, sep, _ = s.partition(WAS)
        if not sep:
            out[s] = s
            continue
        seen[name] = seen.get(name, 0) + 1
        out[s] = f"{name} (old)" if seen[name] == 1 else f"{name} (old {seen[name]})"
    return out


def draw(rep: dict, path: Path) -> None:
    """Elo against think time per decision (log scale), one series per player count: today's
    specs joined by a line (the strength-per-second curve), specs rated under an old meaning
    as hollow points beside it."""
    plt = _plot_module()
    fig, ax = plt.subplots(figsize=(8, 6.5), dpi=120)
    markers = iter("osD^v<>")
    named: set[str] = set()
    for name, f in rep["fits"].items():
        if "ratings" not in f or (name == "all" and len(rep["fits"]) > 1):
            continue
        think = f["think"]
        pts = [(think[s]["median"], r["elo"], r["ci95"], s) for s, r in f["ratings"].items()
               if s in think and think[s]["median"] > 0]
        pts.sort()
        if not pts:
            continue
        labels = plot_labels([p[3] for p in pts])
        now = [p for p in pts if WAS not in p[3]]
        old = [p for p in pts if WAS in p[3]]
        marker, color = next(markers), None
        for group, hollow in ((now, False), (old, True)):
            if not group:
                continue
            err = [[p[1] - p[2][0] for p in group], [p[2][1] - p[1] for p in group]]
            bars = ax.errorbar([p[0] for p in group], [p[1] for p in group], yerr=err,
                               marker=marker, capsize=3, color=color,
                               linestyle="none" if hollow else "-",
                               mfc="none" if hollow else None, alpha=0.5 if hollow else 0.8,
                               label=f"{name} players ({f['games']} games)" if not hollow
                               else f"{name} players, levels as defined before")
            color = bars[0].get_color()
        for x, y, _, s in pts:
            if s not in named:          # one label per spec, beside its first point
                named.add(s)
                ax.annotate(labels[s], (x, y), textcoords="offset points", xytext=(6, -12),
                            fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("think time per decision (median, seconds, log scale)")
    ax.set_ylabel(f"Elo ({rep['anchor']} = 0)")
    ax.set_title("Ekonos ladder: strength against think time")
    ax.grid(True, which="both", alpha=0.3)
    # the legend below the axes (inside, it hid points): today's series in the first column,
    # the levels as defined before in the second
    entries = sorted(zip(*ax.get_legend_handles_labels()), key=lambda e: "before" in e[1])
    if entries:
        fig.legend(*zip(*entries), loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.02 + 0.026 * ((len(entries) + 1) // 2), 1, 1))
    fig.savefig(path)
    plt.close(fig)


@click.command(epilog="\b\nDefault specs: " + " ".join(DEFAULT_SPECS) + "\n\n" + example(
    "ekonos ladder --games 20 --workers 2",
    "ekonos ladder -p 2 --spec random --spec greedy --spec level1 -n 40 -f small.json",
    "ekonos ladder --games 8 --limit level4=2 --limit 4p:level4=0 --png ladder.png",
    "ekonos ladder -f ladder.json --games 0 --json      # refit and print, play nothing"))
@click.option("--file", "-f", "path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("ladder.json"), show_default=True,
              help="The ladder file, in the working directory unless a path says otherwise: "
                   "created, or appended to (the repository's is benchmarks/results/ladder.json).")
@click.option("--spec", "specs", multiple=True, metavar="SPEC",
              help="A spec of the ladder, weakest first (repeat; default: the list below).")
@click.option("--player-counts", "-p", "players_text", default="2,4", show_default=True,
              help="Player counts to schedule, e.g. 2 or 2,4.")
@click.option("--games", "-n", type=click.IntRange(0), default=20, show_default=True,
              help="Games per pairing (2 players) or table (more); 0: only fit the file.")
@click.option("--reach", type=click.IntRange(1), default=2, show_default=True,
              help="2 players: each spec meets the next REACH specs of the list.")
@click.option("--limit", "limits", multiple=True, metavar="[Pp:]SPEC=N",
              help="At most N games in any table with SPEC (4p:SPEC=N: only in 4-player "
                   "tables; N=0 leaves them out).")
@click.option("--anchor", default="random", show_default=True, help="The spec rated 0.")
@seed_option(help="Seed of this run's deals (default: the run's number in the file, so a "
                  "second run plays new deals).")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to spread the games over (Ray: CPUs of a local Ray).")
@variant_option()
@backend_options
@click.option("--png", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Draw Elo against think time per decision (optional extra 'plot').")
@json_option("Print the ratings as JSON.")
def ladder(path: Path, specs: tuple[str, ...], players_text: str, games: int, reach: int,
           limits: tuple[str, ...], anchor: str, seed: int | None, workers: int, variant: str,
           backend: str, address: str | None, ship: bool, quiet: bool, png: Path | None,
           as_json: bool) -> None:
    """Put many bots on one Elo scale: play a schedule of games, append them to a ladder file,
    and fit every game of the file (maximum likelihood, ANCHOR = 0).

    2 players: each spec meets the next REACH specs of the list; more players: every window of
    that many consecutive specs is one table.  Games come in blocks sharing a deal, seats
    rotated.  Each spec gets its Elo per player count with a 95% interval, its games, and its
    median think time per decision.  A second run adds games to the same file; Ctrl-C stops
    the run and keeps every finished game in the file.
    """
    counts = player_counts(players_text)
    if png is not None:
        _plot_module()                       # refuse before playing, not after
    lad = Ladder.load(path, missing_ok=True)
    tables = schedule(specs or DEFAULT_SPECS, counts, games, reach, limits) if games else []
    if anchor not in {s for t in tables for s in t.specs} | \
            {seat_label(seat) for g in lad.games for seat in g["seats"]}:
        raise InputError(f"the anchor {anchor!r} is not in the ladder; add it with --spec or "
                         "name another with --anchor")
    result = {"played": 0, "stopped": None}
    failed: list[OSError] = []
    if tables:
        existed = path.exists()
        try:                                 # the run's number, and a check the file is writable
            lad, run = reserve_run(path)
        except OSError as e:
            raise InputError(f"cannot write {path}: {e.strerror or e}") from None
        seed = run if seed is None else seed
        planned = sum(t.games for t in tables)

        def save() -> None:                  # merged with the file as it is now (other runs)
            mine = [g for g in lad.games if g.get("run") == run]
            try:
                lad.games[:] = merge_save(path, run, mine).games
                failed.clear()
            except OSError as e:             # a full disk: the games stay in memory, retried
                if not failed and not quiet:
                    click.echo(f"Warning: cannot write {path}: {e.strerror or e}; the games "
                               "stay in memory and saving is tried again", err=True)
                failed[:] = [e]

        if not quiet:
            click.echo(f"{path}: {len(lad.games)} games; run {run} plays {planned} more in "
                       f"{len(tables)} tables (Ctrl-C stops and keeps the games played)",
                       err=True)
        try:
            with make_backend(backend, workers, address, task_cpus=task_threads(tables),
                              ship=ship) as runner, RunProgress(planned, quiet) as bar:
                result = run_ladder(lad, tables, seed, run, runner, variant, save=save,
                                    progress=lambda done: bar.update(
                                        done, lambda: estimate_text(lad, anchor)))
        finally:
            if result["played"] == 0:
                give_back_run(path, run, existed)
        if result["played"] == 0 and result["stopped"] == "interrupted":
            click.echo("Interrupted: stopped before the first game; nothing written.",
                       err=True)
            sys.exit(INTERRUPTED)
    if not lad.games:
        raise InputError(f"{path}: no games to fit (give --games)")
    rep = {"file": str(path), **report(lad, anchor), "played": result["played"],
           "stopped": result["stopped"]}
    if as_json:
        click.echo(json.dumps(rep, indent=2))
    else:
        print_report(rep, Console(), path)
    if png is not None:
        draw(rep, png)
        if not quiet:
            click.echo(f"{png}: Elo against think time per decision", err=True)
    if failed:
        unsaved = sum(1 for g in lad.games if g.get("run") == run)
        raise InputError(f"cannot write {path}: {failed[0].strerror or failed[0]}; the "
                         f"{unsaved} games of this run are not saved")
    if result["stopped"] == "interrupted":
        click.echo(f"Interrupted: {result['played']} games of this run are in {path}.",
                   err=True)
        sys.exit(INTERRUPTED)
