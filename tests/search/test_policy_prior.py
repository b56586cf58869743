"""A policy network's prior at the root (search/policy.py, search/halving.py `cands`, the `pnet`
and `ptop` parameters): its file is checked as a value network's is and each kind is refused
where the other is wanted; it keeps the k moves of highest logit, computed from the deciding
seat's view only; the halving searches only those and ranks the others last.  No JAX: the
files hold random weights."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from ekonos import State
from ekonos.moves import NUM_ACTIONS
from helpers import small_net_file
from search import network, policy
from search._net import NET_FEATURES_HASH, net_inputs_of
from search.bots import PRIOR_TOP, SpecError, make_bot
from search.by_count import priors_by_count, weights_by_count
from search.halving import run_halving
from search.learn.net_file import net_text, write_net
from search.network import POLICY_KIND, NetError

POLICY = small_net_file(8, 8, seed=3, kind=POLICY_KIND)
VALUE = small_net_file()


def card_position(players: int, seed: int) -> State:
    """A position after a few random moves where the mover plays a card (a wide root)."""
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    while st.count_legal() < 40:
        st.push(rng.choice(st.legal_actions()))
    return st


def test_the_policy_file_says_its_kind_and_action_table():
    doc = json.loads(Path(POLICY).read_text())
    assert doc["kind"] == "policy-net" and doc["outputs"] == NUM_ACTIONS
    assert doc["actions"] == network.ACTIONS_HASH and doc["features"] == NET_FEATURES_HASH
    assert "score_scale" not in doc and "base" not in doc
    weights, _ = network.read(POLICY, POLICY_KIND)
    assert weights["w3"].shape == (8, NUM_ACTIONS)


def test_each_kind_is_refused_where_the_other_is_wanted():
    with pytest.raises(NetError, match="is a value network, not a policy network "
                                       r"\(`ekonos learn train-policy` makes those\)"):
        policy.load_policy(str(VALUE))
    with pytest.raises(NetError, match="is a policy network, not a value network"):
        network.load_net(str(POLICY))
    with pytest.raises(SpecError, match="net: .* is a policy network"):
        make_bot(f"ismcts:iterations=10,net={POLICY}")
    with pytest.raises(SpecError, match="pnet: .* is a value network"):
        make_bot(f"ismcts:iterations=10,pnet={VALUE}")


def test_a_policy_for_another_action_table_or_changed_bytes_is_refused(tmp_path):
    doc = json.loads(Path(POLICY).read_text())
    doc["actions"] = "0123456789abcdef"
    name, other = write_net(json.dumps(doc), tmp_path)
    with pytest.raises(NetError, match="actions '0123456789abcdef', but this build's network "
                                       "has .*retrain it with `ekonos learn train-policy`"):
        policy.load_policy(str(other))
    changed = tmp_path / Path(POLICY).name
    changed.write_text(Path(POLICY).read_text().replace('"command": "', '"command": " ', 1))
    with pytest.raises(NetError, match="its bytes hash to"):
        policy.load_policy(str(changed))


@pytest.mark.parametrize("spec, words", [
    ("ismcts:iterations=10,ptop=8", "ptop and pweight need a policy network (pnet=NAME)"),
    ("ismcts:iterations=10,pweight=1", "ptop and pweight need a policy network (pnet=NAME)"),
    (f"ismcts:iterations=10,pnet={POLICY},pweight=-1", "pweight: '-1' is not a weight from 0"),
    (f"ismcts:iterations=10,pnet={POLICY},pweight=3:x", "pweight: 'x' is not a weight"),
    (f"ismcts:iterations=10,pnet={POLICY},pweight=3:1/7:2", "pweight must be a number, or groups"),
    (f"ismcts:iterations=10,pnet={POLICY},pweight=3:1/34:2", "pweight names 3 players twice"),
    (f"ismcts:iterations=10,pnet={POLICY},pweight=nan", "is not a weight"),
    (f"ismcts:iterations=10,pnet=37:{POLICY}", "pnet must be one network, or groups"),
    (f"ismcts:iterations=10,pnet=3:{POLICY}+:{POLICY}", "pnet must be one network, or groups"),
    (f"ismcts:iterations=10,pnet=3:{POLICY}+4", "pnet must be one network, or groups"),
    (f"ismcts:iterations=10,pnet=34:{POLICY}+4:{POLICY}", "pnet names 4 players twice"),
    (f"ismcts:iterations=10,pnet=3:{POLICY}+4:/no/such.json", "no such file"),
    (f"ismcts:iterations=10,pnet={POLICY},root=uct", "it needs root=halving"),
    (f"ismcts:iterations=10,pnet={POLICY},ptop=0", "ptop"),
    ("ismcts:iterations=10,pnet=net-000000000000", "no shipped network is named"),
    ("ismcts:iterations=10,pnet=/no/such/file.json", "no such file"),
])
def test_bad_prior_specs_are_refused_with_the_reason(spec, words):
    with pytest.raises(SpecError) as e:
        make_bot(spec)
    assert words in str(e.value)


def test_the_prior_keeps_the_moves_of_highest_logit_in_the_order_given():
    st = card_position(4, 5)
    seat, view = st.to_move, st.view(st.to_move)
    actions = view.legal_actions()
    p = policy.load_policy(str(POLICY))
    assert policy.load_policy(str(POLICY)) is p                           # read once
    w, _ = network.read(POLICY, POLICY_KIND)
    x = net_inputs_of(view, seat).astype(np.float64)                       # written apart here
    full = np.maximum(np.maximum(x @ w["w1"] + w["b1"], 0) @ w["w2"] + w["b2"], 0) @ w["w3"] \
        + w["b3"]
    assert np.allclose(p.logits(view, seat, actions), full[actions], atol=1e-4)
    for k in (1, 5, PRIOR_TOP):
        kept = p.top(view, seat, actions, k)
        assert len(kept) == k and kept == [a for a in actions if a in kept]
        worst_kept = min(full[a] for a in kept)
        assert all(full[a] <= worst_kept + 1e-4 for a in actions if a not in kept)
    assert p.top(view, seat, actions, len(actions)) == list(actions)
    assert p.top(view, seat, actions[:3], 16) == list(actions[:3])
    kept, logit = p.rated(view, seat, actions, 5)               # the same, with the logits
    assert kept == p.top(view, seat, actions, 5)
    assert sorted(logit) == sorted(actions)
    assert np.allclose([logit[a] for a in actions], full[actions], atol=1e-4)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_prior_reads_only_the_seats_own_view(players):
    st = card_position(players, 10 + players)
    seat = st.to_move
    p = policy.load_policy(str(POLICY))
    kept = set()
    for k in range(4):
        other = st.copy()
        other.determinize(seat, 70 + k)                   # every hand but the seat's dealt anew
        assert other.view(seat) == st.view(seat)
        kept.add(tuple(p.top(other.view(seat), seat, other.legal_actions(), 6)))
    assert len(kept) == 1
    with pytest.raises(ValueError):                       # a hand the view does not know
        p.top(st.view(seat), (seat + 1) % players, st.legal_actions(), 6)


def test_the_halving_searches_only_the_kept_moves_and_ranks_the_others_last():
    st = card_position(3, 7)
    view = st.view(st.to_move)
    legal = view.legal_actions()
    bot = make_bot(f"ismcts:iterations=600,pnet={POLICY},ptop=6", seed=1)
    kept = policy.load_policy(str(POLICY)).top(view, st.to_move, legal, 6)
    moves = bot.analyse(view, seed=4).moves
    searched = [m["action"] for m in moves if m["visits"] > 0]
    assert set(searched) <= set(kept) and len(searched) >= 2
    assert moves[0]["action"] in kept
    assert [m["action"] for m in moves[:len(searched)]] == searched    # kept moves rank first
    assert bot.choose(view, seed=4) in kept
    plain = make_bot("ismcts:iterations=600", seed=1).analyse(view, seed=4).moves
    assert len({m["action"] for m in plain if m["visits"] > 0}) > 6   # without it: every move


def test_a_spec_with_a_prior_names_it_and_its_width():
    bot = make_bot(f"ismcts:iterations=50,pnet={POLICY}")
    assert f"pnet={POLICY}" in bot.spec and "ptop" not in bot.spec      # the default, unsaid
    assert "ptop=4" in make_bot(f"ismcts:iterations=50,pnet={POLICY},ptop=4").spec


def test_a_prior_per_player_count_serves_the_counts_it_names():
    other = small_net_file(8, 8, seed=4, kind=POLICY_KIND)
    assert priors_by_count(str(POLICY)) == {n: str(POLICY) for n in range(2, 7)}
    assert priors_by_count(f"35:{POLICY}+4:{other}") == {3: str(POLICY), 5: str(POLICY),
                                                         4: str(other)}
    spec = f"ismcts:iterations=400,ptop=4,pnet=3:{POLICY}+4:{other}"
    for players, file in ((3, POLICY), (4, other), (5, None)):
        st = card_position(players, 30 + players)
        view = st.view(st.to_move)
        moves = make_bot(spec, seed=1).analyse(view, seed=2).moves
        searched = {m["action"] for m in moves if m["visits"] > 0}
        if file is None:                             # a count not named: searched whole
            whole = make_bot("ismcts:iterations=400", seed=1).analyse(view, seed=2).moves
            assert [(m["action"], m["visits"]) for m in moves] == \
                [(m["action"], m["visits"]) for m in whole]
            continue
        kept = policy.load_policy(str(file)).top(view, st.to_move, view.legal_actions(), 4)
        assert searched <= set(kept), (players, searched, kept)


def test_the_prior_weighs_in_the_halving_as_visits_are_few():
    """pweight adds weight × logit / (50 + visits) to each halving's win shares: a weight of 0
    changes nothing; a large one makes the move of highest logit survive, whatever the search
    found; a file's logits reach the halving through the spec."""
    st = card_position(3, 7)
    seat, view = st.to_move, st.view(st.to_move)
    legal = view.legal_actions()[:8]

    def rank(logits=None, weight=0.0):
        searchers = [make_bot("ismcts:iterations=1", seed=1).searcher(3)]
        return run_halving(searchers, view, seat, [400], None, [5], legal, logits, weight)

    plain = rank()
    favourite = max(legal, key=plain.get)                 # the search's worst kept move
    logits = {a: (10.0 if a == favourite else 0.0) for a in legal}
    assert rank(logits, 0.0) == plain
    assert rank(logits, 1e6)[favourite] == 0
    assert rank({a: 0.0 for a in legal}, 5.0) == plain    # equal logits: no move moves

    bot = make_bot(f"ismcts:iterations=300,pnet={POLICY},ptop=6,pweight=1000", seed=1)
    kept, z = policy.load_policy(str(POLICY)).rated(view, seat, view.legal_actions(), 6)
    assert bot.choose(view, seed=2) == max(kept, key=z.get)


def test_a_weight_per_player_count_reaches_only_its_count():
    assert weights_by_count("") == {} and weights_by_count("0") == {}
    assert weights_by_count("0.5") == {n: 0.5 for n in range(2, 7)}
    assert weights_by_count("3:0.3/45:1/6:0") == {3: 0.3, 4: 1.0, 5: 1.0}
    spec = f"ismcts:iterations=300,ptop=6,pnet={POLICY},pweight=3:1000"
    heavy = f"ismcts:iterations=300,ptop=6,pnet={POLICY},pweight=1000"
    plain = f"ismcts:iterations=300,ptop=6,pnet={POLICY}"
    for players, like in ((3, heavy), (4, plain)):
        st = card_position(players, 40 + players)
        view = st.view(st.to_move)
        moves = make_bot(spec, seed=1).analyse(view, seed=2).moves
        other = make_bot(like, seed=1).analyse(view, seed=2).moves
        assert [m["action"] for m in moves] == [m["action"] for m in other], players
