"""`ekonos rules` (and `rules` at the game prompt): the rules in one screen, 80 × 24.

A summary for a player, in plain words; the full rules with their ids are docs/rules.md.
"""
from __future__ import annotations

import click
from rich.console import Console

from cli.options import example

RULES = """\
[bold]Ekonos in one screen[/]                         (all the rules: docs/rules.md)
[bold]Goal[/]      the highest score after the last round: your shares × their
          company's tiles on the map, plus your coins.
[bold]Round[/]     new cards for all (6; 5 with 5 players) and 12 coins (10 with 5);
          turns go round until every hand is empty. Rounds: 6 with 2 players,
          4 with 3, 3 with 4-5, 2 with 6.
[bold]Turn[/]      1. play a card  2. you may sell one share  3. you may buy one share
[bold]Card[/]      `22 Cro|Pho+Pan`: place a Crown tile on an empty space, or protect a
          Crown tile (it stays), or grow Phoenix or Panda (track +1).
[bold]Growth[/]    at 4 the company's president may expand (2 actions) or wait; at 6 it
          must expand (3 actions); the track then returns to 0. No president:
          the card's player decides.
[bold]Expand[/]    an action places a tile beside the company's tiles (on an empty
          space or another company's unprotected tile) or protects one of its
          tiles.
[bold]Market[/]    a sale pays a coin per share in the company's column; a buy costs
          the shares in the column + 1 (8 at most).
[bold]President[/] the first buyer, until someone holds strictly more. A president who
          sells may hand it over. 4-6 players: 18 tokens each.
[bold]Secrets[/]   hands are private, played cards public; an AI sees only its own
          seat."""


@click.command(epilog=example("ekonos rules | less"))
def rules() -> None:
    """Print the rules in one screen (the full rules: docs/rules.md)."""
    Console(highlight=False).print(RULES)
