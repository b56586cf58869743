"""The CLI's skeleton: options shared by the commands (cli/options.py), declared once and
accepted in the same forms everywhere, and the cli package's imports (no cycle)."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import options
from cli.errors import EkonosGroup
from cli.main import main
from ekonos import State, save_file
from ekonos.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from search.bots import LEVELS
from search.lab.arena import untimed

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "cli"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(result) -> str:
    """Exit 2 and exactly one `Error: ` line on stderr, nothing on stdout."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    save_file(State.new(3, seed=8), path)
    return path


# -- every command takes the shared options the same way --------------------------------------

def _params(name: str) -> dict[str, click.Parameter]:
    return {p.name: p for p in main.get_command(None, name).params}


SEEDED = ["new", "arena", "hint", "play"]
VARIANTED = ["new", "arena", "play"]
JSONED = ["show", "arena", "hint"]


@pytest.mark.parametrize("command", SEEDED)
def test_seed_is_one_option_everywhere(command):
    seed = _params(command)["seed"]
    assert seed.opts == ["--seed"] and not seed.secondary_opts
    assert isinstance(seed.type, click.IntRange)
    assert (seed.type.min, seed.type.max) == (0, 2**64 - 1)


@pytest.mark.parametrize("command", VARIANTED)
def test_variant_is_one_option_everywhere(command):
    variant = _params(command)["variant"]
    assert variant.opts == ["--variant"]
    assert tuple(variant.type.choices) == VARIANTS


@pytest.mark.parametrize("command", JSONED)
def test_json_is_one_flag_everywhere(command):
    flag = _params(command)["as_json"]
    assert flag.opts == ["--json"] and flag.is_flag and not flag.secondary_opts


@pytest.mark.parametrize("command", ["new", "arena"])
def test_players_is_one_option_everywhere(command):
    players = _params(command)["players"]
    assert sorted(players.opts) == ["--players", "-p"] and players.required
    assert (players.type.min, players.type.max) == (MIN_PLAYERS, MAX_PLAYERS)


def _invocation(command: str, position: Path, out: Path) -> list:
    """A successful, quick call of `command` taking --seed."""
    return {
        "new": ["new", "-p", 2, "-o", out],
        "arena": ["arena", "-p", 2, "--bot", "greedy", "--bot", "random", "-n", 2, "--json"],
        "hint": ["hint", position, "-i", 50, "--json"],
    }[command]


@pytest.mark.parametrize("command", ["new", "arena", "hint"])
def test_seed_forms_agree(command, position: Path, tmp_path: Path):
    """`--seed N` and `--seed=N` are the same option: the same output."""
    outputs = []
    for i, form in enumerate((["--seed", "7"], ["--seed=7"])):
        out = tmp_path / f"new{i}.json"
        result = run(*_invocation(command, position, out), *form)
        assert result.exit_code == 0, result.output
        outputs.append(out.read_text() if command == "new" else result.stdout)
    if command == "arena":                 # the same but for the think times, which vary
        outputs = [json.dumps(untimed(json.loads(o))) for o in outputs]
    assert outputs[0] == outputs[1]
    if command == "new":
        assert json.loads(outputs[0])["seed"] == 7


@pytest.mark.parametrize("command", SEEDED)
@pytest.mark.parametrize("value", ["-1", str(2**64), "x", "1.5"])
def test_bad_seed_is_a_usage_error(command, value, position: Path, tmp_path: Path):
    args = {"new": ["-p", 2, "-o", tmp_path / "n.json"], "arena": ["-p", 2, "--bot", "random",
            "-n", 2], "hint": [position], "play": []}[command]
    line = one_error_line(run(command, *args, "--seed", value))
    assert "--seed" in line
    assert not (tmp_path / "n.json").exists()


@pytest.mark.parametrize("command", VARIANTED)
def test_bad_variant_is_a_usage_error(command, tmp_path: Path):
    args = {"new": ["-p", 2, "-o", tmp_path / "n.json"], "arena": ["-p", 2, "--bot", "random",
            "-n", 2], "play": []}[command]
    line = one_error_line(run(command, *args, "--variant", "house"))
    assert "--variant" in line and "rulebook" in line


@pytest.mark.parametrize("form", [["--variant", "bga"], ["--variant=bga"]])
def test_variant_forms(form, tmp_path: Path):
    out = tmp_path / "g.json"
    assert run("new", "-p", 3, "--seed", 2, *form, "-o", out).exit_code == 0
    assert json.loads(out.read_text())["variant"] == "bga"
    result = run("arena", "-p", 2, "--bot", "random", "-n", 2, "--seed", 1, *form, "--json")
    assert result.exit_code == 0


@pytest.mark.parametrize("command", JSONED)
def test_json_prints_one_json_document(command, position: Path):
    args = {"show": [position], "hint": [position, "-i", 50],
            "arena": ["-p", 2, "--bot", "random", "-n", 2]}[command]
    result = run(command, *args, "--json")
    assert result.exit_code == 0, result.output
    assert isinstance(json.loads(result.stdout), dict)


# -- --level: a range type derived from the levels table --------------------------------------

@click.group(cls=EkonosGroup)
def _group() -> None:
    """A group with one command that takes every shared option."""


@_group.command()
@options.level_option(default=3)
@options.seed_option()
@options.variant_option()
@options.json_option("json")
def probe(level, seed, variant, as_json):
    click.echo(json.dumps([level, seed, variant, as_json]))


def test_level_range_follows_the_levels_table():
    assert (options.LEVEL.min, options.LEVEL.max) == (min(LEVELS), max(LEVELS))
    assert set(range(options.LEVEL.min, options.LEVEL.max + 1)) == set(LEVELS)


@pytest.mark.parametrize("value", ["0", str(max(LEVELS) + 1), "-3", "x", "2.5"])
def test_level_out_of_range_is_one_usage_error_line(value):
    result = CliRunner().invoke(_group, ["probe", "--level", value])
    line = one_error_line(result)
    assert "--level" in line


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_is_accepted(level):
    result = CliRunner().invoke(_group, ["probe", f"--level={level}", "--seed", "4", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [level, 4, "rulebook", True]


def test_help_example_epilog():
    text = options.example("ekonos show a.json", "ekonos show b.json")
    assert text.splitlines() == ["\b", "Example:", "  ekonos show a.json", "  ekonos show b.json"]


# -- declared once ----------------------------------------------------------------------------

def _cli_sources() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(CLI.rglob("*.py"))}


def _option_declarations(src: str) -> set[str]:
    """The flags of every `click.option(...)` / `option(...)` call in a source."""
    flags = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr",
                                                  getattr(node.func, "id", None)) == "option":
            flags |= {a.value for a in node.args if isinstance(a, ast.Constant)}
    return flags


@pytest.mark.parametrize("flag", ["--seed", "--json", "--variant", "--players", "--level"])
def test_shared_options_are_declared_once(flag):
    where = [p.relative_to(ROOT) for p, src in _cli_sources().items()
             if flag in _option_declarations(src)]
    assert where == [Path("cli/options.py")]


def test_no_command_range_checks_a_level_by_hand():
    """The commands leave --level to its click type (the game session below them may still
    check its own arguments, as an API does)."""
    commands = [CLI / "main.py", *sorted((CLI / "commands").glob("*.py"))]
    for path in commands:
        src = path.read_text(encoding="utf-8")
        assert not re.search(r"\bin\s+LEVELS\b(?!\s*\.)", src), path    # `level in LEVELS`


# -- imports: no cycle inside cli, layers one way ---------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The cli modules `path` imports, anywhere in the file (also inside functions)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        found |= {n for n in names if n in modules}
    return found


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in CLI.rglob("*.py")}
    return {m: _imports(p, set(paths)) - {m} for m, p in paths.items()}


def test_cli_import_graph_has_no_cycle():
    graph = _graph()
    assert {"cli.main", "cli.errors", "cli.options", "cli.commands.positions"} <= set(graph)
    state: dict[str, int] = {}          # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(n):] + [m, n]))
            if n not in state:
                visit(n, path + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_nothing_imports_main():
    assert [m for m, deps in _graph().items() if "cli.main" in deps] == []


@pytest.mark.parametrize("module", sorted(m for m in _graph() if m not in ("cli", "cli.main")))
def test_each_cli_module_imports_first_in_a_fresh_interpreter(module):
    """Importing any module before the group (and the group after it) works: the order a
    partial-import cycle would break."""
    code = (f"import {module}, cli.main; g = cli.main.main; "
            "assert all(g.get_command(None, n) for n in g.list_commands(None))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_search_does_not_import_cli():
    for path in (ROOT / "search").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            else:
                continue
            assert all(n.split(".")[0] != "cli" for n in names), (path, names)
