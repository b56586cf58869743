"""Argument checks of the engine API: no public method of the engine can crash the process.

Every method not named `..._unchecked` checks its arguments (IndexError for a seat, space, card,
company or action that does not exist; ValueError for a value out of range); `apply_unchecked`
checks that the action exists and belongs to the step; `_restore` and `_set_fields` refuse a
struct that would let the C code index outside an array.  Calls that could crash run in a child
process, so a segfault fails the test instead of killing pytest.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ekonos import State

ROOT = Path(__file__).resolve().parents[2]


def run_isolated(code: str, timeout: float = 120) -> list[str]:
    """Run `code` in a fresh interpreter on this checkout; its stdout lines.  A signal (exit
    status < 0) or any other failure of the child fails the test."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, (f"child exited with {proc.returncode}\n"
                                  f"stdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-2000:]}")
    return proc.stdout.splitlines()


# Calls that once read outside the state, and the rest of the API with odd arguments: each must
# raise one of the listed exceptions, in a process that survives them all.
CALLS = [
    # (expression on `st` = State.new(3, seed=5), accepted exception names)
    ("st.score(10**9)", "IndexError"),
    ("st.score(-10**9)", "IndexError"),
    ("st.tokens(10**9)", "IndexError"),
    ("st.column(10**9)", "IndexError"),
    ("st.determinize(10**9, 1)", "IndexError"),
    ("st.hand_known(10**9)", "IndexError"),
    ("st.apply_unchecked(-10**9)", "IndexError"),
    ("st.apply_unchecked(10**30)", "IndexError"),
    ("st.apply_unchecked(2700)", "ValueError"),        # an action of the expand step
    ("st.nth_legal(10**9)", "IndexError"),
    ("st.nth_legal(-1)", "IndexError"),
    ("st.nth_legal(st.count_legal())", "IndexError"),
    ("st.card_actions(0)", "IndexError"),
    ("st.card_actions(37)", "IndexError"),
    ("st.card_actions(-2**70)", "IndexError"),
    ("st.owner(0)", "IndexError"),
    ("st.owner(37)", "IndexError"),
    ("st.is_protected(2**64)", "IndexError"),
    ("st.tiles(6)", "IndexError"),
    ("st.tiles(-1)", "IndexError"),
    ("st.shares(3, 0)", "IndexError"),
    ("st.shares(0, 6)", "IndexError"),
    ("st.coins(-1)", "IndexError"),
    ("st.president(99)", "IndexError"),
    ("st.growth(-7)", "IndexError"),
    ("st.value(6)", "IndexError"),
    ("st.hand(3)", "IndexError"),
    ("st.hand_size(-4)", "IndexError"),
    ("st.decider(6)", "IndexError"),
    ("st.set_hand(3, None)", "IndexError"),
    ("st.set_hand(0, [99])", "IndexError"),
    ("st.set_hand(0, [0])", "IndexError"),
    ("st.set_hand(0, list(range(1, 8)))", "ValueError"),       # 7 cards: at most 6
    ("st.set_start_player(3)", "IndexError"),
    ("st.view(3)", "ValueError"),
    ("st.view(-1)", "ValueError"),
    ("st.view(True)", "ValueError"),
    ("st._hide(10**9)", "IndexError"),
    ("st.push(10**9)", "IllegalMoveError"),
    ("st.push(-1)", "IllegalMoveError"),
    ("st.push(2664)", "IllegalMoveError"),                     # 'expand' at the card step
    ("st.push(True)", "ValueError"),
    ("st.push(2.0)", "ValueError"),
    ("st.push_unchecked(-1)", "IndexError"),
    ("st.determinize(-1, -1)", "ValueError"),
    ("st.determinize(-1, 2**64)", "ValueError"),
    ("st.determinize(-2, 1)", "IndexError"),
    ("st.random_playout(-1)", "ValueError"),
    ("st.reseed_chance(2**64)", "ValueError"),
    ("type(st).new_game(10**30)", "ValueError"),
    ("type(st).new_game(3, 2**70)", "ValueError"),
    ("type(st).new_game(3, 0, 5)", "ValueError"),
    ("st._restore(b'x')", "ValueError"),
    ("st._restore(b'\\xff' * len(st._snapshot()))", "ValueError"),
    ("st._restore(bytes(len(st._snapshot())))", "ValueError"),
    ("st.move_text(10**9)", "ValueError"),
    ("st.why_illegal(10**9) and st.why_code(-10**30) and None", "ok"),
]


def test_out_of_range_arguments_raise_and_never_crash():
    code = f"""
        from ekonos import State
        calls = {[c for c, _ in CALLS]!r}
        for expr in calls:
            st = State.new(3, seed=5)
            try:
                eval(expr)
                print("ok")
            except Exception as e:
                # a refused call leaves the state as it was
                same = st._snapshot() == State.new(3, seed=5)._snapshot()
                print(type(e).__name__ if same else "changed")
            st.legal_actions()
        print("done")
    """
    out = run_isolated(code)
    assert out[-1] == "done"
    got = dict(zip([c for c, _ in CALLS], out))
    for expr, expected in CALLS:
        assert got[expr] == expected, expr


def test_snapshots_with_damaged_fields_are_refused_or_safe():
    """Flip bytes of real snapshots (every step): `_restore` refuses the struct, or every engine
    call on it returns (its rules may be broken, its memory never)."""
    code = """
        import random
        from ekonos import State
        rng = random.Random(9)
        snaps = []
        for n in (2, 3, 4, 5, 6):
            st = State.new(n, seed=n)
            while not st.is_over():
                if rng.random() < 0.15:
                    snaps.append(st._snapshot())
                st.push(rng.choice(st.legal_actions()))
            snaps.append(st._snapshot())
        refused = used = 0
        for k in range(4000):
            data = bytearray(rng.choice(snaps))
            for _ in range(rng.choice([1, 1, 2, 4])):
                i = rng.randrange(len(data))
                data[i] = rng.choice([0, 1, 5, 6, 7, 35, 36, 37, 63, 64, 127, 128, 255,
                                      rng.randrange(256)])
            st = State.new(2, seed=0)
            try:
                st._restore(bytes(data))
            except ValueError:
                refused += 1
                continue
            used += 1
            for f in (st.legal_actions, st.count_legal, st.forced_action, st.scores,
                      st.expansion_spaces, lambda: st._turn_raw, lambda: st.discard,
                      lambda: [st.nth_legal(i) for i in range(st.count_legal())],
                      lambda: [st.why_code(a) for a in range(0, 2759, 7)],
                      lambda: [st.tokens(q) for q in range(st.nplayers)],
                      lambda: st.copy().determinize(-1, k),
                      lambda: st.copy().determinize(0, k),
                      lambda: st.view(0).legal_actions(),
                      lambda: st.copy().random_playout(k)):
                try:
                    f()
                except (ValueError, IndexError):
                    pass
        print(refused, used)
    """
    refused, used = map(int, run_isolated(code)[-1].split())
    assert refused > 100 and used > 1000       # both paths were exercised


def test_unchecked_actions_of_the_step_keep_the_struct_restorable():
    """`apply_unchecked` of any action of the current step, legal or not, leaves a struct that
    `_restore` accepts (so undo and pickling never fail) and that the engine can go on with."""
    code = """
        import random
        from ekonos import State
        from ekonos._core import ACTIONS
        rng = random.Random(4)
        ranges = {0: (0, ACTIONS["A_EXPAND"]), 1: (ACTIONS["A_EXPAND"], ACTIONS["A_XPLACE"]),
                  2: (ACTIONS["A_XPLACE"], ACTIONS["A_SELL"]),
                  3: (ACTIONS["A_SELL"], ACTIONS["A_BUY"]),
                  4: (ACTIONS["A_BUY"], ACTIONS["A_SUCC"]),
                  5: (ACTIONS["A_SUCC"], ACTIONS["NUM_ACTIONS"])}
        steps = 0
        for g in range(60):
            st = State.new(rng.randint(2, 6), seed=g)
            while not st.is_over() and steps < 200000:
                lo, hi = ranges[int(st.step)]
                a = rng.randrange(lo, hi) if rng.random() < 0.5 else rng.choice(
                    st.legal_actions() or [lo])
                st.apply_unchecked(a)
                st.copy()._restore(st._snapshot())
                steps += 1
                if st.step == 0 and not st.legal_actions():
                    break
        print(steps)
    """
    assert int(run_isolated(code)[-1]) > 1000


def test_set_hand_keeps_the_cards_within_the_deck():
    """Hands and the cards played this round never hold more than the 36 cards: past that the
    next card play would write beyond the discard array."""
    st = State.new(6, seed=5)
    st.push(st.legal_actions()[-1])
    while st.step_name != "card":
        st.push(st.legal_actions()[-1])
    played = [q for q in range(6) if st.hand_size(q) == 5]
    assert len(played) == 1 and len(st.discard) == 1      # 35 cards in hands + 1 played
    with pytest.raises(ValueError, match="37 of the 36 cards"):
        st.set_hand(played[0], list(range(1, 7)))
    st.set_hand(played[0], st.hand(played[0]))             # the same cards: fine
    st.set_hand(played[0], None)
    assert st.hand(played[0]) is None and st.hand_size(played[0]) == 5


@pytest.mark.parametrize("fields", [
    dict(nplayers=9), dict(step=12), dict(to_move=7), dict(xcompany=6, step=2),
    dict(discard=list(range(37))), dict(president=[9] * 6), dict(hand=[2**40] + [0] * 5),
    dict(coins=[2**40] * 6),
])
def test_set_fields_refuses_a_struct_the_engine_cannot_index(fields):
    st = State.new(3, seed=5)
    before = st._snapshot()
    f = st._fields()
    f.update(fields)
    with pytest.raises(ValueError):
        st._set_fields(f)
    assert st._snapshot() == before
