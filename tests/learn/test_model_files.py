"""Model files that say what they are (search/evaluation.py reads them, search/learn/ writes
them): named by their content hash, carrying their format, the hash of the feature code they
were fitted for, the command and data that made them; anything else is refused, never read."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from search import evaluation
from search._ismcts import EVAL_FEATURES_HASH
from search.evaluation import ModelError
from search.learn.model_file import output_path

ROOT = Path(__file__).resolve().parents[2]


def features_hash_of_source() -> str:
    """The hash setup.py compiles in, computed again from search/_eval.pxd (the lines strictly
    between the two marker lines, line endings normalised)."""
    lines = (ROOT / "search" / "_eval.pxd").read_text(encoding="utf-8").replace("\r\n", "\n")
    lines = lines.split("\n")
    begin = next(i for i, s in enumerate(lines) if s.startswith("# -- features: begin"))
    end = next(i for i, s in enumerate(lines) if s.startswith("# -- features: end"))
    text = "\n".join(lines[begin + 1:end]) + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def test_the_build_computes_the_features_of_the_source():
    """A stale build (the features changed, the extension not rebuilt) fails here."""
    assert re.fullmatch(r"[0-9a-f]{16}", EVAL_FEATURES_HASH)
    assert EVAL_FEATURES_HASH == features_hash_of_source()


def test_the_shipped_model_is_named_by_its_hash_and_says_what_made_it():
    path = evaluation.MODEL_PATH
    assert path.parent == evaluation.MODELS and path.stem == evaluation.SHIPPED
    assert evaluation.model_name(path) == evaluation.SHIPPED
    assert evaluation.model(evaluation.SHIPPED) == evaluation.model() == evaluation.model(str(path))
    data = json.loads(path.read_text())
    assert data["format"] == evaluation.FORMAT and data["kind"] == evaluation.KIND
    assert data["features"] == EVAL_FEATURES_HASH
    assert data["command"].startswith("ekonos learn fit ")
    for d in data["data"]:                  # each part of its data says how it was made
        if "file" in d:                     # a samples file
            assert set(d) == {"file", "sha256", "size", "command"}
            assert re.fullmatch(r"[0-9a-f]{64}", d["sha256"]) and d["size"] > 0
            assert d["command"].startswith("ekonos learn sample ") and d["file"] in d["command"]
        elif "folder" in d:                 # a self-play folder, by its manifest
            assert re.fullmatch(r"[0-9a-f]{64}", d["manifest_sha256"])
            assert d["command"].startswith("ekonos learn selfplay ")
        else:                               # the counts kept from another model (--keep)
            assert evaluation.NAME.fullmatch(d["model"]) and d["players"]
            assert d["command"].startswith("ekonos learn fit ")
    for n in "23456":
        held = data["metrics"]["held_out"][n]
        assert held["log_loss"] < held["even_odds"], n
    # the package ships the levels' evaluation model, the one `linear` names (frozen with it),
    # one calibration map (search/calibration_map.py) and level 3's policy networks
    from search import calibration_map
    from search.bots import LEVEL3_PRIORS
    from search import network
    from search.by_count import priors_by_count
    priors = sorted(set(priors_by_count(LEVEL3_PRIORS["pnet"]).values()))
    assert sorted(p.name for p in evaluation.MODELS.iterdir()) == sorted(
        [f"{evaluation.SHIPPED}.json", f"{evaluation.LINEAR_MODEL}.json",
         f"{calibration_map.SHIPPED}.json"] + [f"{name}.json" for name in priors])
    for name in priors:                     # each named by its bytes, saying what made it
        raw = (evaluation.MODELS / f"{name}.json").read_bytes()
        assert name == network.name_of_bytes(raw)
        doc = json.loads(raw)
        assert doc["kind"] == "policy-net"
        assert doc["command"].startswith("ekonos learn train-policy ")
        assert all(d["games"] > 0 and d["manifest_sha256"] for d in doc["data"])
    from search.registry import make_bot
    assert make_bot("linear").spec.endswith(f"model={evaluation.LINEAR_MODEL}")
    assert evaluation.model(evaluation.LINEAR_MODEL)


def shipped_with(tmp_path: Path, name: str = "m.json", **changes) -> Path:
    data = json.loads(evaluation.MODEL_PATH.read_text())
    data.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("changes, words", [
    ({"format": 2}, "format 2"),
    ({"format": None}, "format None"),
    ({"kind": "network"}, "kind 'network'"),
    ({"features": "0123456789abcdef"}, "fitted for features '0123456789abcdef'"),
])
def test_a_model_of_another_format_or_other_features_is_refused(tmp_path, changes, words):
    with pytest.raises(ModelError, match="ekonos learn fit") as e:
        evaluation.read(shipped_with(tmp_path, **changes))
    assert words in str(e.value)


def test_a_file_whose_bytes_do_not_hash_to_its_name_is_refused(tmp_path):
    copy = tmp_path / f"{evaluation.SHIPPED}.json"
    shutil.copy(evaluation.MODEL_PATH, copy)
    assert evaluation.read(copy) == evaluation.model()            # the same bytes: accepted
    copy.write_text(copy.read_text().replace("0.502235", "0.502236"))
    with pytest.raises(ModelError, match="not to the name it bears"):
        evaluation.read(copy)
    with pytest.raises(ModelError, match="no shipped model is named eval-000000000000"):
        evaluation.model_path("eval-000000000000")


def test_learn_sample_fit_check_make_a_model_named_by_its_hash(tmp_path):
    samples = tmp_path / "s2.npz"
    r = CliRunner().invoke(main, ["learn", "sample", "-p", "2", "-n", "4", "--spec", "greedy",
                                  "--seed", "3", "-o", str(samples), "-q"])
    assert r.exit_code == 0, r.output
    models = tmp_path / "models"
    models.mkdir()
    r = CliRunner().invoke(main, ["learn", "fit", str(samples), "-o", str(models)])
    assert r.exit_code == 0, r.output
    name = r.stdout.strip()
    path = models / f"{name}.json"
    assert re.fullmatch(r"eval-[0-9a-f]{12}", name) and evaluation.model_name(path) == name
    data = json.loads(path.read_text())
    assert data["features"] == EVAL_FEATURES_HASH and data["command"].startswith(
        "ekonos learn fit s2.npz")
    [entry] = data["data"]
    assert entry["sha256"] == hashlib.sha256(samples.read_bytes()).hexdigest()
    assert entry["command"] == f"ekonos learn sample -p 2 -n 4 --spec greedy --seed 3 -o {samples}"
    assert set(data["metrics"]["held_out"]) == {"2"}
    theta, beta = evaluation.read(path)
    assert beta[2][1] > 0
    r = CliRunner().invoke(main, ["learn", "check", str(path), str(samples)])
    assert r.exit_code == 0 and r.stdout.splitlines()[1].split()[0] == "2", r.output
    r = CliRunner().invoke(main, ["learn", "check", "eval-000000000000", str(samples)])
    assert r.exit_code == 2 and r.stderr.startswith("Error: no shipped model")
    r = CliRunner().invoke(main, ["learn", "sample", "-p", "2", "-n", "1", "--spec", "levle3",
                                  "-o", str(tmp_path / "x.npz")])
    assert r.exit_code == 2 and "unknown bot 'levle3'" in r.stderr


def test_the_output_is_a_folder_unless_it_ends_in_json(tmp_path):
    """`-o PATH` of `learn fit`, `train`, `train-policy`, `calibration-map`: a new path without
    `.json` is a folder to make (a trailing slash is lost on the way, so `-o runs/n6/` once
    wrote a file named n6); a `.json` path or a file already there is the file itself."""
    samples = tmp_path / "s2.npz"
    r = CliRunner().invoke(main, ["learn", "sample", "-p", "2", "-n", "2", "--spec", "greedy",
                                  "--seed", "3", "-o", str(samples), "-q"])
    assert r.exit_code == 0, r.output
    names = {}
    for out in ("new", "new/", "one.JSON"):
        r = CliRunner().invoke(main, ["learn", "fit", str(samples), "-o", str(tmp_path / out)])
        assert r.exit_code == 0, r.output
        names[out] = r.stdout.strip()
    name = names["new"]
    assert (tmp_path / "new").is_dir() and names["new/"] == name     # written there again
    assert [p.name for p in (tmp_path / "new").iterdir()] == [f"{name}.json"]
    assert evaluation.model_name(tmp_path / "new" / f"{name}.json") == name
    assert (tmp_path / "one.JSON").is_file()
    existing = tmp_path / "plain"
    existing.write_text("old")
    assert output_path(existing, name) == existing      # a file there: replaced, not a folder
    r = CliRunner().invoke(main, ["learn", "fit", str(samples), "-o",
                                  str(tmp_path / "no" / "new")])
    assert r.exit_code == 2 and "no folder" in r.stderr and not (tmp_path / "no").exists()
