"""The policy network's data and training (search/learn/policy_data.py, policy_train.py, `ekonos
learn train-policy`; JAX, skipped without the `train` extra) on small self-play folders made by
`ekonos learn selfplay`: the targets are the root visits mixed with the move the search chose
(the drawn opening moves left as visits), the loss goes down, the split is by game, the file it
writes is the policy the search reads and computes what JAX computed, the same seed makes the
same bytes, and the command prints and refuses as it should."""
from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from search import policy
from search.bots import make_bot
from search.learn import net_data, policy_data, selfplay as selfplay_data

SPEC = "ismcts:iterations=40"
EXPLORE = 3


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A 3- and a 4-player self-play folder (4 games each, 2 shards), as the command makes them."""
    root = tmp_path_factory.mktemp("policy-selfplay")
    out = []
    for n in (3, 4):
        folder = root / f"{n}p"
        r = CliRunner().invoke(main, ["learn", "selfplay", "-p", str(n), "-n", "4", "--spec",
                                      SPEC, "--seed", "5", "-o", str(folder),
                                      "--games-per-shard", "2", "--explore", str(EXPLORE),
                                      "-q"])
        assert r.exit_code == 0, r.output
        out.append(folder)
    return out


def test_targets_are_the_visits_mixed_with_the_chosen_move(folders):
    arrays = selfplay_data.load_dataset([folders[0]])
    t = policy_data.targets(arrays, EXPLORE, mix=0.5)
    starts = arrays["pol_start"]
    rows = [i for i in range(len(starts) - 1) if starts[i + 1] > starts[i]]
    assert len(t["players"]) == len(rows)
    assert np.allclose(t["target"].sum(axis=1), 1, atol=1e-5)
    drawn = chosen = 0
    for j, i in enumerate(rows):                     # each target rebuilt here, one by one
        moves = arrays["pol_action"][starts[i]:starts[i + 1]]
        visits = arrays["pol_visits"][starts[i]:starts[i + 1]].astype(float)
        want = visits / visits.sum()
        w = t["width"][j]
        assert w == len(moves) and list(t["cand"][j, :w]) == list(moves)
        assert not t["target"][j, w:].any() and not t["cand"][j, w:].any()
        if arrays["ply"][i] < EXPLORE:               # drawn from the visits: the visits alone
            assert t["played"][j] == -1
            drawn += 1
        else:
            k = list(moves).index(arrays["action"][i])
            assert t["played"][j] == k
            want = 0.5 * want
            want[k] += 0.5
            chosen += 1
        assert np.allclose(t["target"][j, :w], want, atol=1e-6)
    assert drawn == 4 * EXPLORE and chosen > 0
    pure = policy_data.targets(arrays, 0, mix=1.0)   # all chosen, the move alone
    assert (pure["played"] >= 0).all()
    assert np.allclose(pure["target"][np.arange(len(pure["played"])), pure["played"]], 1)


def test_without_jax_the_command_says_what_to_install(monkeypatch, tmp_path):
    import search.learn
    monkeypatch.setitem(sys.modules, "jax", None)            # import jax: ImportError
    monkeypatch.delitem(sys.modules, "search.learn.policy_train", raising=False)
    monkeypatch.delattr(search.learn, "policy_train", raising=False)
    r = CliRunner().invoke(main, ["learn", "train-policy", str(tmp_path), "-o", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == ("Error: `ekonos learn train-policy` needs JAX and optax, which "
                                "are not installed: pip install 'ekonos[train]' (or pip install "
                                "jax optax)")


jax = pytest.importorskip("jax", reason="training needs the `train` extra (jax, optax)")
from search.learn import policy_train  # noqa: E402

QUICK = policy_train.Config(hidden=(16, 16), steps=120, batch=64, lr=3e-3, heldout=0.3, seed=1)
QUICK_ARGS = ["--hidden", "16,16", "--steps", "120", "--batch", "64", "--lr", "3e-3",
              "--heldout", "0.3", "-q"]


@pytest.fixture(scope="module")
def trained(folders, tmp_path_factory):
    out = tmp_path_factory.mktemp("policy-net")
    return policy_train.train_folders(folders, out, QUICK)


def test_the_loss_goes_down_and_the_split_is_by_game(folders, trained):
    _, _, result = trained
    curve = result.training["curve"]
    assert curve[0][0] == 0 and curve[-1][0] == QUICK.steps
    assert curve[-1][1] < curve[0][1] - 0.15         # nats, on the training sample (whose
    # diffuse targets of a 40-iteration search keep it above 1)
    t, _ = policy_data.read_folders(folders)
    held = net_data.game_draw(t, QUICK.seed) < QUICK.heldout
    games = list(zip(t["source"].tolist(), t["game"].tolist()))
    for g in set(games):
        assert len({bool(h) for h, k in zip(held, games) if k == g}) == 1
    assert result.training["positions"] == {"train": int((~held).sum()),
                                            "heldout": int(held.sum())}
    assert sorted(result.metrics) == sorted({str(n) for n in t["players"][held].tolist()})
    for n, m in result.metrics.items():
        assert m["positions"] == int((t["players"][held] == int(n)).sum())
        assert 0 <= m["top1"] <= 1 and 0 < m["top1_uniform"] < 1


def test_the_file_is_the_policy_the_search_reads(folders, trained):
    name, path, result = trained
    assert path.name == f"{name}.json" and re.fullmatch(r"net-[0-9a-f]{12}", name)
    p = policy.load_policy(str(path))
    t, _ = policy_data.read_folders(folders)
    x, cand = t["x"][:50], t["cand"][:50]
    want = np.asarray(policy_train.logits(result.weights, jax.numpy.asarray(x),
                                          jax.numpy.asarray(cand)))
    assert all(np.array_equal(p.weights[k], result.weights[k]) for k in result.weights)
    got = np.maximum(np.maximum(x @ p.weights["w1"] + p.weights["b1"], 0) @ p.weights["w2"]
                     + p.weights["b2"], 0) @ p.weights["w3"] + p.weights["b3"]
    assert np.abs(np.take_along_axis(got, cand.astype(int), axis=1) - want).max() < 1e-4
    doc = json.loads(path.read_text())
    assert doc["command"] == policy_train.train_command(folders, QUICK)
    assert [d["folder"] for d in doc["data"]] == [str(f) for f in folders]
    assert doc["metrics"] == result.metrics and doc["training"]["curve"] == \
        result.training["curve"]
    bot = make_bot(f"ismcts:iterations=100,pnet={path},ptop=4", seed=2)
    assert bot.params.pnet == str(path)


def test_the_same_seed_makes_the_same_bytes(folders, trained, tmp_path):
    _, path, _ = trained
    _, again, _ = policy_train.train_folders(folders, tmp_path, QUICK)
    assert again.read_bytes() == path.read_bytes()
    other = policy_train.Config(**{**QUICK.__dict__, "seed": 2})
    (tmp_path / "b").mkdir()
    _, third, _ = policy_train.train_folders(folders, tmp_path / "b", other)
    assert third.read_bytes() != path.read_bytes()


def test_the_command_prints_the_name_and_refuses_bad_input(folders, tmp_path):
    r = CliRunner().invoke(main, ["learn", "train-policy", *map(str, folders), "-o",
                                  str(tmp_path), *QUICK_ARGS])
    assert r.exit_code == 0, r.output
    name = r.stdout.strip()
    assert (tmp_path / f"{name}.json").is_file()
    assert re.search(r"[34] players: the search.s move is the network.s first choice", r.stderr)
    for args, words in [([str(tmp_path / "none")], "manifest"),
                        ([str(folders[0]), "--hidden", "0,4"], "two widths"),
                        ([str(folders[0]), "--mix", "2"], "--mix")]:
        r = CliRunner().invoke(main, ["learn", "train-policy", *args, "-o", str(tmp_path), "-q"])
        assert r.exit_code == 2, r.output
        assert words in r.stderr and "Traceback" not in r.output
