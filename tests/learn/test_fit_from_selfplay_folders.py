"""The linear evaluation refitted from self-play folders: their games replayed from the deal
with the moves recorded give the round starts and the company values at the end."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State
from search.learn.selfplay import DatasetError, replay_round_starts

SPEC = "ismcts:iterations=30"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("selfplay")
    out = []
    for players in (2, 5):
        folder = root / f"p{players}"
        r = CliRunner().invoke(main, ["learn", "selfplay", "-p", str(players), "-n", "4",
                                      "--spec", SPEC, "--seed", "3", "-o", str(folder),
                                      "--games-per-shard", "2", "-q"])
        assert r.exit_code == 0, r.output
        out.append(folder)
    return out


def test_replayed_round_starts_are_the_games(folders):
    for folder, players in zip(folders, (2, 5)):
        s = replay_round_starts([folder])
        rounds = State.new(players, seed=0).rounds
        assert len(s.players) == 4 * (rounds - 1)          # every round start after the first
        assert (s.players == players).all()
        assert sorted(set(s.rounds_left.tolist())) == list(range(1, rounds))
        assert np.allclose(s.win[:, :players].sum(axis=1), 1)
        assert ((s.final_value >= 0) & (s.final_value <= 10)).all()
        again = replay_round_starts([folder])
        assert np.array_equal(s.final_value, again.final_value)


def test_fit_and_check_read_self_play_folders(folders, tmp_path):
    r = CliRunner().invoke(main, ["learn", "fit", *map(str, folders), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    name = r.stdout.strip()
    doc = json.loads((tmp_path / f"{name}.json").read_text())
    assert [d["folder"] for d in doc["data"]] == ["p2", "p5"]
    assert all(d["command"].startswith("ekonos learn selfplay") for d in doc["data"])
    r = CliRunner().invoke(main, ["learn", "check", str(tmp_path / f"{name}.json"),
                                  str(folders[1])])
    assert r.exit_code == 0, r.output
    assert "      5" in r.stdout


def test_a_game_whose_moves_do_not_fit_its_deal_is_refused(folders, tmp_path):
    import shutil
    copy = tmp_path / "p2"
    shutil.copytree(folders[0], copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["seed"] = 4                      # another deal: the recorded moves do not fit it
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match="does not replay"):
        replay_round_starts([copy])
