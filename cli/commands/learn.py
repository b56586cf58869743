"""`ekonos learn sample|fit|check`: training the learned evaluation (search/learn/train.py does
the work); the group's other commands, the value network's and the calibration map's, are in
cli/commands/learn_net.py.  This module only reads options and prints."""
from __future__ import annotations

from pathlib import Path

import click

from cli.commands import learn_net
from cli.commands.progress import RunProgress
from cli.errors import InputError
from cli.options import example, player_counts_option, players_option, seed_option
from search.bots import make_bot
from search.evaluation import model_path
from search.learn import train


@click.group(epilog=example("ekonos learn sample -p 2 -n 300 --spec level2 --seed 1 -o s2.npz",
                            "ekonos learn fit s2.npz s4.npz -o models/",
                            "ekonos learn check eval-xxxxxxxxxxxx s4.npz",
                            "ekonos learn selfplay -p 4 -n 1000 --spec ismcts:iterations=4000 "
                            "--seed 34 -o data/p4 -w 2",
                            "ekonos learn train data/p2 data/p4 -o search/models",
                            "ekonos learn calibrate net-xxxxxxxxxxxx data/p4 --plot cal.png",
                            "ekonos learn calibration-map data/p2 data/p4 -o search/models"))
def learn() -> None:
    """Train the learned evaluation (the `horizon` parameter of `ismcts`) and the value
    network: `sample` plays self-play games and keeps their round starts, `fit` fits a model
    file named by its content hash, `check` says how a model reads samples it was not fitted
    on; `selfplay` records every decision of self-play games in a folder of shards, `train`
    trains a network file on such folders, `calibrate` compares its win shares and the
    search's own with what happened, `calibration-map` fits the map that calibrates the
    search's win shares.  A spec uses a model with `model=NAME` (or a path)."""


@learn.command(epilog=example("ekonos learn sample -p 2 -n 300 --spec level2 --seed 1 -o s2.npz",
                              "ekonos learn sample -p 5 -n 100 --first 100 --spec "
                              "ismcts:iterations=5000,horizon=1,plain=1 --seed 11 -o s5b.npz"))
@players_option("Players per game.")
@click.option("--games", "-n", type=click.IntRange(1), required=True, help="Games to play.")
@click.option("--spec", default="level2", show_default=True,
              help="The bot in every seat (each decides from its own view).")
@seed_option(default=1, help="Seed of the games.")
@click.option("--first", type=click.IntRange(0), default=0, show_default=True,
              help="Number of the first game (to split a run into files).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              required=True, metavar="FILE", help="The samples file to write (.npz).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def sample(players: int, games: int, spec: str, seed: int, first: int, out: Path,
           quiet: bool) -> None:
    """Play GAMES self-play games of SPEC and keep their round starts in FILE (rewritten every
    10 games; the file records the command that makes it again)."""
    make_bot(spec)                                 # a bad spec: one line, before any game
    if str(out.parent) and not out.parent.is_dir():
        raise InputError(f"{out}: no folder {out.parent}")
    with RunProgress(games, quiet) as bar:
        s = train.sample(players, games, spec, seed, first, out, lambda done: bar.update(done))
    click.echo(f"{out}: {len(s.players)} positions of {games} games", err=True)


@learn.command("fit", epilog=example("ekonos learn fit s2.npz s3.npz s4.npz -o search/models",
                                     "ekonos learn fit s4.npz -p 4 -o new-model.json",
                                     "ekonos learn fit data/p6 -p 6 --keep eval-5ec0e708e0a8 "
                                     "-o search/models",
                                     "ekonos learn fit data/p2 data/p3 data/p4 data/p5 data/p6 "
                                     "-o search/models"))
@click.argument("data", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--ridge", type=click.FloatRange(0), default=1.0, show_default=True,
              help="Ridge penalty of the regression.")
@player_counts_option("Player counts the model scores (repeat; default: all); the search "
                      "plays the others' playouts to the end.")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path), required=True,
              metavar="DIR|FILE",
              help="A folder (the model is written there as NAME.json; a new one is "
                   "made) or a file path ending in .json.")
@click.option("--keep", metavar="MODEL", default="",
              help="Take the player counts not given with -p from MODEL (a shipped model's name "
                   "or a file), unchanged: to refit some counts of a model.")
def fit_cmd(data: tuple[Path, ...], ridge: float, players: tuple[int, ...], out: Path,
            keep: str) -> None:
    """Fit a model on the samples in DATA (files of `ekonos learn sample`, or self-play folders
    of `ekonos learn selfplay`: their games replayed for their round starts) and write it;
    print each player count's held-out log loss (a tenth of its samples, fitted without them)
    against even odds (a kept count: as its model's file records it), then the model's name
    (eval- and 12 hex digits of its sha256)."""
    if not out.is_dir() and not out.parent.is_dir():
        raise InputError(f"{out}: no folder {out.parent}")
    try:
        name, path, metrics = train.fit_files(list(data), out, ridge, players, keep)
    except ValueError as e:
        raise InputError(str(e)) from None
    for n, m in metrics["held_out"].items():
        click.echo(f"{n} players: held-out log loss {m['log_loss']:.4f} against "
                   f"{m['even_odds']:.4f} for even odds ({m['positions']} positions, "
                   f"{m['of']} in all)", err=True)
    click.echo(f"{path}", err=True)
    click.echo(name)


@learn.command(epilog=example("ekonos learn check eval-xxxxxxxxxxxx heldout.npz",
                              "ekonos learn check new-model.json s4.npz data/p5"))
@click.argument("model", metavar="MODEL")
@click.argument("data", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
def check(model: str, data: tuple[Path, ...]) -> None:
    """How well MODEL (a shipped model's name or a file) reads the samples in DATA (files or
    self-play folders), per player
    count and rounds left: its log loss against even odds', the R² of the companies' final
    values, and how often the seat it expects to score most wins (chance: 1/players).  Samples
    a model was not fitted on say how it holds up on other play."""
    try:
        cells = train.check(model_path(model), list(data))
    except ValueError as e:
        raise InputError(str(e)) from None
    click.echo("players  rounds left  positions  log loss (even)   value R²  leader wins (chance)")
    for c in cells:
        click.echo(f"{c['players']:>7}  {c['rounds_left']:>11}  {c['positions']:>9}  "
                   f"{c['log_loss']:.3f} ({c['even_odds']:.3f})  {c['value_r2']:>8.3f}  "
                   f"{c['leader_wins']:.1%} ({c['chance']:.1%})")


for _command in (learn_net.selfplay, learn_net.train_cmd, learn_net.train_policy_cmd,
                 learn_net.calibrate,
                 learn_net.calibration_map_cmd):
    learn.add_command(_command)
