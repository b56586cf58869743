"""Calibration tables (search/learn/calibration.py) against answers known in advance: a small
case worked by hand, synthetic predictions that are calibrated by construction (differences
within sampling of zero) and ones biased by a known amount (the bias shows)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from search.learn import calibration


def test_a_small_table_worked_by_hand():
    rows = calibration.table([0.9, 0.1, 0.5, 0.3], [1, 0, 1, 0], bins=2)
    # sorted: 0.1 (0), 0.3 (0) | 0.5 (1), 0.9 (1)
    assert [r["count"] for r in rows] == [2, 2]
    assert [r["predicted"] for r in rows] == pytest.approx([0.2, 0.7])
    assert [r["realized"] for r in rows] == pytest.approx([0.0, 1.0])
    assert [r["difference"] for r in rows] == pytest.approx([-0.2, 0.3])
    assert calibration.error(rows) == pytest.approx(0.25)
    assert len(calibration.table([0.2, 0.4], [0, 1])) == 2        # fewer pairs than deciles
    with pytest.raises(ValueError, match="3 predictions but 2 outcomes"):
        calibration.table([0.1, 0.2, 0.3], [0, 1])


def test_calibrated_predictions_show_no_difference_beyond_sampling():
    rng = np.random.default_rng(5)
    p = rng.random(100_000)
    realized = (rng.random(p.size) < p).astype(float)       # comes true as often as predicted
    rows = calibration.table(p, realized)
    assert [r["count"] for r in rows] == [10_000] * 10
    for i, r in enumerate(rows):
        assert r["predicted"] == pytest.approx((i + 0.5) / 10, abs=0.01)   # deciles of U(0,1)
        assert abs(r["difference"]) < 4 * math.sqrt(0.25 / r["count"])
    assert calibration.error(rows) < 0.01


def test_a_biased_estimate_shows_its_bias():
    """Predictions 0.1 above the truth: every decile realizes about 0.1 less than predicted;
    predictions squeezed towards the middle (too timid): low deciles realize less than predicted,
    high ones more."""
    rng = np.random.default_rng(6)
    truth = rng.random(100_000) * 0.8
    realized = (rng.random(truth.size) < truth).astype(float)
    rows = calibration.table(truth + 0.1, realized)
    assert all(abs(r["difference"] + 0.1) < 0.02 for r in rows)
    assert calibration.error(rows) == pytest.approx(0.1, abs=0.01)
    squeezed = calibration.table(0.4 + (truth - 0.4) / 2, realized)
    assert squeezed[0]["difference"] < -0.1 and squeezed[-1]["difference"] > 0.1


def test_pairs_per_player_count_keep_present_seats_and_known_estimates():
    shares = np.array([[0.7, 0.3, 0, 0, 0, 0], [0.2, 0.3, 0.5, 0, 0, 0]])
    win = np.array([[1.0, 0, 0, 0, 0, 0], [0, 0.5, 0.5, 0, 0, 0]])
    players = np.array([2, 3])
    pred, real, each = calibration.net_pairs(shares, win, players)
    assert pred.tolist() == [0.7, 0.3, 0.2, 0.3, 0.5]
    assert real.tolist() == [1, 0, 0, 0.5, 0.5] and each.tolist() == [2, 2, 3, 3, 3]
    tables = calibration.by_players(pred, real, each)
    assert sorted(tables) == ["2", "3"]
    assert sum(r["count"] for r in tables["3"]) == 3
    q = np.array([0.6, np.nan])                      # the second: a bot that does not search
    pred, real, each = calibration.search_pairs(q, win, players)
    assert pred.tolist() == [0.6] and real.tolist() == [1.0] and each.tolist() == [2]
