"""The value network at C level (search/_net.pxd): its inputs read one seat's view and nothing
more, its forward pass is the multilayer perceptron written in numpy, and the search scores
with it."""
import numpy as np
import pytest

from ekonos import State
from search._ismcts import Searcher
from search._net import (NET_COMPANY_FEATURES, NET_INPUT_COUNT, NET_LAYOUT, NET_MAX_HIDDEN, NET_OUTPUT_COUNT,
                         NET_SCORE_SCALE, Net, net_inputs_of)


def random_net(h1=48, h2=16, seed=0, scale=0.2):
    rng = np.random.default_rng(seed)
    shapes = [(NET_INPUT_COUNT, h1), (h1,), (h1, h2), (h2,), (h2, NET_OUTPUT_COUNT),
              (NET_OUTPUT_COUNT,)]
    return [rng.normal(0, scale, s).astype(np.float32) for s in shapes]


def forward(w, x):
    """The network in numpy, float64: ReLU, ReLU, linear."""
    w = [a.astype(np.float64) for a in w]
    a = np.maximum(x @ w[0] + w[1], 0)
    b = np.maximum(a @ w[2] + w[3], 0)
    return b @ w[4] + w[5]


def positions(players, count, seed):
    """States of a game played at random (seeded), every few plies."""
    rng = np.random.default_rng(seed)
    s = State.new(players, seed=seed)
    out = []
    while not s.is_over() and len(out) < count:
        s.push(s.nth_legal(int(rng.integers(s.count_legal()))))
        if not s.is_over() and rng.random() < 0.3:
            out.append(s.copy())
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_forward_is_the_numpy_network(players):
    w = random_net(seed=players)
    net = Net(*w)
    for s in positions(players, 12, seed=10 + players):
        seat = s.to_move
        view = s.view(seat)
        x = net_inputs_of(view, seat)
        assert x.shape == (NET_INPUT_COUNT,) and x.dtype == np.float32
        assert 0 < np.count_nonzero(x) < NET_INPUT_COUNT
        got = np.array(net.outputs(view, seat))
        assert np.allclose(got, forward(w, x.astype(np.float64)), atol=1e-4)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_inputs_read_only_the_seats_own_hand(players):
    """Every input is computed from the seat's view: the full state, the seat's view and the
    state with every other hand dealt anew encode the same; the seat's own hand does count."""
    for i, s in enumerate(positions(players, 10, seed=20 + players)):
        seat = s.to_move
        full = net_inputs_of(s, seat)
        assert np.array_equal(full, net_inputs_of(s.view(seat), seat))
        other = s.copy()
        other.determinize(seat, 1000 + i)             # every hand but the seat's dealt anew
        assert np.array_equal(full, net_inputs_of(other, seat))
        net = Net(*random_net(seed=i))
        assert net.evaluate(s.view(seat)) == net.evaluate(other.view(seat)) == net.evaluate(s)
    s = positions(players, 1, seed=5)[0]
    seat = s.to_move
    if s.hand_size(seat) > 0:
        emptied = s.copy()
        emptied.set_hand(seat, [])
        assert not np.array_equal(net_inputs_of(s, seat), net_inputs_of(emptied, seat))


@pytest.mark.parametrize("players", [3, 5])
def test_inputs_are_seat_relative(players):
    """Relative seat j is seat (p + j) % n: each seat's own score, coins and shares sit at
    relative seat 0 whichever seat it is (read back against the state's own accounts)."""
    L = NET_LAYOUT
    s = positions(players, 8, seed=3)[-1]
    for p in range(players):
        x = net_inputs_of(s, p)
        for j in range(players):
            q = (p + j) % players
            assert x[L["score"] + j] == pytest.approx(s.score(q) / NET_SCORE_SCALE)
            assert x[L["coins"] + j] == pytest.approx(s.coins(q) / NET_SCORE_SCALE)
            assert [x[L["shares"] + 6 * j + c] * 8 for c in range(6)] == \
                pytest.approx([s.shares(q, c) for c in range(6)])
            # stake in the tiles (company feature 1): the score without the coins, / 8 / 10
            stake = x[L["stake"] + NET_COMPANY_FEATURES * j] * 8 * 10
            assert stake == pytest.approx(s.score(q) - s.coins(q), abs=1e-4)
        for c in range(6):      # company feature 1, the tiles / 10
            assert x[L["company"] + NET_COMPANY_FEATURES * c] * 10 == pytest.approx(s.value(c))
        assert np.count_nonzero(x[L["hand"]:L["hand"] + 36]) == s.hand_size(p)
        for j in range(players, 6):
            assert x[L["score"] + j] == x[L["coins"] + j] == 0


def test_a_hand_the_view_does_not_know_is_refused():
    s = State.new(3, seed=1)
    view = s.view(0)
    with pytest.raises(ValueError, match="does not know seat 1"):
        net_inputs_of(view, 1)
    with pytest.raises(IndexError):
        net_inputs_of(view, 3)


def test_bad_weights_are_refused():
    w = random_net()
    bad = [a.copy() for a in w]
    bad[2][0, 0] = np.nan
    with pytest.raises(ValueError, match="w2 holds a number that is not finite"):
        Net(*bad)
    with pytest.raises(ValueError, match="w1 must be"):
        Net(w[0][:-1], *w[1:])
    with pytest.raises(ValueError, match="b3 must have shape"):
        Net(*w[:5], w[5][:-1])
    big = random_net(h1=NET_MAX_HIDDEN + 1, h2=2)
    with pytest.raises(ValueError, match="hidden widths"):
        Net(*big)


@pytest.mark.parametrize("rollout", [0, 1])
def test_the_search_scores_with_the_network(rollout):
    """A search with a network is reproducible, and the network changes what it finds."""
    s = positions(4, 5, seed=4)[-1]
    view = s.view(s.to_move)

    def run(net, seed=3):
        se = Searcher(c=0.3)
        se.horizon = 1
        se.net = net
        se.rollout = rollout
        se.run(view, view.to_move, iterations=3000, seed=seed)
        return [(m["action"], m["visits"], round(m["win"], 9)) for m in se.root_moves()]

    a, b = Net(*random_net(seed=1, scale=1.0)), Net(*random_net(seed=2, scale=1.0))
    assert run(a) == run(a)
    assert run(a) != run(b)
    se = Searcher(c=0.3)
    assert se.net is None
    se.net = a
    assert se.net is a


def test_forward_on_recorded_inputs_is_the_pass_the_search_runs():
    """Net.forward reads input vectors (what self-play records) and gives what Net.outputs
    gives for the positions they encode; a wrong width is refused."""
    net = Net(*random_net(seed=7))
    views = [(s.view(s.to_move), s.to_move) for s in positions(4, 8, seed=31)]
    x = np.stack([net_inputs_of(v, seat) for v, seat in views])
    got = net.forward(x)
    assert got.shape == (len(views), NET_OUTPUT_COUNT) and got.dtype == np.float32
    for row, (v, seat) in zip(got, views):
        assert np.array_equal(row, np.array(net.outputs(v, seat), dtype=np.float32))
    assert np.array_equal(net.forward(x[0]), got[0])
    with pytest.raises(ValueError, match="inputs must be"):
        net.forward(x[:, :-1])


@pytest.mark.parametrize("rollout", [0, 1])
@pytest.mark.parametrize("players", [2, 5])
def test_redealt_hidden_hands_change_no_search_with_the_network(players, rollout):
    """The search scores leaves with the network from their mover's side; whatever hands the
    searching seat cannot see, given whole or re-dealt or hidden, its tree is the same."""
    net = Net(*random_net(seed=7, scale=1.0))
    s = positions(players, 6, seed=30 + players)[-1]
    seat = s.to_move
    worlds = [s, s.view(seat)]
    for k in (1, 2):
        other = s.copy()
        other.determinize(seat, 50 + k)
        worlds.append(other)
    assert any([w.hand(q) for q in range(players) if q != seat] !=
               [s.hand(q) for q in range(players) if q != seat] for w in worlds[2:])

    def tree(w):
        se = Searcher(c=0.3)
        se.horizon = 1
        se.net = net
        se.rollout = rollout
        se.run(w.view(seat) if w is not s else s, seat, iterations=2000, seed=5)
        return [(m["action"], m["visits"], m["win"], m["score"]) for m in se.root_moves()]

    first = tree(worlds[0])
    assert all(tree(w) == first for w in worlds[1:])
