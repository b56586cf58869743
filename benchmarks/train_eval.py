"""Train the learned evaluation (search/eval_model.json) from self-play games.

    python benchmarks/train_eval.py sample --players 2 --games 300 --spec level2 --seed 1 -o data2.npz
    python benchmarks/train_eval.py fit data2.npz data4.npz ... -o search/eval_model.json
    python benchmarks/train_eval.py check search/eval_model.json data4.npz

`sample` plays the games (fixed seeds: game g of seed s uses derive_seed(s, g)); `fit` fits the
model on the pooled samples and prints its log loss on a held-out tenth of each player count.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np

from search.bots import derive_seed
from search.evaluation import (Samples, diagnose, fit, held_out, how_made, load, log_loss,
                               save)
from search.learn.selfplay import play_and_sample


@click.group()
def main() -> None:
    """Train the learned evaluation."""


@main.command()
@click.option("--players", "-p", type=click.IntRange(2, 6), required=True)
@click.option("--games", "-n", type=click.IntRange(1), required=True)
@click.option("--spec", default="level2", show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--first", type=int, default=0, show_default=True, help="first game number")
@click.option("-o", "out", type=click.Path(dir_okay=False), required=True)
def sample(players: int, games: int, spec: str, seed: int, first: int, out: str) -> None:
    """Play GAMES self-play games and keep their round starts."""
    parts = []
    how = "python benchmarks/train_eval.py sample " + " ".join(sys.argv[2:])
    for g in range(first, first + games):
        parts.append(play_and_sample(players, spec, derive_seed(seed, players, g)))
        if (g + 1) % 10 == 0:
            Samples.concat(parts).save(Path(out), how)
            click.echo(f"{g + 1 - first} games", err=True)
    Samples.concat(parts).save(Path(out), how)


@main.command("fit")
@click.argument("data", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--ridge", type=float, default=1.0, show_default=True)
@click.option("--players", "-p", "players", type=click.IntRange(2, 6), multiple=True,
              help="Player counts the model scores (default: all with data); the search "
                   "plays the others' playouts to the end.")
@click.option("-o", "out", type=click.Path(dir_okay=False), required=True)
def fit_cmd(data: tuple[str, ...], ridge: float, players: tuple[int, ...], out: str) -> None:
    """Fit the model on the samples in DATA files."""
    s = Samples.concat([Samples.load(Path(d)) for d in data])
    held = held_out(s)
    players = players or (2, 3, 4, 5, 6)
    model = fit(s.subset(~held), ridge, players)
    for n in sorted(set(s.players.tolist()) & set(players)):
        test = s.subset(held & (s.players == n))
        click.echo(f"{n} players: held-out log loss {log_loss(test, model):.4f} against "
                   f"{np.log(n):.4f} for even odds ({len(test.players)} positions, "
                   f"{int((s.players == n).sum())} in all)")
    model = fit(s, ridge, players)
    save(model, Path(out), "python benchmarks/train_eval.py " + " ".join(sys.argv[1:]),
         [how_made(Path(d)) or d for d in data])


@main.command()
@click.argument("model_file", metavar="MODEL", type=click.Path(exists=True, dir_okay=False))
@click.argument("data", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
def check(model_file: str, data: tuple[str, ...]) -> None:
    """How well MODEL reads the samples in DATA, per player count and rounds left: its log loss
    against even odds', the R² of the companies' final values, and how often the seat it
    expects to score most wins (chance: 1/players).  Samples a model was not fitted on say how
    it holds up on other play."""
    try:
        theta, beta = load(Path(model_file))
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    try:
        s = Samples.concat([Samples.load(Path(d)) for d in data])
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise click.UsageError(f"{' '.join(data)}: not samples of `train_eval.py sample` "
                               f"({e})") from None
    click.echo("players  rounds left  positions  log loss (even)   value R²  leader wins (chance)")
    for c in diagnose(s, {"theta": theta, "beta": beta}):
        click.echo(f"{c['players']:>7}  {c['rounds_left']:>11}  {c['positions']:>9}  "
                   f"{c['log_loss']:.3f} ({c['even_odds']:.3f})  {c['value_r2']:>8.3f}  "
                   f"{c['leader_wins']:.1%} ({c['chance']:.1%})")


if __name__ == "__main__":
    main()
