"""The options several commands share, declared once, and the `--help` example epilog.

Each decorator fixes an option's name, short flag and type; a command may give its own default
and help text (what the seed seeds differs between `new` and `arena`).  Types refuse bad values
themselves (click's usage error: exit 2, one line), so no command range-checks by hand.

    @click.command(epilog=example("ekonos arena -p 2 --bot level3 --bot greedy -n 100"))
    @players_option("Players per game.")
    @seed_option(default=0, help="Seed of the deals and of the bots.")
    @json_option("Print the result as JSON.")
    def arena(players, seed, as_json): ...
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.helptext import example  # noqa: F401 (the commands' epilog, re-exported)
from ekonos.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from search.bots import LEVELS

F = TypeVar("F", bound=Callable[..., Any])
Decorator = Callable[[F], F]

#: A game's seed: any 64-bit unsigned integer.
SEED = click.IntRange(0, 2**64 - 1)
#: Players of one game (R2).
PLAYERS = click.IntRange(MIN_PLAYERS, MAX_PLAYERS)
#: AI strength levels, as many as search.bots.LEVELS has.
LEVEL = click.IntRange(min(LEVELS), max(LEVELS))


def seed_option(default: int | None = None, help: str | None = None) -> Decorator:
    """`--seed N` (0 to 2**64-1); the default is shown when there is one."""
    return click.option("--seed", type=SEED, default=default, show_default=default is not None,
                        help=help)


def json_option(help: str) -> Decorator:
    """`--json`: print for programs (the flag arrives as `as_json`)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def variant_option(default: str | None = "rulebook",
                   help: str = "Start player of later rounds (rules R6).") -> Decorator:
    """`--variant rulebook|bga` (R6)."""
    return click.option("--variant", type=click.Choice(VARIANTS), default=default,
                        show_default=default is not None, help=help)


def players_option(help: str = f"Number of players, {MIN_PLAYERS}-{MAX_PLAYERS}.",
                   default: int | None = None) -> Decorator:
    """`--players/-p N`, required unless a default is given."""
    return click.option("--players", "-p", type=PLAYERS, required=default is None,
                        default=default, show_default=default is not None, help=help)


def player_counts_option(help: str) -> Decorator:
    """`--players/-p N`, repeatable (the counts arrive as a tuple, empty when not given)."""
    return click.option("--players", "-p", type=PLAYERS, multiple=True, metavar="N", help=help)


def level_option(default: int | None = None, help: str | None = None) -> Decorator:
    """`--level K`: an AI strength of search.bots.LEVELS (out of range: a usage error)."""
    return click.option("--level", type=LEVEL, default=default, metavar=f"{LEVEL.min}-{LEVEL.max}",
                        help=help)


class SprtBounds(click.ParamType):
    """ELO0,ELO1 with ELO0 < ELO1."""

    name = "ELO0,ELO1"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            a, b = (float(x) for x in str(value).split(","))
        except ValueError:
            self.fail(f"{value!r} is not two numbers ELO0,ELO1 (e.g. 0,10).", param, ctx)
        if not (abs(a) < 2000 and abs(b) < 2000 and a < b):
            self.fail(f"{value!r}: need finite ELO0 < ELO1.", param, ctx)
        return (a, b)


class FiniteFloatRange(click.FloatRange):
    """click.FloatRange that also refuses NaN and the infinities: NaN compares with nothing, so
    a plain FloatRange lets it through (`hint --time nan` then never returned)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return rv
