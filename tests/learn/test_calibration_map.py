"""The calibration map of the search's win shares: fitted on pairs whose distortion is known in
advance (search/learn/calibration_fit.py), written as a file named by its content and read back
(search/calibration_map.py), refused when damaged, and made by `ekonos learn calibration-map`
from self-play folders."""
from __future__ import annotations

import inspect
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import search.learn
from cli.main import main
from search import calibration_map
from search.calibration_map import CalibrationError, WinCalibration
from search.learn import calibration

fit_mod = pytest.importorskip("search.learn.calibration_fit")

SPEC = "ismcts:iterations=20"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def distorted(seed: int, games: int, per_game: int, bend):
    """Synthetic pairs: per position a true chance t (uniform), its outcome drawn with chance t,
    and the prediction bend(t) (a known distortion); `per_game` positions a game."""
    rng = np.random.default_rng(seed)
    t = rng.random(games * per_game)
    realized = (rng.random(t.size) < t).astype(float)
    return bend(t), realized, np.repeat(np.arange(games), per_game), t


def overconfident(t):
    """Twice the log-odds: 0.3 reads as 0.155, 0.7 as 0.845 (an estimate sure of too much)."""
    z = 2 * np.log(t / (1 - t))
    return 1 / (1 + np.exp(-z))


def curve(knots) -> WinCalibration:
    return WinCalibration("", "", {4: tuple(np.array(k, dtype=float) for k in zip(*knots))})


def is_a_map(knots) -> bool:
    x, y = (np.array([k[i] for k in knots]) for i in (0, 1))
    return (x[0] == 0 and x[-1] == 1 and bool((np.diff(x) > 0).all())
            and bool((np.diff(y) >= 0).all()) and y.min() >= 0 and y.max() <= 1)


# -- the fit ------------------------------------------------------------------------------------

def test_a_known_distortion_is_undone_on_games_it_was_not_fitted_on():
    p, r, g, _ = distorted(1, 400, 100, overconfident)
    knots = fit_mod.fit_knots(p, r, g)
    assert is_a_map(knots)
    test_p, test_r, _, truth = distorted(2, 400, 100, overconfident)
    before = calibration.error(calibration.table(test_p, test_r))
    after = calibration.error(calibration.table(curve(knots).shares(test_p, 4), test_r))
    assert before > 0.05                 # the distortion shows ...
    assert after < 0.015                 # ... and is gone (sampling: about 0.005 a decile)
    # the map found is the distortion's inverse: 2x log-odds undone by halving them
    grid = np.linspace(0.05, 0.95, 19)
    inverse = 1 / (1 + np.exp(-np.log(grid / (1 - grid)) / 2))
    assert np.abs(curve(knots).shares(grid, 4) - inverse).max() < 0.04


def test_a_calibrated_estimate_is_left_about_as_it_was():
    p, r, g, _ = distorted(3, 400, 100, lambda t: t)
    grid = np.linspace(0.05, 0.95, 19)
    assert np.abs(curve(fit_mod.fit_knots(p, r, g)).shares(grid, 4) - grid).max() < 0.04


def test_a_handful_of_games_cannot_make_steps():
    """Three games of 300 positions, each game one outcome for all its positions: the bins'
    realized shares are 0 or 1, yet the map stays near the identity (pulled towards it as the
    data are few games)."""
    rng = np.random.default_rng(4)
    p = rng.random(900)
    g = np.repeat([0, 1, 2], 300)
    r = np.array([1.0, 0.0, 0.0])[g]
    knots = fit_mod.fit_knots(p, r, g)
    assert is_a_map(knots)
    grid = np.linspace(0, 1, 101)
    assert np.abs(curve(knots).shares(grid, 4) - grid).max() < 0.5
    assert np.abs(np.diff(curve(knots).shares(grid, 4))).max() < 0.1      # no step


@pytest.mark.parametrize("seed", range(6))
def test_every_fit_is_a_map_within_0_1_that_never_falls(seed):
    """Whatever the pairs, even an estimate that says the opposite of what happens, ties at
    0, 1 and 1/3, few pairs or none: x rises strictly from 0 to 1, y never falls, within
    [0, 1]."""
    rng = np.random.default_rng(seed)
    n = [0, 1, 7, 60, 3000, 20000][seed]
    p = rng.choice([0.0, 1 / 3, 1.0, 0.5], n) if seed % 2 else rng.random(n)
    r = (rng.random(n) < 1 - p).astype(float)                        # the opposite
    knots = fit_mod.fit_knots(p, r, rng.integers(0, max(1, n // 50), n))
    assert is_a_map(knots)
    calibration_map._knots(knots, "fit")                                # the reader agrees


def test_close_shares_are_not_torn_apart():
    """Many positions at nearly one share (1/3 at a 3-player start) whose outcomes differ a
    little with tiny differences of share: no two knots closer than a point of share, so two
    moves 0.1 points apart are shown less than a point apart."""
    rng = np.random.default_rng(7)
    p = 1 / 3 + rng.normal(0, 0.002, 40000)
    r = (rng.random(p.size) < 1 / 3 + 20 * (p - 1 / 3)).astype(float)   # steep, but tiny
    knots = fit_mod.fit_knots(p, r, np.arange(p.size) // 100)
    x = np.array([k[0] for k in knots])
    assert np.diff(x).min() >= 0.01
    c = curve(knots)
    assert abs(c.share(1 / 3 + 0.0005, 4) - c.share(1 / 3 - 0.0005, 4)) < 0.01


# -- the file -------------------------------------------------------------------------------------

def entry(knots) -> dict:
    return {"positions": 10, "games": 2, "knots": knots,
            "held_out": {"positions": 0, "games": 0, "error_before": None, "error_after": None,
                         "before": [], "after": []}}


def written(tmp_path: Path, players: dict | None = None) -> tuple[str, Path]:
    players = players or {"4": entry([[0.0, 0.0], [0.5, 0.3], [1.0, 1.0]])}
    text = fit_mod.map_text("ismcts:iterations=4000", "ekonos learn calibration-map x", [],
                            {"method": "test"}, players)
    return fit_mod.write_map(text, tmp_path)


def test_a_written_map_reads_back_and_maps_by_its_knots(tmp_path):
    name, path = written(tmp_path, {"4": entry([[0.0, 0.0], [0.5, 0.3], [1.0, 1.0]]),
                                    "2": entry([[0.0, 0.1], [1.0, 0.9]])})
    assert path == tmp_path / f"{name}.json" and calibration_map.NAME.fullmatch(name)
    m = calibration_map.read(path)
    assert m.name == name and m.spec == "ismcts:iterations=4000"
    assert m.share(0.5, 4) == pytest.approx(0.3) and m.share(0.75, 4) == pytest.approx(0.65)
    assert m.share(0.5, 2) == pytest.approx(0.5) and m.share(0.0, 2) == pytest.approx(0.1)
    assert m.share(0.42, 3) == 0.42                 # a count the map does not name: as said
    assert m.share(None, 4) is None
    assert m.shares(np.array([0.5, 0.5, 0.5]), np.array([4, 2, 3])).tolist() == \
        pytest.approx([0.3, 0.5, 0.5])
    assert calibration_map.load(str(path)) is calibration_map.load(str(path))   # read once


def test_the_map_reads_nothing_but_the_share_and_the_player_count():
    assert list(inspect.signature(WinCalibration.share).parameters) == ["self", "win", "players"]
    assert list(inspect.signature(WinCalibration.shares).parameters) == \
        ["self", "win", "players"]
    source = Path(calibration_map.__file__).read_text()
    assert "import State" not in source and "ekonos.state" not in source


def edited(path: Path, out: Path, change) -> Path:
    doc = json.loads(path.read_text())
    change(doc)
    out.write_text(json.dumps(doc))
    return out


@pytest.mark.parametrize("change,reason", [
    (lambda d: d.update(kind="linear-eval"), "kind 'linear-eval'"),
    (lambda d: d.update(format=2), "format 2"),
    (lambda d: d.update(spec=None), "spec"),
    (lambda d: d["players"].update({"7": d["players"]["4"]}), "player counts 2 to 6"),
    (lambda d: d["players"]["4"].update(knots=[[0, 0], [0.5, 0.6], [0.7, 0.4], [1, 1]]),
     "never fall"),
    (lambda d: d["players"]["4"].update(knots=[[0, 0], [0.5, 1.2], [1, 1]]), "within [0, 1]"),
    (lambda d: d["players"]["4"].update(knots=[[0, 0], [0.6, 0.5], [0.6, 0.6], [1, 1]]),
     "rise strictly from 0 to 1"),
    (lambda d: d["players"]["4"].update(knots=[[0.1, 0], [1, 1]]), "rise strictly from 0 to 1"),
    (lambda d: d["players"]["4"].update(knots=[[0, 0], [1, "1"]]), "pairs [x, y]"),
    (lambda d: d["players"]["4"].update(knots=[[0, 0]]), "2 to 1000 pairs"),
    (lambda d: d.pop("players"), "is not a calibration map"),
])
def test_a_damaged_map_is_refused_with_the_reason(tmp_path, change, reason):
    _, path = written(tmp_path)
    bad = edited(path, tmp_path / "bad.json", change)
    with pytest.raises(CalibrationError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        calibration_map.read(bad)


def test_bytes_that_do_not_hash_to_the_name_are_refused(tmp_path):
    _, path = written(tmp_path)
    path.write_text(path.read_text().replace("0.3", "0.35"))       # still a good curve
    with pytest.raises(CalibrationError, match="hash to .*not to the name it bears"):
        calibration_map.read(path)
    (tmp_path / "junk.json").write_bytes(b"\xff not json")
    with pytest.raises(CalibrationError, match="is not a calibration map"):
        calibration_map.read(tmp_path / "junk.json")
    with pytest.raises(CalibrationError, match="no shipped calibration map is named"):
        calibration_map.map_path("calib-000000000000")


def test_the_shipped_map_is_a_good_one_fitted_for_a_named_search():
    m = calibration_map.load()
    assert m.name == calibration_map.SHIPPED
    assert sorted(m.knots) == [2, 3, 4, 5, 6] and m.spec.startswith("ismcts:")
    doc = json.loads(calibration_map.map_path().read_text())
    assert doc["command"].startswith("ekonos learn calibration-map ")
    for n, e in doc["players"].items():          # measured on games it was not fitted on
        assert e["held_out"]["games"] > 0
        assert e["held_out"]["error_after"] < e["held_out"]["error_before"]


# -- the command --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("calib")
    out = []
    for n in (2, 3):
        r = run("learn", "selfplay", "-p", n, "-n", 8, "--spec", SPEC, "--seed", 1, "-o",
                root / f"p{n}", "--games-per-shard", 4, "-q")
        assert r.exit_code == 0, r.output
        out.append(root / f"p{n}")
    return out


def test_the_command_writes_a_map_named_by_its_content_and_says_how_it_did(folders, tmp_path):
    r = run("learn", "calibration-map", *folders, "-o", tmp_path, "--heldout", 0.5, "--seed", 3)
    assert r.exit_code == 0, r.output
    name = r.stdout.strip().splitlines()[-1]
    m = calibration_map.read(tmp_path / f"{name}.json")
    recorded = json.loads((folders[0] / "manifest.json").read_text())["spec"]
    assert sorted(m.knots) == [2, 3] and m.spec == recorded and recorded.startswith(SPEC)
    doc = json.loads((tmp_path / f"{name}.json").read_text())
    assert doc["kind"] == "win-calibration" and doc["fit"]["heldout"] == 0.5
    assert doc["command"].endswith("--heldout 0.5 --seed 3")
    assert [d["games"] for d in doc["data"]] == [8, 8]
    for n in ("2", "3"):
        h = doc["players"][n]["held_out"]
        assert f"{n} players: held-out calibration error {h['error_before']:.3f} -> " \
               f"{h['error_after']:.3f}" in r.output
        assert doc["players"][n]["games"] + h["games"] == 8     # split by game, none lost
        assert sum(row["count"] for row in h["after"]) == h["positions"]
    again = run("learn", "calibration-map", *folders, "-o", tmp_path / "again.json",
                "--heldout", 0.5, "--seed", 3)
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / f"{name}.json").read_bytes()
    fewer = run("learn", "calibration-map", folders[0], "-o", tmp_path / "fewer.json",
                "--games", 4)
    assert fewer.exit_code == 0, fewer.output
    assert json.loads((tmp_path / "fewer.json").read_text())["data"][0]["games"] == 4


def test_a_map_fitted_on_every_game_holds_nothing_out_and_says_so(folders, tmp_path):
    r = run("learn", "calibration-map", *folders, "-o", tmp_path / "all.json", "--heldout", 0)
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "all.json").read_text())
    for n in ("2", "3"):
        assert doc["players"][n]["games"] == 8                  # every game fitted on
        h = doc["players"][n]["held_out"]
        assert h["games"] == h["positions"] == 0 and h["error_before"] is None
        assert h["before"] == h["after"] == []
    assert "Traceback" not in r.output and "sections" not in r.output


def test_check_measures_a_map_on_the_games_it_was_not_fitted_on(folders, tmp_path):
    r = run("learn", "calibration-map", folders[0], "-o", tmp_path / "m.json", "--games", 4,
            "--heldout", 0.5, "--seed", 6)                       # two games a side
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "m.json").read_text())
    fitted_on = doc["players"]["2"]["positions"]
    held = doc["players"]["2"]["held_out"]
    r = run("learn", "calibration-map", folders[0], "--check", tmp_path / "m.json", "--games", 4)
    assert r.exit_code == 0, r.output
    # games 0-3 were read: those held out are measured, exactly as the fit measured them
    assert held["games"] == 2 and doc["players"]["2"]["games"] == 2
    assert f"{held['positions']} of {held['positions'] + fitted_on} positions (the games " \
           f"the map was not fitted on)" in r.output
    assert f"2 players: calibration error {held['error_before']:.3f} -> " \
           f"{held['error_after']:.3f}" in r.output
    # every game: those recorded after the map's games count too; another run's folder: all
    r = run("learn", "calibration-map", *folders, "--check", tmp_path / "m.json")
    assert r.exit_code == 0, r.output
    sizes = [json.loads((f / "manifest.json").read_text())["positions"] for f in folders]
    assert f"{sizes[0] - fitted_on} of {sizes[0]} positions (the games the map was not " \
           f"fitted on)" in r.output
    assert f"{sizes[1]} of {sizes[1]} positions (not in the map's data: every game)" in r.output
    r = run("learn", "calibration-map", *folders, "--check", tmp_path / "m.json", "-o", tmp_path)
    assert r.exit_code == 2 and "-o DIR|FILE to fit a map, or --check MAP" in r.output


def test_check_counts_the_games_of_two_folders_numbered_alike(folders, tmp_path):
    r = run("learn", "calibration-map", folders[0], "-o", tmp_path / "m.json")
    assert r.exit_code == 0, r.output
    again = tmp_path / "again"                          # a second run numbers from 0 as well
    shutil.copytree(folders[1], again)
    r = run("learn", "calibration-map", folders[1], again, "--check", tmp_path / "m.json")
    assert r.exit_code == 0, r.output
    positions = 2 * json.loads((folders[1] / "manifest.json").read_text())["positions"]
    assert f"({positions} positions of 16 games)" in r.output


def test_bad_input_is_one_error_line(folders, tmp_path):
    other = tmp_path / "other"
    r = run("learn", "selfplay", "-p", 2, "-n", 4, "--spec", "ismcts:iterations=30", "--seed",
            1, "-o", other, "-q")
    assert r.exit_code == 0, r.output
    for args, reason in [((folders[0], other), "different searches"),
                         ((tmp_path / "none",), "none"),
                         ((folders[0],), "no folder")]:
        out = tmp_path / "x" / "m.json" if reason == "no folder" else tmp_path
        r = run("learn", "calibration-map", *args, "-o", out)
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error:") and reason in lines[0]


def test_without_scipy_the_command_says_what_to_install(folders, tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "search.learn.calibration_fit", raising=False)
    monkeypatch.delattr(search.learn, "calibration_fit", raising=False)
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    r = run("learn", "calibration-map", *folders, "-o", tmp_path)
    assert r.exit_code == 2
    assert r.output.startswith("Error:") and "pip install 'ekonos[calibrate]'" in r.output
