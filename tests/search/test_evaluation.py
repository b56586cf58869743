"""The learned evaluation at play time: playouts cut at a later round's start (`horizon`) and
scored by a model (search/evaluation.py loads it, search/_eval.pxd computes it); a model given in
a spec.  Fitting it is tested in tests/learn/test_fit.py."""
import json
import random

import numpy as np
import pytest

from ekonos import State
from ekonos.rules import Step
from search import evaluation
from search._ismcts import (EVAL_FEATURES, EVAL_FEATURES_HASH, Searcher,
                            company_features_of)
from search.bots import ISMCTSBot, SpecError, make_bot


def played(players: int, seed: int, rounds: int = 1) -> State:
    """A game after `rounds` rounds of random play (then at the next card step)."""
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    while st.round <= rounds and not st.is_over():
        st.push(rng.choice(st.legal_actions()))
    while not st.is_over() and st.step is not Step.CARD:
        st.push(rng.choice(st.legal_actions()))
    return st


def searcher(horizon: int) -> Searcher:
    return ISMCTSBot(iterations=1000, horizon=horizon).searcher()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_shipped_model_scores_every_round_of_a_player_count_or_none(players):
    theta, beta = evaluation.model()
    rounds = State.new(players, seed=1).rounds
    cells = [beta[players][r] > 0 for r in range(1, rounds)]   # cuts: at a round's start
    assert all(cells) or not any(cells), (players, cells)
    assert all(len(theta[players][r]) == EVAL_FEATURES for r in range(1, rounds))
    data = json.loads(evaluation.MODEL_PATH.read_text())
    assert data["command"].startswith("ekonos learn fit ")
    assert all(d["command"].startswith(("ekonos learn sample ", "ekonos learn selfplay ",
                                        "ekonos learn fit ")) for d in data["data"])
    assert beta[2][1] > 0                               # 2 players: the arena-tested count


def test_without_a_cell_for_the_player_count_playouts_run_to_the_end():
    st = played(4, seed=8, rounds=0)
    view = st.view(st.to_move)
    theta, beta = evaluation.model()
    results = []
    for horizon, keep in ((0, beta), (1, [[0.0] * len(row) for row in beta]), (1, beta)):
        s = ISMCTSBot(iterations=600, horizon=horizon).searcher()
        s.set_model(theta, keep)
        s.run(view, st.to_move, iterations=600, seed=4)
        results.append((s.decisions_simulated, s.root_moves()))
    assert results[1] == results[0]                    # no cell: the same search as horizon=0
    if beta[4][2] > 0:
        assert results[2][0] < results[0][0]           # a cell: playouts cut short


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_evaluation_gives_win_shares_and_never_reads_a_hand(players):
    st = played(players, seed=players)
    s = searcher(1)
    win, score = s.evaluate(st.view(0))
    assert len(win) == players and abs(sum(win) - 1) < 1e-9 and all(0 < w < 1 for w in win)
    # other hands (another view, another seat's, a re-deal): the same evaluation (R21)
    for seat in range(players):
        assert s.evaluate(st.view(seat)) == (win, score)
    redealt = st.copy()
    redealt.determinize(-1, 9)
    assert redealt.hand(0) != st.hand(0)
    assert s.evaluate(redealt) == (win, score)


def test_more_coins_is_a_higher_expected_score_and_win_share():
    st = played(2, seed=3)
    s = searcher(1)
    win, score = s.evaluate(st)
    richer = st.copy()
    fields = richer.to_dict()
    fields["players"][1]["coins"] += 20
    richer = State.from_dict(fields)
    win2, score2 = s.evaluate(richer)
    assert score2[1] == pytest.approx(score[1] + 20) and score2[0] == pytest.approx(score[0])
    assert win2[1] > win[1]


def test_a_cut_playout_simulates_fewer_decisions():
    st = played(2, seed=4, rounds=0)
    view = st.view(st.to_move)
    counts = []
    for horizon in (0, 1):
        s = searcher(horizon)
        s.run(view, st.to_move, iterations=500, seed=1)
        counts.append(s.decisions_simulated)
    assert counts[1] < counts[0] / 2


def test_in_the_last_round_a_horizon_changes_nothing():
    st = played(4, seed=5, rounds=2)          # 4 players: 3 rounds, now in the last
    assert st.round == st.rounds
    view = st.view(st.to_move)
    a = make_bot("ismcts:iterations=800", seed=3).analyse(view).moves
    b = make_bot("ismcts:iterations=800,horizon=2", seed=3).analyse(view).moves
    assert a == b


def test_company_features_are_public_numbers_of_the_map():
    st = played(3, seed=6)
    f = company_features_of(st)
    assert len(f) == 6 and all(len(row) == EVAL_FEATURES for row in f)
    for c in range(6):
        assert f[c][0] == 1 and f[c][1] == st.value(c) and f[c][2] == st.growth(c)
        assert f[c][3] == st.value(c) - len(st.protected_tiles(c))
        assert f[c][5] == len(st.empty_spaces()) and f[c][6] == st.column(c)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0])
def test_a_model_with_a_bad_number_is_refused(bad):
    theta, beta = evaluation.model()
    s = searcher(1)
    broken = [list(row) for row in beta]
    broken[2] = [bad] * len(broken[2])
    with pytest.raises(ValueError, match="beta"):
        s.set_model(theta, broken)
    if bad != -1.0:
        worse = [[list(cell) for cell in n] for n in theta]
        worse[4][1][3] = bad
        with pytest.raises(ValueError, match="theta"):
            s.set_model(worse, beta)


def write_model(path, beta_scale: float = 1.0):
    """The shipped model's weights in a file, its sharpness times `beta_scale` (0: no cell)."""
    theta, beta = evaluation.model()
    path.write_text(json.dumps({"format": evaluation.FORMAT, "kind": evaluation.KIND,
                                "features": EVAL_FEATURES_HASH, "theta": theta,
                                "beta": (np.asarray(beta) * beta_scale).tolist()}))
    return path


def test_a_model_given_in_the_spec_is_the_one_the_search_uses(tmp_path):
    view = State.new(2, seed=4)
    view = view.view(view.to_move)

    def moves(spec):
        return make_bot(spec, seed=3).analyse(view).moves
    same = write_model(tmp_path / "same.json")
    none = write_model(tmp_path / "none.json", beta_scale=0.0)
    shipped = moves("ismcts:iterations=800,horizon=1")
    assert moves(f"ismcts:iterations=800,horizon=1,model={same}") == shipped
    # a model that scores no round: every playout runs to the end, as without a horizon
    plain = moves("ismcts:iterations=800,horizon=0")
    assert moves(f"ismcts:iterations=800,horizon=1,model={none}") == plain != shipped
    assert moves(f"ismcts:iterations=800,horizon=0,model={same}") == plain  # no horizon: not read
    assert make_bot(f"ismcts:horizon=1,model={same}").spec.endswith(f"model={same}")
    # no model given: the shipped one, named, so a record of the spec says which model played
    assert make_bot("ismcts:horizon=1").spec.endswith(f"model={evaluation.SHIPPED}")
    assert "model" not in make_bot("ismcts:horizon=0").spec


@pytest.mark.parametrize("content, words", [
    (None, "no such file (a model file was expected)"),
    ("", "is not a model file"),
    ("\xff\xfe", "is not a model file"),
    ('{"theta": 1}', "is not a model file"),
    ('{"format": 1, "kind": "linear-eval", "features": "%s", "theta": [[1, 2]], '
     '"beta": [[0.1]]}' % EVAL_FEATURES_HASH, "theta must be [7, 7, 8] numbers"),
    ("nan", "is not a model file"),
])
def test_a_model_file_that_is_not_one_is_refused_by_the_spec(tmp_path, content, words):
    path = tmp_path / "m.json"
    if content is not None:
        path.write_text(content, encoding="latin-1")
    with pytest.raises(SpecError, match="model: ") as e:
        make_bot(f"ismcts:horizon=1,model={path}")
    assert words in str(e.value)
    with pytest.raises(SpecError, match="a directory, not a model file"):
        make_bot(f"ismcts:horizon=1,model={tmp_path}")


def test_a_model_with_a_weight_out_of_range_is_refused_by_the_spec(tmp_path):
    path = write_model(tmp_path / "m.json", beta_scale=1e6)
    with pytest.raises(SpecError, match="beta from 0 to 100"):
        make_bot(f"ismcts:horizon=1,model={path}")
