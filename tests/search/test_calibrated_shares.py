"""The win shares the hint and the review show are calibrated (search/calibration_map.py): the
search's own figure, which stays beside it (`win_raw`, `win_played_raw`, `win_best_raw`), mapped
by the knots of the map for the position's player count, and by nothing else."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State, save_file
from ekonos.notation import action_text
from ekonos.rules import Step
from search import calibration_map
from search.analysis import NOT_JUDGED, analyse, level_params
from search.bots import ISMCTSBot
from search.calibration_map import CalibrationError
from search.review import review_decision


def position(players: int, seed: int, decisions: int) -> State:
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        st.push(rng.choice(st.legal_actions()))
    while st.step is not Step.CARD:
        st.push(st.legal_actions()[-1])
    return st


def map_file(tmp_path: Path, players: dict[str, list]) -> Path:
    """A map file written by hand (not by the code under test): these knots per player count."""
    doc = {"format": 1, "kind": "win-calibration", "spec": "ismcts:iterations=1",
           "players": {n: {"knots": k} for n, k in players.items()}}
    path = tmp_path / "map.json"
    path.write_text(json.dumps(doc))
    return path


def shipped_interp(win: float, players: int) -> float:
    """The shipped map applied by reading its file here: np.interp over its knots."""
    doc = json.loads((calibration_map.MODELS / f"{calibration_map.SHIPPED}.json").read_text())
    x, y = zip(*doc["players"][str(players)]["knots"])
    return float(np.interp(win, x, y))


def test_hint_json_shows_the_calibrated_share_and_the_searchs_own(tmp_path):
    st = position(4, 3, 20)
    path = tmp_path / "p.json"
    save_file(st, path)
    r = CliRunner().invoke(main, ["hint", str(path), "-i", "1500", "--top", "4", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["calibration"] == calibration_map.SHIPPED
    # the search's own figures: the level-3 search the hint runs, asked directly
    # (-i sets the budget with every player count: the level's budgets by count are left out,
    # and its policy prior: the judge rates every move)
    params = {k: v for k, v in level_params(3).items() if k not in NOT_JUDGED}
    raw = {action_text(m["action"]): m["win"] for m in ISMCTSBot(iterations=1500, **params)
           .analyse(st.view(st.to_move), seed=0, line_length=8).moves}
    assert len(out["moves"]) > 1
    for m in out["moves"]:
        assert m["win_raw"] == round(raw[m["move"]], 4)
        assert m["win"] == pytest.approx(shipped_interp(raw[m["move"]], 4), abs=1e-4)


def test_a_map_changes_the_shares_of_its_player_count_only(tmp_path):
    halves = map_file(tmp_path, {"4": [[0, 0], [1, 0.5]]})
    st4, st3 = position(4, 5, 16), position(3, 5, 16)
    four = analyse(st4, iterations=400, top=5, calibration=str(halves))
    assert four["calibration"] == calibration_map.name_of_bytes(halves.read_bytes())
    for m in four["moves"]:
        assert m["win"] == pytest.approx(m["win_raw"] / 2, abs=1e-4)
    three = analyse(st3, iterations=400, top=5, calibration=str(halves))
    assert all(m["win"] == m["win_raw"] for m in three["moves"])
    plain = analyse(st4, iterations=400, top=5)
    assert [m["win_raw"] for m in plain["moves"]] == [m["win_raw"] for m in four["moves"]]


def test_a_damaged_map_is_refused_before_any_search(tmp_path):
    bad = map_file(tmp_path, {"4": [[0, 0], [0.5, 0.7], [0.6, 0.2], [1, 1]]})
    with pytest.raises(CalibrationError, match="never fall"):
        analyse(position(4, 5, 16), iterations=400, calibration=str(bad))


def test_the_review_shows_calibrated_shares_and_loses_points_of_them(tmp_path):
    """Squeezed into [0.25, 0.75]: the shares shown are the search's mapped, the loss is the
    difference of the shares shown (half the search's own)."""
    squeeze = map_file(tmp_path, {"3": [[0, 0.25], [1, 0.75]]})
    st = position(3, 9, 14)
    view = st.view(st.to_move)
    liked_least = sorted(ISMCTSBot(iterations=600, c=0.7, horizon=0, plain=0)
                         .analyse(view, seed=1).moves, key=lambda m: m["visits"])
    for worst in liked_least[:8]:           # the first the review finds a loss in
        move = st.parse_move(action_text(worst["action"]))
        d = review_decision(st, move, 600, seed=2, ply=1, calibration=str(squeeze), level=2)
        if d.loss > 0:
            break
    assert d.played != d.best and d.loss > 0
    assert d.win_played == pytest.approx(0.25 + d.win_played_raw / 2)
    assert d.win_best == pytest.approx(0.25 + d.win_best_raw / 2)
    assert d.loss == pytest.approx((d.win_best - d.win_played) * 100, abs=0.01)
    assert d.loss == pytest.approx((d.win_best_raw - d.win_played_raw) * 50, abs=0.01)
    row = d.to_dict()
    assert {"win_played_raw", "win_best_raw"} <= set(row)
