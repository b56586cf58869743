"""The baseline every network is measured against: the linear evaluation's win shares, read back
from the network's inputs, are those the search's C evaluation computes from the position."""
import numpy as np
import pytest

from ekonos import State
from search._ismcts import Searcher
from search._net import net_inputs_of
from search.evaluation import model
from search.learn.net_data import linear_shares


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_linear_shares_from_inputs_are_the_c_evaluation(players):
    searcher = Searcher(c=0.3)
    searcher.set_model(*model())
    rng = np.random.default_rng(players)
    s = State.new(players, seed=players)
    checked = 0
    while not s.is_over():
        s.push(s.nth_legal(int(rng.integers(s.count_legal()))))
        if s.is_over() or rng.random() > 0.15:
            continue
        seat = s.to_move
        view = s.view(seat)
        win, _ = searcher.evaluate(view)
        got = linear_shares(net_inputs_of(view, seat)[None, :], np.array([players]))[0]
        assert got[:players] == pytest.approx([win[(seat + j) % players]
                                               for j in range(players)], abs=1e-6)
        assert (got[players:] == 0).all()
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_network_with_a_base_reads_the_base_plus_its_outputs(players, tmp_path):
    """The C evaluation of a network correcting the linear evaluation (its base) is what numpy
    computes: the base's logits and scores read back from the inputs, plus the outputs."""
    from search import evaluation, network
    from search.learn.net_file import net_text, write_net
    rng = np.random.default_rng(10 + players)
    weights = {k: rng.normal(0, 0.2, s).astype(np.float32)
               for k, s in network.shapes(8, 4).items()}
    _, path = write_net(net_text(weights, "test", [], {"curve": []}, {}, evaluation.SHIPPED),
                        tmp_path)
    net = network.load_net(str(path))
    assert net.has_base
    s = State.new(players, seed=40 + players)
    checked = 0
    while not s.is_over():
        s.push(s.nth_legal(int(rng.integers(s.count_legal()))))
        if s.is_over() or rng.random() > 0.2:
            continue
        seat = s.to_move
        view = s.view(seat)
        win, score = net.evaluate(view)
        x = net_inputs_of(view, seat)[None, :]
        out = network.with_base(network.forward_numpy(weights, x), x, [players],
                                evaluation.SHIPPED)
        want_win = network.win_shares(out, [players])[0]
        want_score = network.scores(out, [players])[0]
        order = [(seat + j) % players for j in range(players)]
        assert [win[q] for q in order] == pytest.approx(want_win[:players], abs=1e-5)
        assert [score[q] for q in order] == pytest.approx(want_score[:players], abs=1e-3)
        checked += 1
    assert checked >= 5


def test_many_positions_are_read_in_blocks_as_one_at_a_time(monkeypatch):
    """`linear_reading` reads large data in blocks (float64 copies of a block, not of all):
    the blocks' readings are each position's own."""
    from search import network
    rng = np.random.default_rng(3)
    rows, players = [], []
    for n in (2, 3, 5):
        s = State.new(n, seed=n)
        for _ in range(40):
            s.push(s.nth_legal(int(rng.integers(s.count_legal()))))
            rows.append(net_inputs_of(s.view(s.to_move), s.to_move))
            players.append(n)
    x, players = np.array(rows, dtype=np.float32), np.array(players)
    alone = [network.linear_reading(x[i:i + 1], players[i:i + 1]) for i in range(len(x))]
    monkeypatch.setattr(network, "READING_BLOCK", 7)               # blocks and a remainder
    logits, scores = network.linear_reading(x, players)
    assert np.array_equal(logits, np.concatenate([a[0] for a in alone]))
    assert np.array_equal(scores, np.concatenate([a[1] for a in alone]))
    empty = network.linear_reading(x[:0], players[:0])
    assert empty[0].shape == (0, 6) and empty[1].shape == (0, 6)
