"""The `ekonos` command line: the group, and the commands registered on it.

Commands live one family per module (`cli/commands/`: positions = new, show, apply; play;
hint; review; serve; arena; ladder; suite; lab; learn; ...); bad input is reported by the group
class (`cli.errors.EkonosGroup`); the options they share are declared once (`cli.options`).
This module is imported by none of them.

The commands are loaded lazily (click's LazyGroup pattern): `COMMANDS` names each command's
module and its short help, so `ekonos --help` imports no command (hence neither `search` nor
numpy), and `ekonos play` imports `play`'s module only.  tests/cli/test_command_loading.py
checks that each short help here is the command's own.
"""
from __future__ import annotations

import importlib
import signal

import click

from cli import interrupted_at_start
from cli.errors import EkonosGroup
from cli.output import on_interrupt
from cli.helptext import example

#: name -> (module defining it under that name, its short help as `--help` lists it: the first
#: sentence of its help).
COMMANDS: dict[str, tuple[str, str]] = {
    "apply": ("cli.commands.positions", "Apply decisions to the position in FILE, in order."),
    "arena": ("cli.commands.arena",
              "Play bots against each other with seats rotated and fixed seeds."),
    "hint": ("cli.commands.hint", "Advise the seat to move in the position FILE."),
    "lab": ("cli.commands.lab",
            "Measuring tools beyond `arena`, `ladder` and `suite`: one SPRT pooled over arena "
            "runs, think time per decision, paired loss differences on a suite, pointless "
            "buy-backs, whether the review's marks survive a deeper look."),
    "learn": ("cli.commands.learn",
              "Train the learned evaluation (the `horizon` parameter of `ismcts`) and the value "
              "network: `sample` plays self-play games and keeps their round starts, `fit` fits a "
              "model file named by its content hash, `check` says how a model reads samples it was "
              "not fitted on; `selfplay` records every decision of self-play games in a folder of "
              "shards, `train` trains a network file on such folders, `calibrate` compares its win "
              "shares and the search's own with what happened, `calibration-map` fits the map "
              "that calibrates the search's win shares."),
    "ladder": ("cli.commands.ladder",
               "Put many bots on one Elo scale: play a schedule of games, append them to a "
               "ladder file, and fit every game of the file (maximum likelihood, ANCHOR = 0)."),
    "new": ("cli.commands.positions",
            "Start a new game, deal the first round and save it as a position file."),
    "play": ("cli.commands.play", "Play Ekonos against the AI in the terminal."),
    "review": ("cli.commands.review",
               "Review a game recorded by `ekonos play`: for each decision, the move played and "
               "the best move with their expected win shares, the loss and a mark (inaccuracy "
               "from 5 points of win share lost, mistake from 10, blunder from 15); each "
               "player's accuracy, the three costliest decisions and a chart of the win shares "
               "over the game."),
    "rules": ("cli.commands.rules",
              "Print the rules in one screen (the full rules: docs/rules.md)."),
    "serve": ("cli.commands.serve", "Play against the AI on a board in your browser."),
    "show": ("cli.commands.positions",
             "Show the position in FILE: map, companies, market, players, the hand to play, "
             "scores."),
    "suite": ("cli.commands.suite",
              "The position suite: positions from varied games, each with reference values of "
              "every move from a long search of the seat's view; a bot's score on it is its mean "
              "loss of win share against the best move and its rate of gifts (moves losing 10 "
              "points or more)."),
}

#: click's error for an unknown command (8.4 on; before, a plain usage error with no suggestion).
_NO_SUCH_COMMAND = getattr(click.exceptions, "NoSuchCommand", ())


class LazyGroup(EkonosGroup):
    """A group whose commands are imported when first asked for, from a table of
    name -> (module, short help); its `--help` lists them from the table."""

    def main(self, *args, **kwargs):
        if signal.getsignal(signal.SIGINT) is interrupted_at_start:     # started: from here
            signal.signal(signal.SIGINT, signal.default_int_handler)    # KeyboardInterrupt
            # (EkonosGroup.main then takes one KeyboardInterrupt a press: cli.output)
        return super().main(*args, **kwargs)

    def __init__(self, *args, lazy: dict[str, tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context | None) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            # Ctrl-C while the command's module (numpy, the C extensions, ...) is imported
            # ends the program as at start: a KeyboardInterrupt raised inside the import
            # machinery could leave a module lock half-released and a traceback behind it
            live = signal.getsignal(signal.SIGINT) is on_interrupt    # the program, not a test
            if live:
                signal.signal(signal.SIGINT, interrupted_at_start)
            try:
                module = importlib.import_module(self.lazy[cmd_name][0])
            finally:
                if live:
                    signal.signal(signal.SIGINT, on_interrupt)
            self.add_command(getattr(module, cmd_name))
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except _NO_SUCH_COMMAND as e:                     # "Did you mean ...?" from every name
            raise type(e)(e.command_name, e.message, self.list_commands(ctx), e.ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, each not yet imported standing in as a command with its
        short help for help text (click then shortens it to the width as it would the real
        one's)."""
        rows = [(name, self.commands[name] if name in self.commands
                 else click.Command(name, help=self.lazy[name][1]))
                for name in self.list_commands(ctx)]
        rows = [(name, cmd) for name, cmd in rows if not cmd.hidden]
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in rows])


@click.group(cls=LazyGroup, lazy=COMMANDS,
             epilog=example("ekonos play --ai 3 --level 3",
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


if __name__ == "__main__":
    main()
