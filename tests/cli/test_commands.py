"""The `ekonos` commands (cli/commands/) and the renderers (cli/render/, ekonos/render.py).

Success paths and exit statuses of every command; bad input of each kind gives exit status 2,
exactly one line on stderr, no traceback, and leaves every file as it was.
"""
from __future__ import annotations

import ast
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.main import main
from cli.render import (MAP_LAYOUT, MAP_POSITION, map_text, render_state, summarize_moves,
                        summary_dict)
from ekonos import State, load_file
from ekonos.rules import ADJACENCY, COMPANIES, NUM_SPACES, Step

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` with its bytes, to check that nothing was written."""
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def assert_bad_input(result, before: dict, directory: Path) -> str:
    """Exit 2, one line on stderr, no traceback, nothing on stdout, no file changed."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert snapshot(directory) == before
    return lines[0]


def random_texts(st: State, count: int, seed: int) -> list[str]:
    """`count` random legal decisions from a copy of `st`, as canonical texts."""
    st = st.copy()
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        if st.is_over():
            break
        text = rng.choice(st.legal_moves.texts())
        st.push_text(text)
        texts.append(text)
    return texts


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = run("new", "--players", 3, "--seed", 42, "-o", path)
    assert result.exit_code == 0, result.output
    return path


# -- the map layout ---------------------------------------------------------------------------


def test_map_layout_has_every_space_once():
    spaces = [sp for row in MAP_LAYOUT for sp in row if sp is not None]
    assert sorted(spaces) == list(range(1, NUM_SPACES + 1))
    assert len({len(row) for row in MAP_LAYOUT}) == 1


def test_map_layout_puts_neighbours_in_touching_cells():
    for a, nbrs in ADJACENCY.items():
        ra, ca = MAP_POSITION[a]
        for b in nbrs:
            rb, cb = MAP_POSITION[b]
            assert max(abs(ra - rb), abs(ca - cb)) == 1, (a, b)


def test_map_drawing_has_one_connector_per_edge():
    text = map_text({}).plain
    edges = sum(len(v) for v in ADJACENCY.values()) // 2
    connectors = text.count("──") + text.count("│") + text.count("╲") + text.count("╱")
    assert "╳" not in text
    assert connectors == edges == 62


def test_map_shows_company_and_protection():
    text = map_text({"12": "Crown", "9": "Hydra!"}).plain
    assert "12 Cro " in text and " 9 Hyd!" in text


# -- new --------------------------------------------------------------------------------------


def test_new_saves_a_dealt_game(game: Path):
    st = load_file(State, game)
    assert st == State.new(3, seed=42)
    assert st.seed == 42 and st.round == 1 and st.step is Step.CARD
    assert all(st.hand(q) is not None and len(st.hand(q)) == 6 for q in range(3))


def test_new_with_names_and_variant(tmp_path: Path):
    out = tmp_path / "g.json"
    result = run("new", "--players", 4, "--names", "Ann,Bo,Cy,Di", "--variant", "bga",
                 "--seed", 3, "-o", out)
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 1 and str(out) in result.stdout
    st = load_file(State, out)
    assert st.names == ["Ann", "Bo", "Cy", "Di"] and st.variant == "bga"
    assert st == State.new(4, seed=3, names=["Ann", "Bo", "Cy", "Di"], variant="bga")


def test_new_without_seed_records_one(tmp_path: Path):
    out = tmp_path / "g.json"
    assert run("new", "-p", 2, "-o", out).exit_code == 0
    data = json.loads(out.read_text())
    assert isinstance(data["seed"], int)


def test_new_refuses_to_overwrite_unless_forced(game: Path):
    before = snapshot(game.parent)
    line = assert_bad_input(run("new", "-p", 2, "--seed", 1, "-o", game), before, game.parent)
    assert "--force" in line and str(game) in line
    result = run("new", "-p", 2, "--seed", 1, "-o", game, "--force")
    assert result.exit_code == 0
    assert load_file(State, game) == State.new(2, seed=1)


@pytest.mark.parametrize("args", [
    ["--players", 7],
    ["--players", "x"],
    ["--players", 3, "--names", "A,B"],
    ["--players", 3, "--names", "A,a,B"],
    ["--players", 3, "--variant", "house"],
    ["--players", 3, "--seed", -1],
    ["--players", 3, "--bogus"],
    [],
])
def test_new_bad_input(tmp_path: Path, args):
    before = snapshot(tmp_path)
    out = tmp_path / "new.json"
    extra = [] if args == [] else ["-o", out]
    assert_bad_input(run("new", *args, *extra), before, tmp_path)


def test_new_into_missing_directory(tmp_path: Path):
    before = snapshot(tmp_path)
    line = assert_bad_input(run("new", "-p", 2, "-o", tmp_path / "no" / "g.json"), before,
                            tmp_path)
    assert "no/g.json" in line          # names the file asked for, not a temporary file


# -- show -------------------------------------------------------------------------------------


def test_show_renders_the_position(game: Path):
    result = run("show", game)
    assert result.exit_code == 0, result.output
    out = result.stdout
    st = load_file(State, game)
    for name in st.names:
        assert name in out
    for c in COMPANIES:
        assert c in out
    assert "Map" in out and "Market" in out and "Hand of " + st.names[st.to_move] in out
    assert "round 1 of 4" in out
    for card in st.hand(st.to_move):
        assert f"\n│ {card:>2} " in out        # every card of the hand, one line each
    assert "\x1b[" not in out                  # no colour codes when not on a terminal


def test_show_json(game: Path):
    result = run("show", game, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    st = load_file(State, game)
    assert data["step"] == "card" and data["to_move"] == st.to_move and data["round"] == 1
    assert data["values"] == {c: 0 for c in COMPANIES}
    assert data["scores"] == [12, 12, 12]
    assert data["winners"] == []
    assert data["legal"] == st.legal_moves.texts()
    assert data["hand"] == st.hand(st.to_move)


def test_show_a_position_without_hands(tmp_path: Path):
    st = State.new(4, seed=9)
    path = tmp_path / "view.json"
    other = (st.to_move + 1) % 4
    path.write_text(st.view(other).to_json())
    result = run("show", path)
    assert result.exit_code == 0
    assert "not known in this position" in result.stdout
    assert json.loads(run("show", path, "--json").stdout)["hand"] is None


def test_every_step_renders():
    """Random games; each step kind is rendered the first times it occurs in a game (rich
    rendering is slow, so not every decision)."""
    steps = set()
    for seed in range(12):
        st = State.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        seen: dict[Step, int] = {}
        while True:
            steps.add(st.step)
            seen[st.step] = seen.get(st.step, 0) + 1
            if seen[st.step] <= 2:
                console = Console(file=io.StringIO(), width=80, force_terminal=True)
                console.print(render_state(st))
                console.print(render_state(st.view(0)))
                json.dumps(summary_dict(st))
                assert str(st)
            if st.is_over():
                break
            st.push(rng.choice(list(st.legal_moves)))
    assert steps >= {Step.CARD, Step.SELL, Step.BUY, Step.EXPAND_CHOICE, Step.EXPAND, Step.OVER}


# -- apply ------------------------------------------------------------------------------------


def test_new_apply_show_agree_with_the_engine(game: Path):
    st = load_file(State, game)
    texts = random_texts(st, 25, seed=5)
    result = run("apply", game, *texts, "-o", game)
    assert result.exit_code == 0, result.output
    for t in texts:
        st.push_text(t)
    data = json.loads(run("show", game, "--json").stdout)
    assert data["step"] == str(st.step)
    assert data["to_move"] == st.to_move
    assert data["round"] == st.round
    assert data["values"] == {c: sum(1 for v in st.to_dict()["board"].values()
                                     if v.rstrip("!") == c) for c in COMPANIES}
    assert data["scores"] == st.scores()
    assert data["legal"] == st.legal_moves.texts()
    assert load_file(State, game) == st


def test_apply_a_whole_game_then_winners(game: Path):
    st = load_file(State, game)
    texts = random_texts(st, 10_000, seed=11)
    result = run("apply", game, *texts, "-o", game)
    assert result.exit_code == 0, result.output
    assert "game is over" in result.stdout
    for t in texts:
        st.push_text(t)
    data = json.loads(run("show", game, "--json").stdout)
    assert data["step"] == "over" and data["to_move"] is None
    assert data["winners"] == st.winners() != []
    assert data["scores"] == st.scores()
    assert data["legal"] == []
    assert "Game over" in run("show", game).stdout


def test_apply_prints_json_without_output(game: Path):
    before = snapshot(game.parent)
    st = load_file(State, game)
    texts = random_texts(st, 3, seed=1)
    result = run("apply", game, *texts)
    assert result.exit_code == 0
    for t in texts:
        st.push_text(t)
    assert State.from_json(result.stdout) == st
    assert snapshot(game.parent) == before          # FILE itself untouched


def test_apply_accepts_prefixes_and_case(game: Path):
    st = load_file(State, game)
    card = st.hand(st.to_move)[0]
    result = run("apply", game, f"PLAY {card} place 1")
    assert result.exit_code == 0, result.output


def test_apply_to_another_file_refuses_overwrite_unless_forced(game: Path, tmp_path: Path):
    other = tmp_path / "other.json"
    other.write_text("keep me")
    st = load_file(State, game)
    move = random_texts(st, 1, seed=2)[0]
    before = snapshot(tmp_path)
    line = assert_bad_input(run("apply", game, move, "-o", other), before, tmp_path)
    assert "--force" in line
    assert run("apply", game, move, "-o", other, "--force").exit_code == 0
    st.push_text(move)
    assert load_file(State, other) == st
    new = tmp_path / "fresh.json"
    assert run("apply", game, move, "-o", new).exit_code == 0
    assert load_file(State, new) == st


def test_apply_illegal_move_gives_reason_and_legal_moves(game: Path):
    st = load_file(State, game)
    not_mine = next(c for c in range(1, 37) if c not in st.hand(st.to_move))
    before = snapshot(game.parent)
    line = assert_bad_input(run("apply", game, f"play {not_mine} place 1", "-o", game),
                            before, game.parent)
    assert f"card {not_mine} is not in" in line
    assert "legal here: play " in line
    assert len(line) < 600


def test_apply_stops_at_the_first_bad_move_and_writes_nothing(game: Path, tmp_path: Path):
    st = load_file(State, game)
    good = random_texts(st, 2, seed=3)
    out = tmp_path / "out.json"
    before = snapshot(tmp_path)
    line = assert_bad_input(run("apply", game, *good, "sell Nowhere", "-o", out), before,
                            tmp_path)
    assert "move 3 of 3 'sell Nowhere'" in line and "not a company" in line


def test_apply_card_play_with_unknown_hand(tmp_path: Path):
    st = State.new(3, seed=4)
    path = tmp_path / "view.json"
    path.write_text(st.view((st.to_move + 1) % 3).to_json())   # the mover's hand is unknown
    before = snapshot(tmp_path)
    line = assert_bad_input(run("apply", path, "play 1 place 1", "-o", path), before, tmp_path)
    assert "not known" in line


def test_apply_unquoted_move_hint(game: Path):
    before = snapshot(game.parent)
    line = assert_bad_input(run("apply", game, "play", "4", "place", "1"), before, game.parent)
    assert "quote each move" in line


def test_apply_when_over(game: Path):
    st = load_file(State, game)
    texts = random_texts(st, 10_000, seed=7)
    assert run("apply", game, *texts, "-o", game).exit_code == 0
    before = snapshot(game.parent)
    line = assert_bad_input(run("apply", game, "pass"), before, game.parent)
    assert "over" in line


# -- bad input, every command -----------------------------------------------------------------


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    good = State.new(3, seed=1).to_dict()
    impossible = json.loads(json.dumps(good))
    impossible["players"][1]["coins"] = -5
    too_many = json.loads(json.dumps(good))
    too_many["board"] = {str(i): "Sunset" for i in range(1, 12)}
    files = {
        "missing": tmp_path / "missing.json",
        "bad-json": tmp_path / "bad.json",
        "not-position": tmp_path / "list.json",
        "impossible": tmp_path / "impossible.json",
        "too-many-tiles": tmp_path / "tiles.json",
        "directory": tmp_path / "adir",
        "binary": tmp_path / "binary.json",
    }
    files["bad-json"].write_text('{"format": "ekonos-position", ')
    files["not-position"].write_text("[1, 2, 3]")
    files["impossible"].write_text(json.dumps(impossible))
    files["too-many-tiles"].write_text(json.dumps(too_many))
    files["directory"].mkdir()
    files["binary"].write_bytes(b"\xff\xfe\x00garbage")
    return files


KINDS = ["missing", "bad-json", "not-position", "impossible", "too-many-tiles", "directory",
         "binary"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [["show"], ["show", "--json"], ["apply", "pass"],
                                     ["apply", "pass", "-o", "SAME"]])
def test_bad_files(tmp_path: Path, kind: str, command: list[str]):
    path = _bad_files(tmp_path)[kind]
    args = [command[0], path, *[path if a == "SAME" else a for a in command[1:]]]
    before = snapshot(tmp_path)
    line = assert_bad_input(run(*args), before, tmp_path)
    assert path.name in line


def test_bad_file_messages_name_field(tmp_path: Path):
    files = _bad_files(tmp_path)
    assert "players[1].coins" in run("show", files["impossible"]).stderr
    assert "Sunset has 11 tiles" in run("show", files["too-many-tiles"]).stderr
    assert "not valid JSON" in run("show", files["bad-json"]).stderr
    assert "no such file" in run("show", files["missing"]).stderr


@pytest.mark.parametrize("args", [
    ["show", "GAME", "--bogus"],
    ["show"],
    ["apply", "GAME"],
    ["apply", "GAME", "pass", "--bogus"],
    ["apply", "GAME", "jump 3"],
    ["apply", "GAME", "play 99 place 1"],
    ["apply", "GAME", "sell Sun"],
    ["apply", "GAME", ""],
    ["frobnicate"],
    ["--bogus"],
])
def test_bad_arguments(game: Path, args):
    before = snapshot(game.parent)
    assert_bad_input(run(*[game if a == "GAME" else a for a in args]), before, game.parent)


# -- help, play, bare command -----------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["new"], ["show"], ["apply"]])
def test_help_ends_with_an_example(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    lines = [ln.strip() for ln in result.stdout.strip().splitlines()]
    i = lines.index("Example:")
    assert lines[i + 1:] and all(ln.startswith("ekonos ") for ln in lines[i + 1:])


@pytest.mark.parametrize("name", main.list_commands(None))
def test_every_command_help_has_an_example(name):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout and f"ekonos {name} " in result.stdout


def test_core_commands_are_registered():
    assert {"new", "show", "apply", "play"} <= set(main.list_commands(None))


def test_bare_command_shows_help():
    result = run()
    assert result.exit_code == 0 and "Commands:" in result.stdout


# -- summaries and plain text -----------------------------------------------------------------


def test_summarize_moves_merges_and_truncates():
    texts = [f"play 4 place {i}" for i in (1, 2, 3, 5)] + ["play 4 protect 9",
                                                           "play 4 grow Crown"]
    assert summarize_moves(texts) == "play 4 place 1-3,5 or protect 9 or grow Crown"
    assert summarize_moves(["place 3", "place 4", "stop"]) == "place 3,4; stop"
    many = [f"successor {i}" for i in range(20)]
    assert summarize_moves(many, max_groups=3) == "successor 0; successor 1; successor 2; " \
                                                   "... 17 more"


def test_render_text_is_plain_and_short():
    st = State.new(3, seed=2)
    text = str(st)
    assert "\x1b" not in text and len(text.splitlines()) <= 12
    assert "Anna" in text and "round 1/4" in text


# -- layers -----------------------------------------------------------------------------------


def test_ekonos_imports_neither_cli_nor_search():
    for path in (ROOT / "ekonos").glob("*.py*"):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(source)):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                for name in names:
                    assert name.split(".")[0] not in ("cli", "search"), (path, name)
        else:
            for line in source.splitlines():
                words = line.split()
                if words[:1] in (["import"], ["from"], ["cimport"]) and len(words) > 1:
                    assert words[1].split(".")[0] not in ("cli", "search"), (path, line)


def test_names_that_look_like_markup_are_shown_as_written():
    from rich.console import Console

    from cli.render import render_state, scorepad
    st = State.new(3, seed=1, names=["[bold]Ann", "Bo[/]", "Cy"])
    st.random_playout(2)
    console = Console(width=160, record=True)
    console.print(render_state(st))
    console.print(scorepad(st))
    text = console.export_text()
    assert text.count("[bold]Ann") >= 3 and text.count("Bo[/]") >= 3


def _markup_named_game(tmp_path: Path) -> Path:
    """A 3-player game whose seat to move is called `[/]` (rich's closing tag) and another
    `[red]Bo`: names are text and must print as written, never as markup."""
    to_move = State.new(3, seed=1).to_move
    names = ["Ann", "Cy", "Di"]
    names[to_move] = "[/]"
    names[(to_move + 1) % 3] = "[red]Bo"
    path = tmp_path / "markup.json"
    result = run("new", "-p", 3, "--seed", 1, "--names", ",".join(names), "-o", path)
    assert result.exit_code == 0, result.output
    assert load_file(State, path).names == names
    return path


def test_show_prints_markup_like_names_literally(tmp_path: Path):
    path = _markup_named_game(tmp_path)
    result = run("show", path)
    assert result.exit_code == 0, result.output
    assert "Hand of [/]" in result.stdout and "[/] to decide" in result.stdout
    assert result.stdout.count("[red]Bo") >= 2           # the market and the players tables
