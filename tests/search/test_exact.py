"""The exact end of a game (search/exact.py): where no card the seat cannot see will be played,
every line is searched to the end.  Checked against a plain max^n written here over the Python
API, on the last decisions of random games of 2-6 players; and its use by the judge (hint and
review say "exact" and agree)."""
from __future__ import annotations

import random

import pytest

from ekonos import State
from ekonos.notation import action_text
from helpers import random_game
from search import exact
from search.analysis import analyse
from search.review import review_decision


def reference(st: State) -> tuple[list[float], list[float]]:
    """Each seat's (win share, final score) from `st` when every decider takes the move best
    for itself by win share, then by its own score, then the first in the legal order."""
    if st.is_over():
        scores = [float(s) for s in st.scores()]
        top = max(scores)
        k = scores.count(top)
        return [1.0 / k if s == top else 0.0 for s in scores], scores
    mover = st.to_move
    best = None
    for a in st.legal_actions():
        st.push_unchecked(a)
        value = reference(st)
        st.pop()
        if best is None or (value[0][mover], value[1][mover]) > (best[0][mover], best[1][mover]):
            best = value
    return best


def last_decisions(players: int, seed: int) -> list[State]:
    """The solvable positions of a random game, as seen by the seat to move."""
    return [st.view(st.to_move) for st, _ in random_game(players, seed)
            if exact.solvable(st.view(st.to_move))]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_move_gets_the_value_of_a_plain_max_n_search(players):
    checked = 0
    for seed in range(3):
        for view in last_decisions(players, seed):
            solved = exact.solve(view, node_limit=20_000)
            if solved is None:                       # too big for the plain search here
                continue
            seat = view.to_move
            for m in solved.moves:
                view.push_unchecked(m.action)
                wins, scores = reference(view)
                view.pop()
                assert (m.win, m.score) == (wins[seat], scores[seat]), action_text(m.action)
            keys = [(m.win, m.score) for m in solved.moves]
            assert keys == sorted(keys, reverse=True)
            assert {m.action for m in solved.moves} == set(view.legal_actions())
            checked += 1
    assert checked >= 6


def test_the_line_of_a_move_plays_to_the_end_and_gives_its_value():
    for view in last_decisions(4, 7):
        solved = exact.solve(view)
        seat = view.to_move
        for m in solved.moves:
            st = view.copy()
            st.push(m.action)
            for a in m.line:
                st.push(a)                           # each decision legal where it is taken
            assert st.is_over()
            assert st.scores()[seat] == m.score


def test_solvable_only_when_no_hidden_card_will_be_played():
    seen = {True: 0, False: 0}
    for st, _ in random_game(3, 11):
        view = st.view(st.to_move)
        others = [q for q in range(3) if q != st.to_move]
        expected = st.round == st.rounds and all(st.hand_size(q) == 0 for q in others)
        assert exact.solvable(view) == expected
        seen[expected] += 1
        if not expected:
            assert exact.solve(view) is None
    assert seen[True] >= 2 and seen[False] > 100


def test_a_position_too_big_for_the_limit_is_not_solved():
    for view in last_decisions(2, 0):
        full = exact.solve(view)
        if full.nodes > 50:
            assert exact.solve(view, node_limit=full.nodes - 1) is None
            assert exact.solve(view, node_limit=full.nodes) is not None
            return
    pytest.fail("no last decision of more than 50 positions")


def test_the_hidden_cards_change_nothing():
    """R21: what the seat cannot see (the undealt cards) does not enter the solution."""
    for st, _ in random_game(5, 3):
        if exact.solvable(st.view(st.to_move)):
            seat = st.to_move
            other = st.copy()
            other.determinize(seat, 99)
            assert exact.solve(st.view(seat)) == exact.solve(other.view(seat)) == exact.solve(st)


def test_hint_and_review_say_exact_and_agree():
    rng = random.Random(5)
    for st, played in random_game(3, 5):
        view = st.view(st.to_move)
        if exact.solvable(view) and len(view.legal_actions()) > 1:
            hint = analyse(st, iterations=100, top=50, seed=rng.randrange(99))
            assert hint["exact"] and all(m["exact"] and m["visits"] == 0 for m in hint["moves"])
            wins = {m["move"]: m["win"] for m in hint["moves"]}
            review = review_decision(st, st.parse_move(action_text(played)), iterations=100)
            assert review.method == "exact" and review.low == review.high == review.loss
            assert review.win_best == max(wins.values())
            assert review.win_played == wins[action_text(played)]
            assert review.loss == pytest.approx(100 * (review.win_best - review.win_played),
                                                abs=0.01)
            return
    pytest.fail("no solvable decision with a choice")
