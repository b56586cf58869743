"""The Python API around the core: copies, pickling, undo, lazy legal moves."""
import copy
import pickle

from ekonos import State


def test_pickle_and_deepcopy_are_exact_and_independent():
    st = State.new(4, seed=31)
    for text in st.legal_moves.texts()[:1]:
        st.push_text(text)
    for clone in (pickle.loads(pickle.dumps(st)), copy.deepcopy(st)):
        assert clone == st and clone.moves == st.moves
        clone.push(clone.legal_actions()[0])
        assert clone != st
        clone.pop()
        clone.pop()
        assert clone == State.new(4, seed=31)


def test_pop_restores_the_exact_state_after_forced_steps():
    st = State.new(2, seed=4)
    before = st.copy()
    st.push(st.legal_actions()[-1])     # a growth: may trigger forced steps after it
    assert st != before
    st.pop()
    assert st == before


def test_legal_moves_is_lazy_and_agrees_with_the_list():
    st = State.new(3, seed=8)
    moves = st.legal_moves
    assert len(moves) == len(st.legal_actions())
    assert all(a in moves for a in st.legal_actions())
    assert 10**6 not in moves and "play" not in moves
