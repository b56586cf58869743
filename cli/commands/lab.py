"""`ekonos lab ...`: the lab's measuring tools (search/lab/): pool SPRT shards, think time per
decision, paired suite differences, pointless buy-backs, the review's marks under a deeper
look.  This module only reads options and prints; the work is in search/lab/pool_sprt.py,
think_time.py, suite_pairs.py, pointless_moves.py and review_marks.py."""
from __future__ import annotations

import json
from pathlib import Path

import click

from cli.errors import InputError
from cli.storage import MAX_RECORD_BYTES
from ekonos.errors import EkonosError
from ekonos.files import read_json_file
from cli.options import SprtBounds, example, json_option, players_option, seed_option
from search.lab import pointless_moves, pool_sprt, suite_pairs, think_time


@click.group(epilog=example("ekonos lab pool-sprt a.json b.json",
                            "ekonos lab think-time level3 baseline",
                            "ekonos lab suite-pairs result.json --pair level3 baseline"))
def lab() -> None:
    """Measuring tools beyond `arena`, `ladder` and `suite`: one SPRT pooled over arena runs,
    think time per decision, paired loss differences on a suite, pointless buy-backs, whether
    the review's marks survive a deeper look."""


def _read_json(files: tuple[Path, ...], what: str, cap: int) -> list[dict]:
    """The decoded files (regular files of at most `cap` bytes), each a JSON object."""
    data = []
    for f in files:
        d = read_json_file(f, cap, what)             # FileError: one line naming the file
        if not isinstance(d, dict):
            raise InputError(f"{f}: not {what} (a JSON object was expected)")
        data.append(d)
    return data


@lab.command("pool-sprt", epilog=example(
    "ekonos lab pool-sprt A.json B.json",
    "ekonos lab pool-sprt A.json B.json --spec level5=ismcts:iterations=300000,horizon=1",
    "ekonos lab pool-sprt C.json D.json --sprt 0,30",
    "ekonos lab pool-sprt E.json F.json --sprt 0,30 --by win",
    "ekonos lab pool-sprt E.json F.json G.json --sprt 0,30 --looks 2"))
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--spec", "specs", multiple=True, metavar="LABEL=SPEC",
              help="What a label names where a file does not say (a level, in files written "
                   "before the arena recorded specs).")
@click.option("--sprt", "bounds", type=SprtBounds(), default=None,
              help="The test to pool into, whatever the runs' own bounds (needed when none of "
                   "them ran --sprt).")
@click.option("--by", type=click.Choice(["score", "win"]), default="score", show_default=True,
              help="What a unit scores: pairwise results by final score, or the test bot's "
                   "share of the wins (read from each bot's blocks, runs since 2026-11-29).")
@click.option("--looks", type=click.IntRange(1, max(pool_sprt.POCOCK)), default=1,
              show_default=True,
              help="How many times these shards' win shares have been read, this time "
                   "included: more than one also prints each interval widened so that all the "
                   "looks together keep a 5% chance of a false reading (Pocock's constant).")
def pool_sprt_cmd(runs, specs: tuple[str, ...], bounds: tuple[float, float] | None,
                  by: str, looks: int) -> None:
    """Pool the SPRT of RUNS (`arena --json` files of one pair of bots, shards on new deals:
    runs with --sprt, and runs without it that kept their units) and print the pooled test
    after each file: games, LLR against its bounds, Elo with its 95% interval, and the state
    (H1, H0 or continue); then each bot's win share over all the runs' games with its 95%
    interval (runs made since 2026-11-29, which keep each bot's blocks), and with --looks the
    same widened for repeated readings."""
    try:
        given = pool_sprt.parse_given(specs)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    data = _read_json(runs, "`arena --json` result", pool_sprt.MAX_RESULT_BYTES)
    try:
        lines = pool_sprt.report([str(f) for f in runs], data, given, bounds, by, looks)
    except ValueError as e:                     # pool_sprt says which run and why
        raise InputError(str(e)) from None
    except (KeyError, TypeError) as e:          # a record missing a field, or of a wrong type
        raise InputError(f"not arena --json results of one test "
                         f"({type(e).__name__}: {e})") from None
    for line in lines:
        click.echo(line)


@lab.command("think-time", epilog=example(
    "ekonos lab think-time level3 baseline",
    "ekonos lab think-time \"ismcts:iterations=10000,root=uct\" linear --positions 80"))
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--positions", "-n", type=click.IntRange(1), default=40, show_default=True,
              help="Decisions timed (each spec decides each one).")
@players_option("Players of the random games the positions come from.", default=2)
@seed_option(default=1, help="Seed of the random games.")
def think_time_cmd(specs: tuple[str, ...], positions: int, players: int, seed: int) -> None:
    """Think time per decision of each SPEC on the same positions (random games' real
    decisions), the specs alternating position by position: the median and 95th percentile,
    and the median's ratio to the first spec's."""
    for t in think_time.think_times(list(specs), positions, players, seed):
        click.echo(f"{t.spec:50s} median {t.median * 1000:8.1f} ms  p95 {t.p95 * 1000:8.1f} ms  "
                   f"ratio {t.ratio:.3f}")


@lab.command("suite-pairs", epilog=example(
    "ekonos lab suite-pairs result.json --pair level3 baseline --pair level5 level4",
    "ekonos lab suite-pairs a.json b.json --pair level3 baseline   # two suites pooled"))
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--pair", "pairs", nargs=2, multiple=True, required=True, metavar="A B",
              help="Two bot specs of the result (repeat for several pairs).")
def suite_pairs_cmd(results, pairs: tuple[tuple[str, str], ...]) -> None:
    """Paired loss differences of bot pairs in RESULTS (`suite run --json` files; several:
    their positions pooled): A's loss minus B's and their ratio with 95% intervals, the gifts
    of each, and how often they chose the same move."""
    data = _read_json(results, "`suite run --json` result", suite_pairs.MAX_RESULT_BYTES)
    try:
        lines = suite_pairs.report([str(r) for r in results], data, list(pairs))
    except ValueError as e:
        raise InputError(str(e)) from None
    except (KeyError, TypeError, AttributeError) as e:
        raise InputError(f"not `suite run --json` results ({type(e).__name__}: {e})") from None
    for line in lines:
        click.echo(line)


@lab.command("pointless-moves", epilog=example(
    "ekonos lab pointless-moves \"ismcts:iterations=1000\" \"ismcts:iterations=1000,plain=1\""))
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--games", "-n", type=click.IntRange(1), default=20, show_default=True,
              help="Self-play games per spec.")
@players_option("Players per game.", default=2)
@seed_option(default=1, help="Seed of the games.")
def pointless_moves_cmd(specs: tuple[str, ...], games: int, players: int, seed: int) -> None:
    """How often each SPEC, in self-play, sells a share and buys it back in the same turn with
    nothing changed (coins, shares and presidents as before the sale)."""
    for spec in specs:
        sales, pointless = pointless_moves.count(spec, games, players, seed)
        click.echo(f"{spec:45s} {sales:5d} sales, {pointless:4d} bought back to the same "
                   "position")


@lab.command("review-marks", epilog=example(
    "ekonos lab review-marks games/game-*.json",
    "ekonos lab review-marks g1.json g2.json --factor 16 --json > marks.json"))
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--factor", type=click.IntRange(2, 64), default=16, show_default=True,
              help="The deep review's budget, as a multiple of the first's.")
@click.option("--iterations", "-i", type=click.IntRange(10), default=None,
              help="The first review's budget (default: `ekonos review`'s).")
@click.option("--seeds", type=(int, int), default=(0, 1), show_default=True,
              help="Seeds of the first and the deep review.")
@click.option("--workers", "-w", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Decisions searched at once.")
@json_option("Print the table as JSON.")
def review_marks_cmd(records: tuple[Path, ...], factor: int, iterations: int | None,
                     seeds: tuple[int, int], workers: int, as_json: bool) -> None:
    """Do the review's marks survive a deeper look?  Review each game RECORD (as `ekonos play`
    writes them) at the default budget and at FACTOR times it with another seed, every seat;
    per mark kind: how many of the first review's marks the deep one confirms (marks at least
    as severe), gives the same mark, keeps marked at all, and the marks it gives anew."""
    from search.lab import review_marks
    from search.review import replay_record
    games = []
    for f, data in zip(records, _read_json(records, "a game record", MAX_RECORD_BYTES)):
        try:
            games.append(replay_record(data))
        except EkonosError as e:
            raise InputError(f"{f}: {e}") from None
    result = review_marks.reproduce(
        games, factor, seeds, workers, iterations,
        progress=lambda done, total: click.echo(f"{done}/{total} games reviewed twice", err=True))
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        for line in review_marks.table_lines(result):
            click.echo(line)
