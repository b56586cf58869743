"""Network files (search/network.py reads them, search/learn/net_file.py writes them): named by
their content hash, saying the inputs they were trained for; a file of other inputs, of bytes
that do not hash to its name, of bad shapes or weights is refused with the reason, never read.
These need no JAX: the files are made from random weights."""
from __future__ import annotations

import base64
import os
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from search import network
from search._net import NET_FEATURES_HASH, NET_INPUT_COUNT, NET_OUTPUT_COUNT, Net
from search.learn.net_file import net_text, write_net
from search.network import NetError

TRAINING = {"seed": 1, "steps": 0, "batch": 1, "lr": 0.001, "weight_decay": 0.0,
            "score_weight": 1.0, "heldout": 0.0, "curve": [[0, 1.0, None]]}


def random_weights(h1=12, h2=5, seed=0) -> dict:
    rng = np.random.default_rng(seed)
    shapes = {"w1": (NET_INPUT_COUNT, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,),
              "w3": (h2, NET_OUTPUT_COUNT), "b3": (NET_OUTPUT_COUNT,)}
    return {k: rng.normal(0, 0.3, s).astype(np.float32) for k, s in shapes.items()}


def written(tmp_path: Path, weights: dict | None = None) -> tuple[str, Path]:
    weights = random_weights() if weights is None else weights
    return write_net(net_text(weights, "ekonos learn train x", [], TRAINING, {}), tmp_path)


def edited(path: Path, out: Path, change) -> Path:
    """A copy of the network file with `change(doc)` applied, written under `out`."""
    doc = json.loads(path.read_text())
    change(doc)
    out.write_text(json.dumps(doc))
    return out


def test_a_written_network_loads_as_the_c_net_of_its_weights(tmp_path):
    w = random_weights()
    name, path = written(tmp_path, w)
    assert path == tmp_path / f"{name}.json" and network.NAME.fullmatch(name)
    assert network.name_of_bytes(path.read_bytes()) == name
    weights, doc = network.read(path)
    assert all(np.array_equal(weights[k], w[k]) for k in network.WEIGHTS)   # exact float32
    assert doc["hidden"] == [12, 5] and doc["features"] == NET_FEATURES_HASH
    net = network.load_net(str(path))
    assert isinstance(net, Net) and net.widths == (12, 5)
    assert network.load_net(str(path)) is net                             # read once
    x = (np.random.default_rng(1).random((20, NET_INPUT_COUNT)) < 0.2).astype(np.float32)
    # the reference written independently here: ReLU, ReLU, linear
    a = np.maximum(x.astype(np.float64) @ w["w1"] + w["b1"], 0)
    b = np.maximum(a @ w["w2"] + w["b2"], 0)
    assert np.allclose(network.forward_numpy(weights, x), b @ w["w3"] + w["b3"])
    assert np.allclose(net.forward(x), b @ w["w3"] + w["b3"], atol=1e-4)


def test_win_shares_are_a_softmax_over_the_seats_present():
    out = np.zeros((2, NET_OUTPUT_COUNT))
    out[:, :6] = [np.log(3), 0, 0, 50, 50, 50]        # seats past the players are ignored
    out[:, 6:] = 1.5
    shares = network.win_shares(out, np.array([2, 3]))
    assert shares[0].tolist() == pytest.approx([0.75, 0.25, 0, 0, 0, 0])
    assert shares[1].tolist() == pytest.approx([0.6, 0.2, 0.2, 0, 0, 0])
    assert network.scores(out, np.array([2, 3])).tolist() == [[45, 45, 0, 0, 0, 0],
                                                              [45, 45, 45, 0, 0, 0]]


def test_a_network_trained_for_other_inputs_is_refused(tmp_path):
    _, path = written(tmp_path)
    other = edited(path, tmp_path / "other.json",
                   lambda d: d.update(features="0123456789abcdef"))
    name, renamed = write_net(other.read_text(), tmp_path)   # under its own hash's name too
    for p in (other, renamed):
        with pytest.raises(NetError) as e:
            network.read(p)
        assert str(e.value) == (f"{p}: trained for other inputs (hash 0123456789abcdef; this "
                                f"build computes {NET_FEATURES_HASH}): retrain it with "
                                f"`ekonos learn train`")
    r = CliRunner().invoke(main, ["learn", "calibrate", str(renamed), str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and "trained for other inputs" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_a_file_whose_bytes_do_not_hash_to_its_name_is_refused(tmp_path):
    name, path = written(tmp_path)
    text = path.read_text()
    path.write_text(text.replace('"command": "ekonos', '"command": "ekonos ', 1))
    with pytest.raises(NetError, match=f"its bytes hash to net-[0-9a-f]{{12}}, not to the name "
                                       f"it bears.*ekonos learn train"):
        network.read(path)
    path.write_text(text)
    network.read(path)                                   # its own bytes again: accepted


def test_names_and_paths(tmp_path):
    with pytest.raises(NetError, match="no shipped network is named net-000000000000"):
        network.net_path("net-000000000000")
    with pytest.raises(NetError, match="no network named"):
        network.net_path("")
    assert network.net_path("some/file.json") == Path("some/file.json")
    with pytest.raises(NetError, match="no such file"):
        network.load_net(str(tmp_path / "missing.json"))


def _b64(a) -> str:
    return base64.b64encode(np.asarray(a, dtype="<f4").tobytes()).decode()


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(format=2), "format 2"),
    (lambda d: d.update(kind="linear-eval"), "kind 'linear-eval'"),
    (lambda d: d.update(kind=["value-net"]), "kind ['value-net']"),
    (lambda d: d.update(inputs=559), "inputs 559"),
    (lambda d: d.update(hidden=[12, 0]), "hidden must be two widths"),
    (lambda d: d.update(hidden=[13, 5]), f"weight w1 has shape [{NET_INPUT_COUNT}, 12], not [{NET_INPUT_COUNT}, 13]"),
    (lambda d: d["weights"].pop("b2"), "weights must be exactly"),
    (lambda d: d["weights"]["b1"].update(data=_b64(np.zeros(11))), "44 bytes of data, not 48"),
    (lambda d: d["weights"]["b1"].update(data="@@@@"), "data is not base64"),
    (lambda d: d["weights"]["b3"].update(data=_b64([np.nan] + [0] * 11)), "not finite"),
    (lambda d: d["weights"]["w3"].update(data=_b64(np.full(60, np.inf))), "not finite"),
    (lambda d: d.pop("weights"), "is not a network file"),
])
def test_damaged_or_foreign_files_are_refused_with_the_reason(tmp_path, change, words):
    _, path = written(tmp_path)
    bad = edited(path, tmp_path / "bad.json", change)
    with pytest.raises(NetError) as e:
        network.read(bad)
    assert words in str(e.value)


def test_files_that_are_no_network_are_refused(tmp_path):
    (tmp_path / "text.json").write_text("not json")
    with pytest.raises(NetError, match="is not a network file"):
        network.read(tmp_path / "text.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (network.MAX_NET_BYTES + 1))
    with pytest.raises(NetError, match="too large for a network file"):
        network.read(big)
    with pytest.raises(NetError, match="a directory"):
        network.read(tmp_path)


@pytest.mark.parametrize("name", ["shard-000.npz", "manifest.json"])
def test_a_fifo_in_a_selfplay_folder_is_refused_at_once(tmp_path, name):
    """A folder's shard or manifest that is a FIFO with no writer: one line, never a hang."""
    _, net = written(tmp_path)
    folder = tmp_path / "selfplay"
    folder.mkdir()
    if name != "shard-000.npz":
        (folder / "shard-000.npz").write_bytes(b"")
    os.mkfifo(folder / name)
    r = CliRunner().invoke(main, ["learn", "calibrate", str(net), str(folder)])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("Error: ") and "FIFO" in r.stderr
