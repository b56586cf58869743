"""`ekonos learn selfplay|train|train-policy|calibrate|calibration-map`: the networks' data,
training and calibration (search/learn/shards.py, net_train.py, policy_train.py, net_data.py)
and the map of the search's win shares (search/learn/calibration_fit.py).
cli/commands/learn.py puts them in the `learn` group.
This module only reads options and prints."""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import click

from cli.commands.progress import RunProgress, backend_options
from cli.errors import InputError, save_figure
from cli.narration import plural
from cli.options import example, players_option, seed_option
from cli.output import INTERRUPTED
from ekonos.errors import EkonosError
from search._net import NET_MAX_HIDDEN
from search import evaluation
from search.lab.arena import bot_threads
from search.lab.backends import make_backend
from search.learn import net_data, shards


TRAIN_MISSING = ("`ekonos learn {command}` needs JAX and optax, which are not installed: "
                 "pip install 'ekonos[train]' (or pip install jax optax)")
PLOT_MISSING = ("--plot needs matplotlib, which is not installed: pip install 'ekonos[plot]' "
                "(or pip install matplotlib)")


def _hidden(ctx, param, text: str) -> tuple[int, int]:
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if len(widths) != 2 or not all(1 <= w <= NET_MAX_HIDDEN for w in widths):
        raise click.BadParameter(f"{text!r}: two widths from 1 to {NET_MAX_HIDDEN}, like 128,32")
    return widths


def _finite(ctx, param, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(f"{value!r} is not a finite number")
    return value


def _trainer(command: str = "train"):
    """search.learn.net_train (policy_train for `train-policy`), or InputError saying how to
    install what it needs."""
    try:
        if command == "train-policy":
            from search.learn import policy_train as trainer
        else:
            from search.learn import net_train as trainer
    except ImportError as e:
        if (e.name or "").split(".")[0] in ("jax", "jaxlib", "optax"):
            raise InputError(TRAIN_MISSING.format(command=command)) from None
        raise
    return trainer


def _train(trainer, folders: tuple[Path, ...], out: Path, config, quiet: bool):
    """`trainer.train_folders` with a progress bar over its steps: (name, path, trained)."""
    with RunProgress(config.steps, quiet, label="steps") as bar:
        try:
            return trainer.train_folders(list(folders), out, config, lambda i: bar.update(i))
        except ValueError as e:
            raise InputError(str(e)) from None


def training_options(hidden: str, steps: int, steps_help: str, lr_help: str):
    """The options `learn train` and `learn train-policy` share, before their own: the folders,
    the output, the widths and AdamW's (with these defaults and words)."""
    options = [
        click.argument("folders", nargs=-1, required=True, metavar="FOLDER...",
                       type=click.Path(path_type=Path)),
        click.option("-o", "--output", "out", type=click.Path(path_type=Path), required=True,
                     metavar="DIR|FILE",
                     help="A folder (the network is written there as NAME.json; a new one is "
                          "made) or a file path ending in .json."),
        click.option("--hidden", default=hidden, show_default=True, callback=_hidden,
                     metavar="H1,H2", help="The widths of the two hidden layers."),
        click.option("--steps", type=click.IntRange(1), default=steps, show_default=True,
                     help=steps_help),
        click.option("--batch", type=click.IntRange(1), default=512, show_default=True,
                     help="Positions per minibatch."),
        click.option("--lr", type=click.FloatRange(0, min_open=True), default=1e-3,
                     show_default=True, callback=_finite, help=lr_help),
        click.option("--weight-decay", type=click.FloatRange(0), default=1e-4,
                     show_default=True, callback=_finite,
                     help="AdamW's weight decay (of the weights, not the biases)."),
    ]

    def apply(f):
        for option in reversed(options):
            f = option(f)
        return f
    return apply


def split_options(f):
    """The options both trainers end with: the held-out share, the seed, quiet."""
    for option in reversed([
            click.option("--heldout", type=click.FloatRange(0, 1, max_open=True), default=0.1,
                         show_default=True, callback=_finite,
                         help="Share of the games held out (by game) to measure the network "
                              "on."),
            seed_option(default=1, help="Seed of the initial weights, the minibatches and the "
                                        "split."),
            click.option("--quiet", "-q", is_flag=True, help="No progress display.")]):
        f = option(f)
    return f


@click.command("train", epilog=example(
    "ekonos learn train selfplay/2p selfplay/3p selfplay/4p -o search/models",
    "ekonos learn train selfplay/4p --hidden 64,16 --steps 5000 --seed 2 -o net.json"))
@training_options("128,32", 20000, "Minibatch steps of AdamW.", "Learning rate.")
@click.option("--score-weight", type=click.FloatRange(0), default=1.0, show_default=True,
              callback=_finite, help="Weight of the score error (score / 30, squared) in the "
                                     "loss, beside the win cross-entropy.")
@click.option("--teacher-weight", type=click.FloatRange(0), default=0.0, show_default=True,
              callback=_finite, help="Weight of the linear evaluation's win shares as a "
                                     "second target (a teacher where outcomes are few).")
@click.option("--q-weight", type=click.FloatRange(0), default=0.0, show_default=True,
              callback=_finite, help="Weight of the search's own estimate of the mover's win "
                                     "share (recorded with each position) as a target.")
@click.option("--base", default=None, metavar="MODEL|none",
              help="The linear evaluation the network corrects (its outputs are added to the "
                   "model's reading): a shipped model's name, or none.  [default: the shipped "
                   "one]")
@split_options
def train_cmd(folders: tuple[Path, ...], out: Path, hidden: tuple[int, int], steps: int,
              batch: int, lr: float, weight_decay: float, score_weight: float,
              teacher_weight: float, q_weight: float, base: str | None, heldout: float,
              seed: int, quiet: bool) -> None:
    """Train a value network on the self-play FOLDERs (shard-*.npz files) and write its file,
    named by its content hash; print each player count's held-out figures (games the network
    never learnt from), then the network's name (net- and 12 hex digits of its sha256).  The
    same data and seed make the same file."""
    net_train = _trainer()
    if not out.is_dir() and not out.parent.is_dir():
        raise InputError(f"{out}: no folder {out.parent}")
    if base is None:
        base = evaluation.SHIPPED
    elif base == "none":
        base = None
    elif not evaluation.NAME.fullmatch(base):
        raise InputError(f"--base {base}: a shipped model's name (eval-…) or none")
    else:
        try:
            evaluation.model(base)
        except (OSError, ValueError) as e:
            raise InputError(f"--base: {e}") from None
    config = net_train.Config(hidden, steps, batch, lr, weight_decay, score_weight, heldout,
                              seed, teacher_weight, base, q_weight)
    name, path, trained = _train(net_train, folders, out, config, quiet)
    curve, kept = trained.training["curve"], trained.training["kept_step"]
    if curve[-1][2] is not None:
        at = next(p for p in curve if p[0] == kept)
        click.echo(f"validation loss {curve[0][2]:.4f} at the start, {at[2]:.4f} at step {kept} "
                   f"(kept; training {at[1]:.4f}), {curve[-1][2]:.4f} at step {curve[-1][0]}",
                   err=True)
    for n, m in trained.metrics.items():
        click.echo(f"{n} players: held-out win log loss {m['win_log_loss']:.4f} against "
                   f"{m['even_odds_log_loss']:.4f} for even odds, score RMSE "
                   f"{m['score_rmse']:.1f} points, calibration error "
                   f"{m['calibration_error']:.3f} ({m['positions']} positions of {m['games']} "
                   f"games)", err=True)
    click.echo(f"{path}", err=True)
    click.echo(name)


@click.command("train-policy", epilog=example(
    "ekonos learn train-policy selfplay/4p -o policies/",
    "ekonos learn train-policy selfplay/3p selfplay/4p --steps 3000 --seed 2 -o policy.json"))
@training_options("256,256", 6000, "Minibatch steps of AdamW (the learning rate decays to zero "
                  "over them).", "Learning rate at the start.")
@click.option("--mix", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              callback=_finite, help="How much of each target is the move the search played "
                                     "(the rest: its root visits).")
@split_options
def train_policy_cmd(folders: tuple[Path, ...], out: Path, hidden: tuple[int, int], steps: int,
                     batch: int, lr: float, weight_decay: float, mix: float, heldout: float,
                     seed: int, quiet: bool) -> None:
    """Train a policy network on the self-play FOLDERs' root visits and write its file, named
    by its content hash; print each player count's held-out figures, then the network's name.
    A search uses it as `pnet=NAME|FILE` (with `ptop=K`, the root moves it keeps).  The same
    data and seed make the same file."""
    policy_train = _trainer("train-policy")
    if not out.is_dir() and not out.parent.is_dir():
        raise InputError(f"{out}: no folder {out.parent}")
    config = policy_train.Config(hidden, steps, batch, lr, weight_decay, mix, heldout, seed)
    name, path, trained = _train(policy_train, folders, out, config, quiet)
    curve = trained.training["curve"]
    if curve[-1][2] is not None:
        click.echo(f"held-out loss {curve[0][2]:.4f} at the start, {curve[-1][2]:.4f} at step "
                   f"{curve[-1][0]} (training {curve[-1][1]:.4f})", err=True)
    for n, m in trained.metrics.items():
        k = policy_train.RECALL_AT[1]
        more = (f"; among its best {k} {m[f'top{k}']:.1%} ({m[f'top{k}_uniform']:.1%}) where "
                f"a root has more" if f"top{k}" in m else "")
        click.echo(f"{n} players: the search's move is the network's first choice "
                   f"{m['top1']:.1%} of the time (chance: {m['top1_uniform']:.1%}){more} "
                   f"({m['positions']} held-out positions)", err=True)
    click.echo(f"{path}", err=True)
    click.echo(name)


@click.command("calibrate", epilog=example(
    "ekonos learn calibrate net-xxxxxxxxxxxx selfplay/4p",
    "ekonos learn calibrate net.json selfplay/2p selfplay/4p --plot calibration.png"))
@click.argument("net", metavar="NET")
@click.argument("folders", nargs=-1, required=True, metavar="FOLDER...",
                type=click.Path(path_type=Path))
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.png",
              help="Also draw predicted against realized win shares into FILE.png (needs "
                   "matplotlib: pip install 'ekonos[plot]').")
def calibrate(net: str, folders: tuple[Path, ...], plot: Path | None) -> None:
    """How well the win shares of NET (a shipped network's name or a file) come true on the
    self-play FOLDERs, per player count and decile of predicted share, beside the search's own
    estimate recorded in the data (the mover's expected win share of the move it played).  A
    folder the network learnt from counts only its held-out games."""
    if plot is not None:
        _plot_module()
        if str(plot.parent) and not plot.parent.is_dir():
            raise InputError(f"{plot}: no folder {plot.parent}")
    try:
        report = net_data.calibrate(net, list(folders))
    except ValueError as e:
        raise InputError(str(e)) from None
    for f in report["folders"]:
        click.echo(f"{f['folder']}: {f['positions']} of {f['of']} positions ({f['which']})")
    for n, r in report["players"].items():
        m = r["network"]
        click.echo(f"\n{n} players, {m['positions']} positions of {m['games']} games: win log "
                   f"loss {m['win_log_loss']:.4f} (even odds {m['even_odds_log_loss']:.4f}), "
                   f"score RMSE {m['score_rmse']:.1f} points, the favourite wins "
                   f"{m['favourite_wins']:.1%} (chance {m['chance']:.1%})")
        click.echo(_tables(m["calibration"], r["search"]))
        s = f"{r['search_error']:.3f}" if r["search"] else "none recorded"
        click.echo(f"calibration error: network {m['calibration_error']:.3f}, search {s}")
    if plot is not None:
        draw_calibration(report, plot)
        click.echo(f"\nChart drawn in {plot}.")


CALIBRATE_MISSING = ("`ekonos learn calibration-map` needs scipy, which is not installed: pip "
                     "install 'ekonos[calibrate]' (or pip install scipy)")


@click.command("calibration-map", epilog=example(
    "ekonos learn calibration-map data/gen1/p2 data/gen1/p3 data/gen1/p4 -o search/models",
    "ekonos learn calibration-map data/p4 --heldout 0.5 --seed 2 --games 160 -o map.json",
    "ekonos learn calibration-map data/h30k/p4 --check calib-xxxxxxxxxxxx"))
@click.argument("folders", nargs=-1, required=True, metavar="FOLDER...",
                type=click.Path(path_type=Path))
@click.option("-o", "--output", "out", type=click.Path(path_type=Path), metavar="DIR|FILE",
              help="A folder (the map is written there as NAME.json; a new one is "
                   "made) or a file path ending in .json.")
@click.option("--check", "check_map", metavar="MAP",
              help="Fit nothing: measure the map MAP (a shipped map's name or a file) on the "
                   "FOLDERs instead (of a run it was fitted on, the games it was not).")
@click.option("--heldout", type=click.FloatRange(0, 1, max_open=True), default=0.3,
              show_default=True, callback=_finite,
              help="Share of the games held out (by game) to measure the map on.")
@seed_option(default=1, help="Seed of the split.")
@click.option("--games", type=click.IntRange(1), default=None,
              help="Read games 0 to GAMES-1 of each folder only (a folder still being filled "
                   "then gives the same map later).  [default: every game listed]")
def calibration_map_cmd(folders: tuple[Path, ...], out: Path | None, check_map: str | None,
                        heldout: float, seed: int, games: int | None) -> None:
    """Fit a map from the search's win shares to the shares realized, per player count, on the
    self-play FOLDERs (the search's estimate of each move played against how the game ended)
    and write it, named by its content hash; print each player count's held-out calibration
    error and deciles (predicted>won) before and after the map, then the map's name (calib-
    and 12 hex digits of its sha256).  The hint, the review and the web board show shares
    through the shipped map.  --check MAP measures a map on other data instead."""
    try:
        from search.learn import calibration_fit as fit
    except ImportError as e:
        if (e.name or "").split(".")[0] == "scipy":
            raise InputError(CALIBRATE_MISSING) from None
        raise
    if (out is None) == (check_map is None):
        raise click.UsageError("give -o DIR|FILE to fit a map, or --check MAP to measure one")
    if out is not None and not out.is_dir() and not out.parent.is_dir():
        raise InputError(f"{out}: no folder {out.parent}")
    try:
        if check_map is not None:
            report = fit.check(check_map, list(folders), games)
        else:
            name, path, players = fit.make_map(list(folders), out, heldout, seed, games)
    except (ValueError, EkonosError) as e:
        raise InputError(str(e)) from None
    if check_map is not None:
        click.echo(f"{report['map']}, fitted for {report['spec']}", err=True)
        for f in report["folders"]:
            click.echo(f"{f['folder']}: {f['positions']} of {f['of']} positions ({f['which']}), "
                       f"recorded by {f['spec']}", err=True)
        for n, r in report["players"].items():
            _measured(f"{n} players: calibration error", r)
        return
    for n, e in players.items():
        fitted = f"fitted on {plural(e['positions'], 'position')} of {plural(e['games'], 'game')}"
        if e["held_out"]["error_before"] is None:
            click.echo(f"{n} players: no held-out game ({fitted})", err=True)
        else:
            _measured(f"{n} players: held-out calibration error", e["held_out"], f"; {fitted}")
    click.echo(f"{path}", err=True)
    click.echo(name)


def _measured(what: str, r: dict, more: str = "") -> None:
    """A calibration error before -> after a map, and the deciles (predicted>won) of both."""
    click.echo(f"{what} {r['error_before']:.3f} -> {r['error_after']:.3f} ("
               f"{plural(r['positions'], 'position')} of {plural(r['games'], 'game')}{more})",
               err=True)
    for label, rows in (("search", r["before"]), ("calibrated", r["after"])):
        click.echo(f"  {label:<10} " + " ".join(f"{x['predicted']:.2f}>{x['realized']:.2f}"
                                                 for x in rows), err=True)


def _tables(network: list[dict], search: list[dict]) -> str:
    """The two calibration tables side by side, a row per decile."""
    head = "count  predicted  realized  difference"
    lines = [f"decile  {'network':<39}  search", f"        {head}   {head}"]
    for i in range(max(len(network), len(search))):
        cells = []
        for rows in (network, search):
            r = rows[i] if i < len(rows) else None
            cells.append(f"{r['count']:>5}  {r['predicted']:>9.3f}  {r['realized']:>8.3f}  "
                         f"{r['difference']:>+10.3f}" if r else " " * 39)
        lines.append(f"{i + 1:>6}  {cells[0]}   {cells[1]}".rstrip())
    return "\n".join(lines)


def _plot_module():
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise InputError(PLOT_MISSING) from None
    return pyplot


def draw_calibration(report: dict, path: Path) -> None:
    """Predicted against realized win share per player count (network and search), with the
    diagonal of a calibrated estimate; a PNG written atomically."""
    plt = _plot_module()
    counts = list(report["players"])
    fig, axes = plt.subplots(1, len(counts), figsize=(3.6 * len(counts), 3.8), dpi=100,
                             squeeze=False)
    for ax, n in zip(axes[0], counts):
        r = report["players"][n]
        ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="calibrated")
        for rows, label in ((r["network"]["calibration"], "network"), (r["search"], "search")):
            if rows:
                ax.plot([x["predicted"] for x in rows], [x["realized"] for x in rows],
                        marker="o", label=label)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_title(f"{n} players")
        ax.set_xlabel("predicted win share")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("realized win share")
    axes[0][0].legend(loc="upper left")
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)


def _rate(x: float | None) -> str:
    return "?" if x is None else f"{x:,.0f}".replace(",", " ")


def _shards(n: int) -> str:
    return f"{n} shard" + "s" * (n != 1)


@click.command("selfplay", epilog=example(
    "ekonos learn selfplay -p 4 -n 1000 --spec ismcts:iterations=4000 --seed 34 -o data/p4 -w 2",
    "ekonos learn selfplay -p 2 -n 400 --spec level2 --seed 1 -o data/p2 --backend ray "
    "--address auto",
    "ekonos learn selfplay -p 2 -n 1000 --spec ismcts:iterations=4000 --seed 34 -o data/gen0/p2 "
    "--adopt      # shards another program made there"))
@players_option("Players per game.")
@click.option("--games", "-n", type=click.IntRange(1), required=True,
              help="Games the folder is to hold: games 0 to GAMES-1 of the seed (a folder "
                   "holding more keeps them).")
@click.option("--spec", required=True, metavar="SPEC",
              help="The bot in every seat, deciding from its own view (an iteration budget, "
                   "not a time, makes the folder reproducible).")
@seed_option(help="Seed of the games (required).")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path), required=True,
              metavar="DIR", help="The folder of shards and manifest.json (made if missing).")
@click.option("--games-per-shard", type=click.IntRange(1), default=10, show_default=True,
              help="Games per shard file; a shard is one task of a worker.")
@click.option("--explore", type=click.IntRange(0), default=4, show_default=True,
              help="The first K recorded decisions of each game play a move drawn in "
                   "proportion to its root visits (variety); the rest the search's choice.")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to spread the shards over (Ray: CPUs of a local Ray).")
@click.option("--adopt", is_flag=True,
              help="List the shard files of a folder without a manifest (made by another "
                   "program with the same naming and record_game arguments): each is checked "
                   "and the first game played again.")
@backend_options
def selfplay(players: int, games: int, spec: str, seed: int | None, out: Path,
             games_per_shard: int, explore: int, workers: int, adopt: bool, backend: str,
             address: str | None, ship: bool, quiet: bool) -> None:
    """Record self-play games for the value network in the folder DIR: every decision with a
    choice, its inputs from the deciding seat's view, the search's root visits, the move
    played and how the game ended (docs/learning.md).

    Shard k (shard-0000k.npz) holds games k*G to k*G+G-1; DIR/manifest.json says what made the
    folder (spec, seed, the network's input hash, the command) and lists each shard with its
    sha256.  The same command goes on where a run stopped (a shard listed with a matching
    sha256 is kept, a missing or damaged one played again) and makes the same shards on any
    backend and any number of workers; two runs filling one folder share the shards.  Ctrl-C
    keeps the shards finished.  At the end: positions per second, and per core (positions over
    the shards' CPU seconds, as the manifest records)."""
    if seed is None:
        raise click.UsageError("Missing option '--seed'.")
    if backend == "local" and address:
        raise click.UsageError("--address is for --backend ray")
    run = shards.Run.of(players, spec, seed, games_per_shard, explore)
    plan = shards.prepare(out, run, games, adopt=adopt)
    total = len(run.shards(games))
    todo = sum(count for _, _, count in plan.todo)
    if not plan.todo:
        m = shards.read_manifest(out)
        click.echo(f"{out}: {'all ' * (total > 1)}{_shards(total)} of games 0 to {games - 1} "
                   f"there{f' ({plan.adopted} adopted)' if plan.adopted else ''} "
                   f"({m['positions']} positions in the folder); nothing to play",
                   err=True)
        return
    if not quiet:
        said = [f"{plan.kept} there"] if plan.kept else []
        said += [f"{plan.adopted} adopted"] if plan.adopted else []
        said += [f"{len(plan.redo)} damaged or short, played again"] if plan.redo else []
        click.echo(f"{out}: {len(plan.todo)} of {_shards(total)} to play ({todo} games"
                   + "".join(f", {x}" for x in said) + "); Ctrl-C keeps the shards finished",
                   err=True)
    start = time.perf_counter()

    def rate(made: list[dict]) -> str:
        done = sum(e["positions"] for e in made)
        return f"{_rate(done / max(time.perf_counter() - start, 1e-9))} positions/s"

    with make_backend(backend, workers, address, task_cpus=bot_threads(run.spec),
                      ship=ship) as runner, RunProgress(todo, quiet) as bar:
        done = shards.play(plan, runner, progress=lambda made: bar.update(
            sum(e["games"] for e in made), lambda: rate(made)))
    where = f"{_shards(len(done.made))} ({sum(e['games'] for e in done.made)} games, " \
            f"{done.positions} positions)"
    if done.stopped == "interrupted":
        click.echo(f"Interrupted: {where} of this run are in {out}; the same command goes on "
                   "from there.", err=True)
        sys.exit(INTERRUPTED)
    m = done.manifest or shards.read_manifest(out)
    other = f"; {_shards(len(done.elsewhere))} made by another process filling the folder" \
        if done.elsewhere else ""
    click.echo(f"{out}: {where} made in {done.seconds:.1f} s: {_rate(done.per_second)} "
               f"positions/s, {_rate(done.per_core)} positions/s per core{other}; the folder "
               f"holds {_shards(len(m['shards']))}, {m['positions']} positions", err=True)
