"""The `ekonos` command line: the group, and the commands registered on it.

Commands live one family per module (`cli/commands/`: positions = new, show, apply; hint;
arena; and `play`); bad input is reported by the group class (`cli.errors.EkonosGroup`); the
options they share are declared once (`cli.options`).  This module imports them all and is
imported by none of them.
"""
from __future__ import annotations

import click

from cli.commands.arena import arena
from cli.commands.hint import hint
from cli.commands.lab import lab
from cli.commands.learn import learn
from cli.commands.ladder import ladder
from cli.commands.play import play
from cli.commands.positions import apply, new, show
from cli.commands.review import review
from cli.commands.rules import rules
from cli.commands.serve import serve
from cli.commands.suite import suite
from cli.errors import EkonosGroup
from cli.options import example


@click.group(cls=EkonosGroup, epilog=example("ekonos play --ai 3 --level 3",
                                             "ekonos new --players 4 --seed 7 -o game.json",
                                             "ekonos show game.json",
                                             "ekonos apply game.json \"play 5 grow Crown\" "
                                             "pass \"buy Crown\" -o game.json"))
@click.version_option(package_name="ekonos", prog_name="ekonos")
def main() -> None:
    """Ekonos: play against an information-set MCTS opponent, ask it for advice, run bots.

    `ekonos play` starts a game against three AI players; `ekonos hint FILE` advises the
    player to move in a saved position; `ekonos arena` measures bots against each other.

    Bad input gives one line on stderr and exit status 2; nothing is written then.
    """


for _command in (new, show, apply, play, arena, hint, ladder, review, rules, serve, suite,
                 lab, learn):
    main.add_command(_command)

if __name__ == "__main__":
    main()
