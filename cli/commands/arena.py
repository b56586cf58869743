"""`ekonos arena`: bots against each other, for a person or a program (--json).

Win shares, Elo with its interval, a Plackett-Luce rating and each bot's think time per decision
(read from the same run, for "equal think time"); `--sprt` turns the run into a
sequential test that stops at its decision.  Ctrl-C stops the run and prints what was played.
"""
from __future__ import annotations

import json
import math
import sys

import click
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cli.commands.progress import RunProgress, backend_options
from cli.options import (FiniteFloatRange, SprtBounds, example, json_option, players_option,
                         seed_option, variant_option)
from search.lab.arena import SPRT_GAMES, Snapshot, bot_threads, run_arena, seat_scores, split_label
from search.lab.backends import make_backend
from search.bots import spec_help
from search.lab.ratings import elo_between

#: Exit status after Ctrl-C (the partial result is printed first).
INTERRUPTED = 130


PROBABILITY = FiniteFloatRange(0, 0.5, min_open=True, max_open=True)


def elo_text(est: dict) -> str:
    low, high = est["ci95"]
    return f"{est['elo']:+.0f} [{low:+.0f}, {high:+.0f}]"


def estimate_text(snap: Snapshot) -> str:
    """The progress line: the SPRT's LLR and Elo, or the first bot's Elo against the second."""
    if snap.test is not None:
        t = snap.test
        est = t.elo()
        elo = f"  Elo {elo_text(est.as_dict())}" if est else ""
        return f"LLR {t.llr:+.2f} ({t.lower:+.2f}, {t.upper:+.2f}){elo}"
    labels = list(dict.fromkeys(snap.entrants))
    if len(labels) < 2 or not snap.games:
        return ""
    est = elo_between([seat_scores(g, snap.entrants) for g in snap.games], labels[0], labels[1],
                      block=snap.players)
    return f"Elo {elo_text(est.as_dict())}"


def expected_games(snap: Snapshot) -> int:
    """Games the run is expected to take: the planned number, or for an SPRT the number at
    which the LLR, drifting as it has so far, would reach the bound it heads for (so the time
    left is an estimate that firms up as the test goes)."""
    t = snap.test
    if t is None or not snap.done or t.llr == 0:
        return snap.planned
    bound = t.upper if t.llr > 0 else t.lower
    return min(snap.planned, max(snap.done, math.ceil(snap.done * bound / t.llr)))


@click.command(epilog="\b\n" + spec_help() + "\n  SPEC@N              the same bot as an entrant "
               "of its own, seeds offset by N (a bot against itself: BOT and BOT@1)\n\n" + example(
    "ekonos arena --players 2 --bot level3 --bot greedy --games 200 --workers 2",
    "ekonos arena -p 4 --bot level3 --bot greedy --bot greedy --bot greedy -n 40 --json",
    "ekonos arena -p 2 --bot ismcts:iterations=2000 --bot ismcts:iterations=200 --sprt 0,50",
    "ekonos arena -p 2 --bot level2 --bot level2@1 --sprt 0,50 -w 2",
    "ekonos arena -p 5 --bot level4 --bot linear --sprt 0,30 --sprt-by win",
    "ekonos arena -p 2 --bot level3 --bot level2 -n 100 --backend ray --address auto"))
@players_option("Players per game.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="SPEC",
              help="A bot spec, once per seat (fewer: the list repeats).")
@click.option("--games", "-n", type=click.IntRange(1), default=None,
              help=f"Games to play (with --sprt: at most; default {SPRT_GAMES}).")
@seed_option(default=0, help="Seed of the deals and of the bots.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to spread the games over (Ray: CPUs of a local Ray).")
@variant_option()
@click.option("--sprt", type=SprtBounds(), default=None,
              help="Sequential test of the first bot against the second: H0 Elo = ELO0, "
                   "H1 Elo = ELO1; play blocks until the LLR crosses a bound.")
@click.option("--sprt-by", type=click.Choice(["score", "win"]), default="score",
              show_default=True,
              help="SPRT: what a block scores: pairwise results by final score, or the first "
                   "bot's share of the wins (Elo from the win rate per seat).")
@click.option("--alpha", type=PROBABILITY, default=0.05, show_default=True,
              help="SPRT: false-positive rate (H1 accepted when ELO0 is true).")
@click.option("--beta", type=PROBABILITY, default=0.05, show_default=True,
              help="SPRT: false-negative rate (H0 accepted when ELO1 is true).")
@backend_options
@json_option("Print the result as JSON.")
def arena(players: int, bots: tuple[str, ...], games: int | None, seed: int, workers: int,
          variant: str, sprt: tuple[float, float] | None, sprt_by: str, alpha: float,
          beta: float, backend: str, address: str | None, ship: bool, quiet: bool,
          as_json: bool) -> None:
    """Play bots against each other with seats rotated and fixed seeds.

    Games come in blocks of PLAYERS sharing one deal, every bot in every seat, so use a
    multiple of PLAYERS games.  For each bot: games, win share (ties split), its 95% interval
    (Wilson's, counting blocks as the independent units), mean score, mean rank and think time per decision (median and 95th percentile
    over all its decisions in the run); then the first bot's Elo against each other bot (95%
    interval; in games of 3 or more every pair of seats is one result, as Board Game Arena
    counts) and a Plackett-Luce rating of the finishing orders.  The same command prints the
    same result, on any backend, but for the think times.  Ctrl-C stops early and prints the
    games played so far.
    The bots and their parameters are listed below (from the bots' own registration).
    """
    for spec in bots:
        split_label(spec)
    if len(bots) > players:
        raise click.UsageError(f"{len(bots)} --bot options for {players} players")
    if games is None and sprt is None:
        raise click.UsageError("Missing option '--games' / '-n' (needed without --sprt).")
    if sprt_by != "score" and sprt is None:
        raise click.UsageError("--sprt-by says how an SPRT scores: give --sprt too.")
    planned = games if games is not None else SPRT_GAMES
    threads = max(bot_threads(b) for b in bots)
    with make_backend(backend, workers, address, task_cpus=threads, ship=ship) as runner, \
            RunProgress(planned, quiet) as bar:
        result = run_arena(list(bots), players, games, seed=seed, workers=workers,
                           variant=variant, sprt=sprt, alpha=alpha, beta=beta, backend=runner,
                           sprt_by=sprt_by,
                           progress=lambda snap: bar.update(snap.done,
                                                            lambda: estimate_text(snap),
                                                            total=expected_games(snap)))
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        print_result(result, Console())
    if result["stopped"] == "interrupted":
        click.echo(f"Interrupted: the result covers the {result['games']} games played.",
                   err=True)
        sys.exit(INTERRUPTED)


def ms(seconds: float) -> str:
    """Milliseconds without an exponent: two decimals under 10, one under 100 (0.01, 4.37, 42.1,
    312, 2150)."""
    v = seconds * 1000
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def think_text(think: dict | None) -> str:
    """A bot's think time per decision as ``median/p95`` in ms (– when nothing was timed)."""
    if not think or not think.get("decisions"):
        return "–"
    return f"{ms(think['median'])}/{ms(think['p95'])}"


def bots_table(result: dict, interval_sep: str = " ") -> Table:
    """Per bot: games, win share and its interval, mean score and rank, and think time per
    decision (median/95th percentile over the whole run, ms).  The headers take two lines and
    one-word cells never wrap; the interval breaks where `interval_sep` says and a spec that
    does not fit folds."""
    table = Table(title=Text(f"{result['games']} games, {result['players']} players, seed "
                             f"{result['seed']}, {result['variant']}"))
    table.add_column("bot", overflow="fold")
    for col in ("games", "win\nshare", "95%\ninterval", "mean\nscore", "mean\nrank",
                "think ms\np50/p95"):
        table.add_column(col, justify="right", no_wrap=True)
    for b in result["bots"]:
        low, high = b["ci95"]
        table.add_row(Text(b["bot"]), str(b["games"]), f"{b['win_share']:.1%}",      # spec text
                      f"{low:.1%} –{interval_sep}{high:.1%}", f"{b['mean_score']:.1f}",
                      f"{b['mean_rank']:.2f}", think_text(b.get("think")))
    return table


def print_result(result: dict, out: Console) -> None:
    """The arena's tables for a person."""
    players = result["players"]
    table = bots_table(result)
    if Measurement.get(out, out.options.update_width(10_000), table).maximum > out.width:
        table = bots_table(result, "\n")
    out.print(table)
    rated = result["ratings"]
    if rated["elo"] or rated["plackett_luce"]:
        skill = {r["bot"]: r for r in rated["plackett_luce"] or []}
        elo = {r["against"]: r for r in rated["elo"]}
        first = result["bots"][0]["bot"]
        t = Table(title=Text(f"Ratings: each bot's Elo against {first} (95% interval over "
                             f"blocks of {players} games), Plackett-Luce skill"))
        for col in ("bot", "Elo", "95% interval", "pairs", "PL mu ± sigma", "PL ordinal"):
            t.add_column(col, justify="left" if col == "bot" else "right",
                         no_wrap=col == "bot")
        for b in result["bots"]:
            e, s = elo.get(b["bot"]), skill.get(b["bot"])
            if e:     # the JSON gives the first bot's Elo against this one: turn it round
                cells = [f"{-e['elo']:+.0f}", f"{-e['ci95'][1]:+.0f} – {-e['ci95'][0]:+.0f}",
                         f"{e['results']:.0f}"]
            else:
                cells = ["0", "(reference)" if b["bot"] == first else "", ""]
            t.add_row(Text(b["bot"]), *cells, f"{s['mu']:.1f} ± {s['sigma']:.1f}" if s else "",
                      f"{s['ordinal']:.1f}" if s else "")
        out.print(t)
        if rated["plackett_luce"] is None:
            out.print("(Plackett-Luce needs the optional extra 'ratings': "
                      "pip install 'ekonos[ratings]')", markup=False)
    test = result.get("sprt")
    if test:
        verdict = {
            "H1": f"H1 accepted: {test['test']} is stronger than {test['base']} "
                  f"(Elo {test['elo1']:g} rather than {test['elo0']:g})",
            "H0": f"H0 accepted: {test['test']} is not {test['elo1']:g} Elo stronger than "
                  f"{test['base']} (Elo {test['elo0']:g} rather than {test['elo1']:g})",
            "continue": "no decision"}[test["state"]]
        est = test["elo"]
        out.print(Text(
            f"SPRT [{test['elo0']:g}, {test['elo1']:g}] alpha {test['alpha']:g} "
            f"beta {test['beta']:g} ({test['model']}"
            f"{', by the win' if test.get('by') == 'win' else ''}): {verdict}\n"
            f"LLR {test['llr']:+.3f} (bounds {test['lower']:+.3f}, {test['upper']:+.3f}) after "
            f"{test['games']} games ({test['units']} units)"
            + (f"; Elo {elo_text(est)}" if est else "")), soft_wrap=True)
    if result["stopped"] == "limit":
        out.print(Text(f"Stopped at the game limit ({result['games']}) without a decision."))
