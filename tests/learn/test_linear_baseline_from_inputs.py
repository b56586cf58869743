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
