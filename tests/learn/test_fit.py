"""Fitting the learned evaluation (search/learn/fit.py) on planted data, `ekonos learn check`,
and the round starts that self-play samples (search/learn/selfplay.py)."""
import numpy as np
import pytest

from search import evaluation
from search._ismcts import EVAL_FEATURES
from search.learn.fit import Samples, diagnose, fit, held_out, log_loss


def synthetic(n: int, beta: float, rng: np.random.Generator) -> Samples:
    """2-player samples where a company's final value is its tiles + 2 x its growth track and
    the winner is drawn from a softmax of the expected scores with sharpness `beta`."""
    k = 4000
    feats = np.zeros((k, 6, EVAL_FEATURES))
    feats[:, :, 0] = 1
    feats[:, :, 1] = rng.integers(0, 8, (k, 6))
    feats[:, :, 2] = rng.integers(0, 4, (k, 6))
    feats[:, :, 3:] = rng.integers(0, 5, (k, 6, EVAL_FEATURES - 3))
    final = feats[:, :, 1] + 2 * feats[:, :, 2]
    coins = np.zeros((k, 6))
    coins[:, :n] = rng.integers(0, 30, (k, n))
    shares = np.zeros((k, 6, 6))
    shares[:, :n] = rng.integers(0, 3, (k, n, 6))
    score = coins[:, :n] + np.einsum("nqc,nc->nq", shares[:, :n], final)
    p = np.exp(beta * (score - score.max(axis=1, keepdims=True)))
    p /= p.sum(axis=1, keepdims=True)
    win = np.zeros((k, 6))
    for i in range(k):
        win[i, rng.choice(n, p=p[i])] = 1
    return Samples(np.full(k, n), np.full(k, 2), feats, coins, shares, final, win)


def test_the_fit_recovers_a_planted_model():
    s = synthetic(3, 0.15, np.random.default_rng(1))
    model = fit(s, ridge=1e-6)
    theta = np.asarray(model["theta"])[3, 2]
    assert theta[2] == pytest.approx(2, abs=1e-6)
    assert np.abs(np.delete(theta, 2)).max() < 1e-6
    assert model["beta"][3][2] == pytest.approx(0.15, rel=0.15)
    worse = {**model, "beta": (np.asarray(model["beta"]) * 3).tolist()}
    assert log_loss(s, model) < log_loss(s, worse)


def test_the_held_out_tenth_of_a_count_does_not_move_when_other_counts_are_added():
    two = synthetic(2, 0.2, np.random.default_rng(4))
    three = synthetic(3, 0.2, np.random.default_rng(5))
    alone = held_out(two)
    both = held_out(Samples.concat([three, two]))
    assert np.array_equal(both[len(three.players):], alone)
    assert 0.07 < alone.mean() < 0.13 and 0.07 < both.mean() < 0.13


def test_the_diagnosis_of_a_planted_model_and_of_a_blind_one():
    s = synthetic(3, 5.0, np.random.default_rng(2))    # sharp: the expected leader wins
    [cell] = diagnose(s, fit(s, ridge=1e-6))
    assert (cell["players"], cell["rounds_left"], cell["positions"]) == (3, 2, 4000)
    assert cell["value_r2"] == pytest.approx(1)         # the planted values, exactly
    assert cell["leader_wins"] > 0.9 and cell["chance"] == pytest.approx(1 / 3)
    assert cell["log_loss"] < cell["even_odds"] == pytest.approx(np.log(3))
    zeros = np.zeros_like(np.asarray(fit(s)["theta"]))
    [blind] = diagnose(s, {"theta": zeros, "beta": zeros[:, :, 0]})
    assert blind["log_loss"] == pytest.approx(np.log(3))   # beta 0: even odds
    assert blind["value_r2"] < 0.9                         # tiles now miss the growth


def test_learn_check_prints_a_row_per_cell_and_refuses_a_file_that_is_no_model(tmp_path):
    from click.testing import CliRunner

    from cli.main import main
    data = tmp_path / "s.npz"
    synthetic(2, 0.2, np.random.default_rng(3)).save(data, "synthetic")
    out = CliRunner().invoke(main, ["learn", "check", str(evaluation.MODEL_PATH), str(data)])
    assert out.exit_code == 0, out.output
    rows = [line.split() for line in out.output.splitlines()[1:]]
    assert [r[:3] for r in rows] == [["2", "2", "4000"]]
    bad = CliRunner().invoke(main, ["learn", "check", str(data), str(data)])
    assert bad.exit_code == 2 and "is not a model file" in bad.output
    text = tmp_path / "notes.txt"
    text.write_text("not samples")
    bad = CliRunner().invoke(main, ["learn", "check", str(evaluation.MODEL_PATH), str(text)])
    assert bad.exit_code == 2 and "not samples" in bad.output


def test_round_starts_of_a_self_play_game():
    from search.learn.selfplay import play_and_sample
    s = play_and_sample(3, "ismcts:iterations=20", seed=7)
    assert list(s.rounds_left) == [3, 2, 1]            # 3 players: 4 rounds, starts of 2-4
    assert s.features.shape == (3, 6, EVAL_FEATURES)
    assert np.allclose(s.win.sum(axis=1), 1) and (s.win[:, 3:] == 0).all()
    assert (s.final_value == s.final_value[0]).all()    # one game: one ending
    assert (s.coins[:, :3] > 0).all()
