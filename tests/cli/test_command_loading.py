"""The commands are loaded lazily (cli/main.py): `ekonos --help` imports no command, neither
`search` nor numpy; `ekonos play` imports its own module only; the table that lists the
commands without importing them says what the commands themselves say."""
from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner
import pytest

import cli.commands
from cli.main import COMMANDS, LazyGroup, main

ROOT = Path(__file__).resolve().parents[2]


def command(name: str) -> click.Command:
    return getattr(importlib.import_module(COMMANDS[name][0]), name)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_short_help_in_the_table_is_the_commands_own(name):
    real = command(name)
    stand_in = click.Command(name, help=COMMANDS[name][1])
    assert real.name == name and not real.hidden
    for limit in range(10, 300):              # whatever the width, click shortens both alike
        assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), limit


def test_every_command_module_command_is_in_the_table():
    defined = []                       # (command, module) for every command a module defines
    for info in pkgutil.iter_modules(cli.commands.__path__):
        module = importlib.import_module(f"cli.commands.{info.name}")
        defined += [(v, module.__name__) for v in vars(module).values()
                    if isinstance(v, click.Command) and v.callback
                    and v.callback.__module__ == module.__name__]
    # a group's commands (`learn train`, defined in learn_net.py) are not top-level ones
    inner = {id(c) for g, _ in defined if isinstance(g, click.Group) for c in g.commands.values()}
    found = {c.name: module for c, module in defined if id(c) not in inner}
    assert found == {name: module for name, (module, _) in COMMANDS.items()}


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
def test_help_lists_the_commands_as_they_would_list_themselves(width):
    lazy = LazyGroup("ekonos", lazy=COMMANDS)
    eager = click.Group("ekonos", commands=[command(name) for name in COMMANDS])
    texts = []
    for group in (lazy, eager):
        formatter = click.HelpFormatter(width=width)
        group.format_commands(click.Context(group), formatter)
        texts.append(formatter.getvalue())
    assert texts[0] == texts[1] and "apply" in texts[0]
    assert lazy.commands == {}                 # listing them imported none


def test_an_unknown_command_is_refused_with_the_closest_names():
    result = CliRunner().invoke(main, ["shwo"])
    assert result.exit_code == 2
    assert "No such command 'shwo'." in result.output and "show" in result.output


def imported(*args: str) -> set[str]:
    """The modules a fresh interpreter holds after running `ekonos ARGS` (sys.modules: `-X
    importtime` does not see what importlib.import_module loads)."""
    code = ("import sys\n"
            f"sys.argv = ['ekonos', *{list(args)!r}]\n"
            "from cli.main import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(*sorted(sys.modules), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          input="", env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert "Usage:" in done.stdout, done.stderr[-2000:]
    return set(done.stderr.split())


def test_help_imports_no_command_nor_search_nor_numpy():
    modules = imported("--help")
    assert "cli.main" in modules and "click" in modules
    assert not {m for m in modules if m.split(".")[0] in ("search", "numpy")
                or m.startswith("cli.commands.")}


def test_play_imports_what_it_uses_only():
    """`play` offers the review and the rules during a game, so it imports their modules; the
    lab's commands (arena, ladder, suite) and the web board stay out."""
    modules = imported("play", "--help")
    commands = {m for m in modules if m.startswith("cli.commands.")}
    assert "cli.commands.play" in commands
    assert commands <= {"cli.commands.play", "cli.commands.review", "cli.commands.rules"}
    assert not {m for m in modules if m.startswith("cli.web")}
