"""`ekonos hint` and `ekonos arena` through the real command (CliRunner)."""
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State, save_file
from ekonos.errors import EkonosError
from ekonos.rules import Step
from search.analysis import JUDGE_FLOOR, analyse, level_params
from search.bots import LEVELS
from search.lab.arena import untimed


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def midgame(tmp_path: Path, players=3, seed=6, decisions=25) -> Path:
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        st.push(rng.choice(st.legal_actions()))
    while st.step is not Step.CARD:          # a card step, so the hand matters
        st.push(st.legal_actions()[-1])
    path = tmp_path / "mid.json"
    save_file(st, path)
    return path


@pytest.mark.parametrize("level", [None, 1, 4])    # the default (3), the plain search, level 4
def test_r21_hint_json_identical_with_hidden_hands_removed(tmp_path, level):
    full = midgame(tmp_path)
    data = json.loads(full.read_text())
    for q, p in enumerate(data["players"]):
        if q != data["to_move"]:
            p["hand"] = None
    stripped = tmp_path / "stripped.json"
    stripped.write_text(json.dumps(data))
    more = () if level is None else ("--level", level)
    a = run("hint", full, "--iterations", 1500, "--seed", 4, "--top", 4, "--json", *more)
    b = run("hint", stripped, "--iterations", 1500, "--seed", 4, "--top", 4, "--json", *more)
    assert a.exit_code == 0 and b.exit_code == 0
    assert a.output == b.output
    out = json.loads(a.output)
    assert out["to_move"] == data["to_move"] and out["step"] == "card"
    assert len(out["moves"]) == 4
    st = State.from_dict(data)
    for m in out["moves"]:
        assert m["move"] in st.legal_moves.texts()
        assert 0 <= m["win"] <= 1 and m["visits"] > 0 and isinstance(m["line"], list)
    visits = [m["visits"] for m in out["moves"]]
    assert visits == sorted(visits, reverse=True)


def test_hint_for_a_person(tmp_path):
    r = run("hint", midgame(tmp_path), "-i", 800, "--top", 2)
    assert r.exit_code == 0
    assert "to decide" in r.output and "visits" in r.output


def test_hint_says_when_it_cannot_tell_its_moves_apart(tmp_path):
    """At a 3-player game's start no one can call the winner: the level-3 search's win shares
    come out alike, and the hint says so instead of ranking by noise; a 2-player middle game
    with plain playouts tells its moves apart, and the hint says nothing more.  `even` reads
    the search's own figures (win_raw), not the calibrated ones shown."""
    start = tmp_path / "start.json"
    save_file(State.new(3, seed=3), start)
    out = json.loads(run("hint", start, "-i", 3000, "--json").output)
    wins = [m["win_raw"] for m in out["moves"]]
    assert out["even"] is True and max(wins) - min(wins) < 0.01
    table = run("hint", start, "-i", 3000)
    assert table.exit_code == 0 and "cannot tell them apart" in " ".join(table.output.split())
    mid = midgame(tmp_path, players=2, decisions=40)
    out = json.loads(run("hint", mid, "-i", 3000, "--level", 1, "--json").output)
    wins = [m["win_raw"] for m in out["moves"]]
    assert out["even"] is False and max(wins) - min(wins) >= 0.01
    assert "cannot tell" not in run("hint", mid, "-i", 3000, "--level", 1).output


@pytest.mark.parametrize("case, words", [
    ("over", "game is over"), ("unknown-hand", "does not give their hand"),
    ("missing", "no such file"), ("bad-json", "not valid JSON"),
])
def test_hint_refuses_with_one_line(tmp_path, case, words):
    path = tmp_path / "p.json"
    if case == "over":
        st = State.new(2, seed=1)
        st.random_playout(3)
        save_file(st, path)
    elif case == "unknown-hand":
        data = json.loads(midgame(tmp_path).read_text())
        data["players"][data["to_move"]]["hand"] = None
        path.write_text(json.dumps(data))
    elif case == "bad-json":
        path.write_text("{ nope")
    before = path.read_text() if path.exists() else None
    r = CliRunner().invoke(main, ["hint", str(path), "-i", "100"])
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.output
    assert (path.read_text() if path.exists() else None) == before


def test_hint_searches_as_its_level_does(tmp_path):
    """--level N: that level's parameters (level 3's by default, the learned evaluation), and
    its budget when it is more than the judge's floor (search.analysis.JUDGE_FLOOR)."""
    path = midgame(tmp_path, players=2, seed=8, decisions=12)
    state = State.from_json(path.read_text())
    for level in (1, 3):
        out = json.loads(run("hint", path, "-i", 2000, "--level", level, "--json").output)
        assert out["moves"] == analyse(state, iterations=2000, params=level_params(level))["moves"]
    assert run("hint", path, "-i", 2000, "--json").output == \
        run("hint", path, "-i", 2000, "--json", "--level", 3).output
    assert level_params(3)["horizon"] == 1 and level_params(1)["horizon"] == 0
    assert f"{JUDGE_FLOOR} iterations" in run("hint", path, "--level", 1).output
    top = max(LEVELS)                    # level 4: 75 000 iterations, more than the floor
    assert level_params(top)["iterations"] > JUDGE_FLOOR
    out = run("hint", path, "--level", top).output
    assert f"{level_params(top)['iterations']} iterations" in out


@pytest.mark.parametrize("columns, shown", [
    (36, ("win",)), (60, ("visits", "win", "score")),
    (100, ("visits", "win", "score", "expected continuation"))])
def test_hint_table_keeps_moves_whole_on_a_narrow_screen(tmp_path, columns, shown):
    path = midgame(tmp_path)
    moves = json.loads(run("hint", path, "-i", 1500, "--json").output)["moves"]
    r = CliRunner(env={"COLUMNS": str(columns)}).invoke(main, ["hint", str(path), "-i", "1500"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert all(len(line) <= columns for line in lines)
    assert "…" not in r.output
    for m in moves:       # each move on one line with its win share
        assert any(m["move"] in line and f"{m['win']:.1%}" in line for line in lines)
    for col in ("visits", "score", "expected continuation"):
        assert (col in r.output) == (col in shown)


def test_hint_refuses_a_level_that_does_not_exist(tmp_path):
    r = CliRunner().invoke(main, ["hint", str(midgame(tmp_path)), "--level", "9"])
    assert r.exit_code == 2 and "--level" in r.output and "Traceback" not in r.output
    with pytest.raises(EkonosError, match="there is no level 9"):
        level_params(9)


def test_hint_budget_conflict_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(main, ["hint", str(midgame(tmp_path)), "-i", "10", "--time", "1"])
    assert r.exit_code == 2 and "cannot be used together" in r.output


def test_arena_json_is_reproducible_and_complete():
    args = ["arena", "-p", "3", "--bot", "greedy", "--bot", "random", "--bot", "random",
            "-n", "6", "--seed", "9", "--json"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0 and b.exit_code == 0
    out = json.loads(a.output)
    assert untimed(out) == untimed(json.loads(b.output))   # all but the think times
    assert [x["bot"] for x in out["bots"]] == ["greedy", "random"]
    greedy, rnd = out["bots"]
    assert greedy["games"] == 6 and rnd["games"] == 12
    for x in out["bots"]:
        assert set(x) == {"bot", "games", "win_share", "ci95", "mean_score", "mean_rank", "think",
                          "blocks"}
        assert set(x["think"]) == {"decisions", "median", "p95", "mean"}
        assert x["ci95"][0] <= x["win_share"] <= x["ci95"][1]
        # per block of 3 games: the bot's wins and seat-games, adding up to its games and share
        assert len(x["blocks"]) == 2 and sum(c for _, c in x["blocks"]) == x["games"]
        assert sum(w for w, _ in x["blocks"]) == pytest.approx(x["win_share"] * x["games"])
    assert greedy["win_share"] * 6 + rnd["win_share"] * 12 == pytest.approx(6)


def test_arena_table_for_a_person():
    r = run("arena", "-p", "2", "--bot", "greedy", "--bot", "random", "-n", "2")
    assert r.exit_code == 0 and "95% interval" in r.output and "greedy" in r.output


@pytest.mark.parametrize("args, words", [
    (["--bot", "nonsense"], "unknown bot"),
    (["--bot", "ismcts:c=abc"], "not a float"),
    (["--bot", "ismcts:horizon=1,model=/no/such/model.json"], "no such file"),
    (["--bot", "random"] * 3, "3 --bot options for 2 players"),
])
def test_arena_bad_specs(args, words):
    r = CliRunner().invoke(main, ["arena", "-p", "2", "-n", "2", *args])
    assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1


def test_hint_prints_a_markup_like_name_literally(tmp_path):
    st = State.new(3, seed=1)
    names = ["Ann", "Cy", "Di"]
    names[st.to_move] = "[/]"
    names[(st.to_move + 1) % 3] = "[red]Bo"
    path = tmp_path / "markup.json"
    save_file(State.new(3, seed=1, names=names), path)
    r = CliRunner().invoke(main, ["hint", str(path), "-i", "200", "--top", "2"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("[/] (seat ") and "to decide" in r.output


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e400", "0", "-1"])
def test_hint_time_must_be_a_positive_finite_number(tmp_path, value):
    """`--time nan` (and inf) used to pass click's FloatRange and never
    return; now every non-finite or non-positive budget is one usage-error line."""
    path = midgame(tmp_path)
    before = path.read_bytes()
    r = CliRunner().invoke(main, ["hint", str(path), "--time", value])
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "--time" in lines[0]
    assert path.read_bytes() == before


def test_arena_help_lists_every_registered_bot_and_its_defaults():
    """The arena's help comes from the bots' registration: a new bot or default shows by itself."""
    from search.bots import BOTS, LEVELS
    r = CliRunner().invoke(main, ["arena", "--help"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    for name, cls in BOTS.items():
        assert f"\n    {name} " in r.output, name
        for field in getattr(cls, "Params", None).__dataclass_fields__.values() \
                if getattr(cls, "Params", None) else ():
            assert f"{field.name}=" in r.output, (name, field.name)
    for level in LEVELS:
        assert f"level{level}" in r.output


def test_moves_alike_in_win_share_but_not_in_score_are_not_even():
    """The words "any of them is about as good" were once said of rows one of which scored 2 points
    less; alike win shares (a decided game) are not enough."""
    from search.analysis import EVEN_SCORE_MARGIN, even
    rows = [{"win": 0.0, "win_raw": 0.001, "score": 49.3}, {"win": 0.0, "win_raw": 0.002,
                                                             "score": 49.1}]
    assert even(rows)
    rows[1]["score"] = 49.3 - EVEN_SCORE_MARGIN - 1.0
    assert not even(rows)
    rows[1]["score"], rows[1]["win_raw"] = 49.3, 0.02           # a point of win share apart
    assert not even(rows)
