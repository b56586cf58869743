"""Training the value network (search/learn/net_train.py, JAX; skipped without the `train`
extra) on a small self-play fixture (tests/learn/conftest.py): the loss goes down, the split is
by game, the file it writes loads into the search's C network and computes what JAX computed,
the same seed makes the same bytes, and the commands print and refuse as they should."""
from __future__ import annotations

import json
import math
import re
import sys

import numpy as np
import pytest
from click.testing import CliRunner

jax = pytest.importorskip("jax")

from cli.main import main  # noqa: E402
from search import network  # noqa: E402
from search._net import NET_INPUT_COUNT  # noqa: E402
from search.learn import net_data, net_train  # noqa: E402
from search.learn.net_train import Config  # noqa: E402

QUICK = Config(hidden=(16, 8), steps=150, batch=64, lr=3e-3, heldout=0.3, seed=1)
QUICK_ARGS = ["--hidden", "16,8", "--steps", "150", "--batch", "64", "--lr", "3e-3",
              "--heldout", "0.3", "-q"]


@pytest.fixture(scope="module")
def trained(selfplay):
    _, arrays = selfplay
    return net_train.train(arrays, QUICK), None


def test_the_loss_goes_down_on_training_and_held_out_games(trained):
    result, _ = trained
    curve = result.training["curve"]
    assert curve[0][0] == 0 and curve[-1][0] == QUICK.steps
    assert [p[0] for p in curve] == sorted(p[0] for p in curve)
    (_, train0, held0) = curve[0]
    (_, train1, held1) = next(p for p in curve if p[0] == result.training["kept_step"])
    assert train1 < 0.5 * train0 and held1 < 0.5 * held0


def test_the_split_is_by_game_and_drawn_by_the_seed(selfplay, trained):
    _, arrays = selfplay
    result, _ = trained
    held = net_data.held_out(arrays, QUICK.seed, QUICK.heldout)
    games = list(zip(arrays["players"].tolist(), arrays["game"].tolist()))
    for g in set(games):                             # a game lies wholly on one side
        sides = {bool(h) for h, k in zip(held, games) if k == g}
        assert len(sides) == 1
    valid = net_data.game_draw(arrays, QUICK.seed) < QUICK.heldout / 2   # chooses the step
    assert result.training["positions"] == {"train": int((~held).sum()),
                                            "valid": int(valid.sum()),
                                            "heldout": int((held & ~valid).sum())}
    kept = result.training["kept_step"]
    valid_losses = {p[0]: p[2] for p in result.training["curve"]}
    assert valid_losses[kept] == min(valid_losses.values())   # early stopping keeps the best
    assert 0 < held.sum() < len(held)
    two = arrays["players"] == 2                     # whatever else the data holds
    assert np.array_equal(net_data.held_out(net_data.subset(net_data.needed(arrays), two),
                                            QUICK.seed, QUICK.heldout), held[two])
    assert not np.array_equal(net_data.held_out(arrays, 99, QUICK.heldout), held)


def test_the_held_out_metrics_are_measured_on_held_out_games(selfplay, trained):
    _, arrays = selfplay
    result, _ = trained
    draw = net_data.game_draw(arrays, QUICK.seed)    # the second half of the held-out games
    test = net_data.subset(net_data.needed(arrays),
                           (draw >= QUICK.heldout / 2) & (draw < QUICK.heldout))
    assert sorted(result.metrics) == sorted({str(n) for n in test["players"].tolist()})
    for n, m in result.metrics.items():
        assert m["positions"] == int((test["players"] == int(n)).sum())
        assert m["even_odds_log_loss"] == pytest.approx(math.log(int(n)))
        assert sum(r["count"] for r in m["calibration"]) == m["positions"] * int(n)
        assert m["score_rmse"] > 0 and 0 <= m["favourite_wins"] <= 1


def test_the_loss_masks_the_seats_past_the_players():
    """Zero weights: the outputs are b3 for every position; with 2 players the logits of seats
    2-5 (huge here) must not count: softmax(log 2, 0) = (2/3, 1/3)."""
    p = {k: np.zeros(s, np.float32) for k, s in network.shapes(4, 3).items()}
    p["b3"] = np.array([math.log(2), 0, 40, 40, 40, 40, 4, 3, 9, 9, 9, 9], np.float32)
    x = np.zeros((1, NET_INPUT_COUNT), np.float32)
    win = np.array([[1, 0, 0, 0, 0, 0]], np.float32)
    score = np.array([[120, 60, 0, 0, 0, 0]], np.float32)
    zero = np.zeros((1, 6), np.float32)
    ce, mse = net_train.losses(p, x, np.array([2.0], np.float32), win, score, zero, zero)
    assert float(ce[0]) == pytest.approx(-math.log(2 / 3), rel=1e-5)
    assert float(mse[0]) == pytest.approx((0 ** 2 + 1 ** 2) / 2, rel=1e-5)   # 120/30, 60/30
    # a base's reading is added: logits (log 2, 0) + (-log 2, log 3) = (0, log 3): (1/4, 3/4);
    # scores (4, 3) + (30, 60) / 30 = (5, 5) against (4, 2)
    base_logit = np.array([[-math.log(2), math.log(3), 0, 0, 0, 0]], np.float32)
    base_score = np.array([[30, 60, 0, 0, 0, 0]], np.float32)
    ce, mse = net_train.losses(p, x, np.array([2.0], np.float32), win, score, base_logit,
                               base_score)
    assert float(ce[0]) == pytest.approx(-math.log(1 / 4), rel=1e-5)
    assert float(mse[0]) == pytest.approx((1 ** 2 + 3 ** 2) / 2, rel=1e-5)


def test_even_odds_is_the_loss_of_a_network_that_knows_nothing(selfplay):
    """Outputs all zero: the win log loss is log n exactly and the score RMSE the root mean
    square of the scores (computed here from the data)."""
    _, arrays = selfplay
    data = net_data.needed(arrays)
    m = net_data.metrics(np.zeros((len(data["x"]), 12)), data)
    for n in ("2", "3"):
        rows = data["players"] == int(n)
        assert m[n]["win_log_loss"] == pytest.approx(math.log(int(n)), abs=1e-6)
        rms = np.sqrt((data["score"][rows][:, :int(n)].astype(float) ** 2).mean())
        assert m[n]["score_rmse"] == pytest.approx(rms, abs=1e-5)


def test_the_file_loads_into_the_c_net_which_computes_what_jax_computed(selfplay, tmp_path):
    folders, arrays = selfplay
    name, path, result = net_train.train_folders(folders, tmp_path, QUICK)
    assert path == tmp_path / f"{name}.json" and re.fullmatch(r"net-[0-9a-f]{12}", name)
    net = network.load_net(str(path))
    x = arrays["x"][::3]
    want = np.asarray(net_train.forward(result.weights, jax.numpy.asarray(x)))
    assert np.abs(net.forward(x) - want).max() < 1e-4
    doc = json.loads(path.read_text())
    assert doc["command"] == net_train.train_command(folders, QUICK)
    assert [d["folder"] for d in doc["data"]] == [str(f) for f in folders]
    assert sum(d["positions"] for d in doc["data"]) == len(arrays["x"])
    assert doc["training"]["curve"] == result.training["curve"]
    assert doc["metrics"] == result.metrics


def test_the_same_seed_makes_the_same_bytes_another_seed_others(selfplay, tmp_path):
    folders, _ = selfplay
    texts = []
    for seed, where in ((1, "a"), (1, "b"), (2, "c")):
        (tmp_path / where).mkdir()
        config = Config(**{**QUICK.__dict__, "seed": seed})
        _, path, _ = net_train.train_folders(folders, tmp_path / where, config)
        texts.append(path.read_bytes())
    assert texts[0] == texts[1]
    assert texts[2] != texts[0]


def test_learn_train_and_calibrate_commands(selfplay, tmp_path):
    folders, _ = selfplay
    r = CliRunner().invoke(main, ["learn", "train", *map(str, folders), "-o", str(tmp_path),
                                  *QUICK_ARGS])
    assert r.exit_code == 0, r.output
    name = r.stdout.strip()
    assert (tmp_path / f"{name}.json").is_file()
    assert re.search(r"validation loss [\d.]+ at the start, [\d.]+ at step \d+ \(kept; "
                     r"training [\d.]+\), [\d.]+ at step 150", r.stderr)
    assert re.search(r"players: held-out win log loss [\d.]+ against", r.stderr)
    r = CliRunner().invoke(main, ["learn", "calibrate", str(tmp_path / f"{name}.json"),
                                  *map(str, folders)])
    assert r.exit_code == 0, r.output
    assert "(the games the network held out)" in r.stdout
    assert "calibration error: network" in r.stdout and "decile" in r.stdout
    pytest.importorskip("matplotlib")
    png = tmp_path / "cal.png"
    r = CliRunner().invoke(main, ["learn", "calibrate", str(tmp_path / f"{name}.json"),
                                  str(folders[0]), "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, words", [
    (["--hidden", "16"], "two widths from 1 to"),
    (["--lr", "nan"], "not a finite number"),
    (["--heldout", "1"], "--heldout"),
    (["--heldout", "0.000001"], "no game of the"),
    (["-o", "/no/such/folder/x.json"], "no folder"),
])
def test_learn_train_refuses_bad_input_in_one_line(selfplay, tmp_path, args, words):
    folders, _ = selfplay
    out = [] if "-o" in args else ["-o", str(tmp_path)]
    r = CliRunner().invoke(main, ["learn", "train", *map(str, folders), "--steps", "2", "-q",
                                  *out, *args])
    assert r.exit_code == 2, r.output
    assert words in r.stderr and "Traceback" not in r.output


def test_a_folder_without_shards_is_refused(tmp_path):
    r = CliRunner().invoke(main, ["learn", "train", str(tmp_path), "-o", str(tmp_path)])
    assert r.exit_code == 2 and "no shard-*.npz files" in r.stderr
    (tmp_path / "shard-000.npz").write_bytes(b"junk")
    r = CliRunner().invoke(main, ["learn", "train", str(tmp_path), "-o", str(tmp_path)])
    assert r.exit_code == 2 and "not a self-play shard" in r.stderr


def test_without_jax_the_command_says_what_to_install(monkeypatch, tmp_path):
    import search.learn
    monkeypatch.setitem(sys.modules, "jax", None)            # import jax: ImportError
    monkeypatch.delitem(sys.modules, "search.learn.net_train")
    monkeypatch.delattr(search.learn, "net_train", raising=False)
    r = CliRunner().invoke(main, ["learn", "train", str(tmp_path), "-o", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == ("Error: `ekonos learn train` needs JAX and optax, which are not "
                                "installed: pip install 'ekonos[train]' (or pip install jax "
                                "optax)")


def test_every_seed_of_64_bits_draws_its_own_initial_weights():
    keys = [net_train.seed_key(s) for s in (0, 1, 2 ** 32, 2 ** 63, 2 ** 64 - 1)]
    firsts = {float(net_train.init(k, (4, 3))["w1"][0, 0]) for k in keys}
    assert len(firsts) == len(keys)


def test_folders_that_number_their_games_alike_count_each_game(selfplay, tmp_path):
    folders, _ = selfplay
    copy = tmp_path / "again"                        # another seed's folder numbers from 0 too
    copy.mkdir()
    for shard in folders[0].glob("shard-*.npz"):
        (copy / shard.name).write_bytes(shard.read_bytes())
    one, _ = net_data.read_folders([folders[0]])
    two, entries = net_data.read_folders([folders[0], copy])
    assert net_data.games(one) == entries[0]["games"] == 6
    assert net_data.games(two) == 12 == sum(e["games"] for e in entries)
    assert net_data.games(net_data.needed(two)) == 12
    # the split is by number: a number held out in one folder is held out in the other
    held = net_data.held_out(two, 1, 0.5)
    assert np.array_equal(held[two["source"] == 0], held[two["source"] == 1])
