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


def test_saved_files_keep_their_mode_and_new_ones_follow_the_umask(tmp_path):
    import os
    import stat

    from ekonos import save_file
    st = State.new(2, seed=1)
    fresh = tmp_path / "fresh.json"
    umask = os.umask(0o022)
    try:
        save_file(st, fresh)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
    fresh.chmod(0o640)
    save_file(st, fresh)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640


def test_bad_new_game_arguments_are_ekonos_errors():
    import pytest

    from ekonos import EkonosError
    for kwargs in [dict(players=7), dict(variant="house"), dict(names=["A", "B", "C"]),
                   dict(names=["Ann", "ann"]), dict(names=["Ann", "2"]), dict(seed=-1)]:
        with pytest.raises(EkonosError):
            State.new(**{"players": 2, **kwargs})


def test_pass_outside_sell_and_buy_says_so_and_syntax_errors_list_legal_moves():
    import pytest

    from ekonos import IllegalMoveError, InvalidMoveError
    st = State.new(2, seed=3)
    assert st.step_name == "card"
    with pytest.raises(IllegalMoveError, match="pass skips the sell or the buy step"):
        st.parse_move("pass")
    with pytest.raises(InvalidMoveError, match="unknown move") as e:
        st.parse_move("jump 3")
    assert e.value.legal == st.legal_moves.texts()
