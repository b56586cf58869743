"""The linear evaluation refitted from self-play folders: their games replayed from the deal
with the moves recorded give the round starts and the company values at the end."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State
from search._net import net_inputs_of
from search.learn.selfplay import (DatasetError, load_dataset, replay_round_starts,
                                   replayed_decisions)

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


def test_fit_keep_refits_some_counts_and_takes_the_others_unchanged(folders, tmp_path):
    """`--keep MODEL -p 5`: the 5-player cells fitted on the data, every other count's cells,
    sample counts and held-out figures the kept model's, byte for byte; the manifest says so."""
    from search import evaluation
    r = CliRunner().invoke(main, ["learn", "fit", *map(str, folders), "-p", "5",
                                  "--keep", evaluation.SHIPPED, "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / f"{r.stdout.strip()}.json").read_text())
    shipped = json.loads(evaluation.MODEL_PATH.read_text())
    alone = CliRunner().invoke(main, ["learn", "fit", str(folders[1]), "-p", "5",
                                      "-o", str(tmp_path / "alone.json")])
    assert alone.exit_code == 0, alone.output
    fitted = json.loads((tmp_path / "alone.json").read_text())
    for n in range(7):
        source = fitted if n == 5 else shipped
        assert doc["theta"][n] == source["theta"][n] and doc["beta"][n] == source["beta"][n], n
    assert doc["theta"][5] != shipped["theta"][5]
    assert doc["samples"] == {**{c: v for c, v in shipped["samples"].items()
                                 if not c.startswith("5p")}, **fitted["samples"]}
    assert list(doc["samples"]) == sorted(doc["samples"], key=lambda c: (int(c[0]), c))
    held = doc["metrics"]["held_out"]
    assert held["5"] == fitted["metrics"]["held_out"]["5"]
    assert {k: held[k] for k in "2346"} == {k: shipped["metrics"]["held_out"][k] for k in "2346"}
    assert doc["data"][0] == {"model": evaluation.SHIPPED, "players": [2, 3, 4, 6],
                              "command": shipped["command"]}
    assert [d["folder"] for d in doc["data"][1:]] == ["p2", "p5"]
    assert doc["command"].endswith(f"-p 5 --keep {evaluation.SHIPPED} -o {tmp_path}")
    assert evaluation.read(tmp_path / f"{r.stdout.strip()}.json")      # a model the search reads


@pytest.mark.parametrize("args, words", [
    (["--keep", "eval-000000000000", "-p", "5"], "no shipped model is named eval-000000000000"),
    (["--keep", "eval-5ec0e708e0a8"], "name the counts to fit with -p"),
    (["--keep", "NOTES", "-p", "5"], "is not a model file"),
])
def test_fit_keep_refuses_what_it_cannot_keep(folders, tmp_path, args, words):
    notes, out = tmp_path / "notes.json", tmp_path / "out"
    notes.write_text('{"a": 1}')
    out.mkdir()
    args = [str(notes) if a == "NOTES" else a for a in args]
    r = CliRunner().invoke(main, ["learn", "fit", str(folders[1]), *args, "-o", str(out)])
    assert r.exit_code == 2 and words in r.stderr, r.output
    assert list(out.iterdir()) == []                                   # nothing written


def test_fit_keep_takes_the_weights_of_a_model_whose_description_is_odd(folders, tmp_path):
    """A kept model's sample counts and held-out figures only describe it: where they are not
    what `learn fit` writes, the weights are kept all the same and the rest left out."""
    from search import evaluation
    odd = json.loads(evaluation.MODEL_PATH.read_text())
    odd.update(samples=[1, 2], metrics={"held_out": {"x": 1}}, command=None)
    (tmp_path / "odd.json").write_text(json.dumps(odd))
    out = tmp_path / "out"
    out.mkdir()
    r = CliRunner().invoke(main, ["learn", "fit", str(folders[1]), "-p", "5", "--keep",
                                  str(tmp_path / "odd.json"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / f"{r.stdout.strip()}.json").read_text())
    assert doc["theta"][2] == odd["theta"][2] and doc["beta"][6] == odd["beta"][6]
    assert set(doc["samples"]) == {"5p r1", "5p r2"} and set(doc["metrics"]["held_out"]) == {"5"}
    assert doc["data"][0]["command"] == ""


def test_replayed_decisions_are_the_positions_the_decisions_were_recorded_at(folders):
    for folder, players in zip(folders, (2, 5)):
        arrays = load_dataset([folder])
        seen = 0
        for game, k, state, g in replayed_decisions(folder):
            assert state.to_move == g["seat"][k] and state.count_legal() == g["legal"][k]
            assert np.array_equal(net_inputs_of(state.view(state.to_move), state.to_move),
                                  g["x"][k])
            seen += 1
        assert seen == len(arrays["action"])
        assert {game for game, *_ in replayed_decisions(folder, games=1)} == {0}


def test_replayed_decisions_refuse_a_game_that_does_not_fit_its_deal(folders, tmp_path):
    import shutil
    copy = tmp_path / "p5"
    shutil.copytree(folders[1], copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["seed"] = 4
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match="does not replay"):
        list(replayed_decisions(copy))
