"""`ekonos ladder`: the schedule, the ladder file appended run after run, the
fit per player count with think times, the picture, and Ctrl-C keeping every finished game."""
import builtins
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab.ladder import (DEFAULT_SPECS, Table, interleave, next_run, parse_limit, schedule,
                               think_times)
from search.lab.ladder_fit import Ladder

ROOT = Path(__file__).resolve().parents[2]
CHEAP = ["--spec", "random", "--spec", "greedy", "--spec", "ismcts:iterations=20"]


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


# -- the schedule ----------------------------------------------------------------------------------

def test_default_specs_are_the_levels_and_references():
    assert DEFAULT_SPECS == ("random", "greedy", "level1", "level2", "level3", "baseline",
                             "level4")                    # level 5 retired (search/bots.py)


def test_two_player_pairs_reach_the_next_specs_and_windows_seat_neighbours():
    names = ["random", "greedy", "level1", "level2"]
    t2 = schedule(names, [2], 6, reach=2)
    assert [t.specs for t in t2] == [("random", "greedy"), ("random", "level1"),
                                     ("greedy", "level1"), ("greedy", "level2"),
                                     ("level1", "level2")]
    assert all(t.games == 6 and t.players == 2 for t in t2)
    t4 = schedule(names, [4], 6)
    assert [t.specs for t in t4] == [tuple(names)] and t4[0].games == 8   # whole blocks of 4
    t3 = schedule(names, [3], 3)
    assert [t.specs for t in t3] == [tuple(names[:3]), tuple(names[1:])]
    small = schedule(["random", "greedy"], [4], 4)
    assert [t.specs for t in small] == [("random", "greedy", "random", "greedy")]


def test_limits_cap_or_drop_the_tables_of_a_spec():
    names = ["random", "greedy", "level1", "level2"]
    tables = schedule(names, [2, 4], 20, reach=1,
                      limits=["level2=6", "4p:level1=0", "greedy = 3"])
    got = {(t.players, t.specs): t.games for t in tables}
    assert got == {(2, ("random", "greedy")): 4, (2, ("greedy", "level1")): 4,
                   (2, ("level1", "level2")): 6}
    assert parse_limit("4p:ismcts:iterations=5=2") == (4, "ismcts:iterations=5", 2)
    assert parse_limit("level5=0") == (None, "level5", 0)
    for bad in ("level5", "level5=x", "=3", "4p:=2"):
        with pytest.raises(ValueError):
            parse_limit(bad)
    with pytest.raises(ValueError, match="not one of the specs"):
        schedule(names, [2], 4, limits=["level5=2"])


def test_blocks_are_interleaved_so_a_stopped_run_covers_every_table():
    tables = [Table(("a", "b"), 2, 6), Table(("b", "c"), 2, 2), Table(("a", "b", "c"), 3, 6)]
    assert interleave(tables) == [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2)]


def test_table_seeds_depend_on_the_run_seed_and_the_table():
    a, b = Table(("random", "greedy"), 2, 2), Table(("greedy", "random"), 2, 2)
    assert a.seed(0) == a.seed(0) != a.seed(1) and a.seed(0) != b.seed(0)


# -- the command -----------------------------------------------------------------------------------

def test_a_run_then_a_second_run_appends_and_refits(tmp_path):
    path = tmp_path / "lad.json"
    r = run("ladder", "-f", path, *CHEAP, "-p", "2,4", "-n", 4, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    first = json.loads(r.stdout)
    lad = Ladder.load(path)
    # 2 players: 3 pairs (reach 2) of 4 games; 4 players: one table (3 specs repeated) of 4
    assert len(lad.games) == first["games"] == first["played"] == 3 * 4 + 4
    n1 = len(lad.games)
    assert {g["run"] for g in lad.games} == {0}
    seat = lad.games[0]["seats"][0]
    assert {"spec", "score", "decisions", "think", "think_median", "resolved"} <= set(seat)
    assert "think_times" not in seat          # the file keeps per-game totals, not every decision
    from search.bots import parse_params
    for g in lad.games:                # each seat records what its spec meant when it played
        for s in g["seats"]:
            assert parse_params(s["resolved"]) == parse_params(s["spec"].split("@")[0])
    r2 = run("ladder", "-f", path, *CHEAP, "-p", "2", "-n", 2, "--quiet", "--json")
    second = json.loads(r2.stdout)
    lad2 = Ladder.load(path)
    assert second["played"] == len(lad2.games) - n1 > 0 and second["games"] == len(lad2.games)
    assert lad2.games[:n1] == lad.games                       # appended, nothing rewritten
    assert {g["run"] for g in lad2.games[n1:]} == {1} and next_run(lad2) == 2
    assert {g["seed"] for g in lad2.games[n1:]} == {1}      # the run's number: new deals
    fits = second["fits"]
    assert set(fits) == {"all", "2", "4"}
    for name in fits:
        assert fits[name]["ratings"]["random"]["elo"] == 0.0
    assert fits["2"]["games"] + fits["4"]["games"] == len(lad2.games)
    assert fits["all"]["ratings"]["greedy"]["elo"] > 0
    assert second["think"]["random"]["median"] < second["think"]["ismcts:iterations=20"]["median"]


def test_games_zero_only_fits_the_file_and_the_anchor_can_move(tmp_path):
    path = tmp_path / "lad.json"
    run("ladder", "-f", path, *CHEAP, "-p", "2", "-n", 2, "--quiet")
    before = path.read_bytes()
    r = run("ladder", "-f", path, "-n", 0, "--anchor", "greedy", "--json")
    assert r.exit_code == 0 and path.read_bytes() == before
    out = json.loads(r.stdout)
    assert out["played"] == 0 and out["fits"]["2"]["ratings"]["greedy"]["elo"] == 0.0
    assert out["fits"]["2"]["ratings"]["random"]["elo"] < 0


def test_the_table_shows_elo_games_and_think_time(tmp_path):
    path = tmp_path / "lad.json"
    r = run("ladder", "-f", path, *CHEAP, "-p", "2,4", "-n", 4, "--quiet",
            env={"COLUMNS": "160"})
    assert r.exit_code == 0
    for words in ("Elo 2p", "Elo 4p", "games", "think/decision", "ismcts:iterations=20", " ± "):
        assert words in r.stdout, words


def test_png_draws_elo_against_think_time(tmp_path):
    pytest.importorskip("matplotlib", reason="the optional extra 'plot' (matplotlib)")
    path, png = tmp_path / "lad.json", tmp_path / "lad.png"
    r = run("ladder", "-f", path, *CHEAP, "-p", "2", "-n", 2, "--quiet", "--png", png)
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_picture_labels_a_redefined_level_short_and_apart():
    from cli.commands.ladder import plot_labels
    specs = ["level3", "level4 = ismcts:iterations=30000,c=0.7", "baseline",
             "level4 = ismcts:iterations=20000", "level5 = ismcts:iterations=100000"]
    assert plot_labels(specs) == {
        "level3": "level3", "baseline": "baseline",
        "level4 = ismcts:iterations=30000,c=0.7": "level4 (old)",
        "level4 = ismcts:iterations=20000": "level4 (old 2)",
        "level5 = ismcts:iterations=100000": "level5 (old)"}


def test_the_table_names_a_redefined_level_short_and_gives_its_meaning_below(tmp_path):
    def seat(spec, score, resolved):
        return {"decisions": 10, "think": 0.1, "think_median": 0.01, "spec": spec,
                "score": score, "resolved": resolved}
    games = [{"run": 0, "seed": 0, "players": 2, "variant": "rulebook", "table": 0, "block": 0,
              "number": k, "seats": [seat("random", 50 + k % 3 * 40, "random"),
                                     seat("level3", 100 - k % 2 * 60, "ismcts:iterations=7")]}
             for k in range(6)]
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "ekonos-ladder", "version": 1, "games": games}))
    r = CliRunner(env={"COLUMNS": "80"}).invoke(main, ["ladder", "-f", str(path), "--games", "0"])
    assert r.exit_code == 0, r.output
    assert "│ level3 (old) " in r.output and "level3 (old): ismcts:iterations=7" in r.output
    assert "…" not in r.output


def test_png_without_matplotlib_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    path = tmp_path / "lad.json"
    r = run("ladder", "-f", path, *CHEAP, "-n", 2, "--png", tmp_path / "x.png")
    assert r.exit_code == 2
    assert r.output.strip() == ("Error: --png needs the optional extra 'plot' (matplotlib): "
                                "pip install 'ekonos[plot]'")
    assert not path.exists()                      # refused before any game


@pytest.mark.parametrize("args, words", [
    (["--spec", "nonsense"], "unknown bot"),
    (["--player-counts", "2,9"], "player counts are 2 to 6"),
    (["--anchor", "level5", *CHEAP], "the anchor 'level5' is not in the ladder"),
    (["--limit", "level9=1", *CHEAP], "not one of the specs"),
    (["--spec", "random"], "at least two specs"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, words):
    path = tmp_path / "lad.json"
    r = run("ladder", "-f", path, "-n", 2, *args)
    assert r.exit_code == 2 and words in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1 and not path.exists()


def test_a_broken_ladder_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "lad.json"
    path.write_text('{"format": "something else"}')
    r = run("ladder", "-f", path, *CHEAP, "-n", 2)
    assert r.exit_code == 2 and "not a ladder file" in r.output
    assert path.read_text() == '{"format": "something else"}'


def test_think_times_are_medians_over_seat_games():
    lad = Ladder()
    lad.add([("a", 1), ("b", 2)], [{"decisions": 10, "think": 1.0, "think_median": 0.1},
                                   {"decisions": 10, "think": 0.1, "think_median": 0.01}])
    lad.add([("a", 1), ("b", 2)], [{"decisions": 30, "think": 9.0, "think_median": 0.3},
                                   {"decisions": 0, "think": 0.0, "think_median": 0.0}])
    lad.add([("a", 1), ("b", 2)])                  # a game without timings counts for nothing
    t = think_times(lad)
    assert t["a"] == {"median": pytest.approx(0.2), "mean": pytest.approx(10 / 40),
                      "decisions": 40}
    assert t["b"]["median"] == pytest.approx(0.01) and t["b"]["decisions"] == 10


def test_ctrl_c_keeps_every_finished_game_in_the_file(tmp_path):
    """A real SIGINT to a real `ekonos ladder` process: it prints the ratings of what was
    played, says how many games of this run are in the file, exits 130, and the file holds
    them (nothing lost)."""
    path = tmp_path / "lad.json"
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "sys.argv = ['ekonos'] + sys.argv[1:]; from cli.main import main; main()")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "ladder", "-f", str(path), "--spec", "random",
         "--spec", "greedy", "--spec", "ismcts:iterations=300", "-p", "2", "-n", "400",
         "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = proc.stderr.readline()                 # the start line: the games are under way
    assert "Ctrl-C stops and keeps the games played" in first
    while proc.poll() is None and not (path.exists() and Ladder.load(path).games):
        time.sleep(0.05)                           # the first save of games: under way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    report = json.loads(out)
    lad = Ladder.load(path)
    assert report["stopped"] == "interrupted" and 0 < report["played"] == len(lad.games) < 1600
    assert f"Interrupted: {report['played']} games of this run are in {path}." in err


def test_the_table_has_one_row_per_spec_whichever_counts_rated_it(tmp_path):
    """A spec missing from the first player count's fit but rated in two later ones is one
    row (it was one row per later count)."""
    from rich.console import Console
    from cli.commands.ladder import print_report
    r = {"elo": 10.0, "ci95": [0.0, 20.0], "games": 4}
    rep = {"games": 12, "anchor": "random", "think": {},
           "fits": {"2": {"ratings": {"random": r}},
                    "5": {"ratings": {"random": r, "level3 = ismcts:iterations=9": r}},
                    "6": {"ratings": {"random": r, "level3 = ismcts:iterations=9": r}}}}
    console = Console(record=True, width=160)
    print_report(rep, console, tmp_path / "ladder.json")
    rows = [line for line in console.export_text().splitlines() if "level3 (old)" in line]
    assert len(rows) == 2                  # its row in the table, and the line saying what it was
    assert rows[1] == "level3 (old): ismcts:iterations=9"
