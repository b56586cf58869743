"""Helpers shared by the tests: hand-written positions (docs/position-format.md), random play."""
from __future__ import annotations

import copy
import random

from reference import COMPANIES, TABLE

from ekonos import State
from ekonos.rules import Step

NAMES = ("Anna", "Bruno", "Chiara", "David", "Elena", "Felix")


def position(n: int = 3, *, hands=None, coins=None, round: int = 1, start: int = 0,
             step: str = "card", to_move=None, board=None, growth=None, shares=None,
             president=None, discard=(), turn=None, variant: str = "rulebook", names=None,
             seed=None) -> dict:
    """A position dict (docs/position-format.md, version 1) with sensible defaults.

    hands: {seat: [cards]} for the known hands; every other hand is unknown (`null`) with the
    size that `start` and the number of cards in `discard` imply (R5).
    shares: {company: [per seat]} (missing companies: nobody).
    president: {company: seat}; a company with shares but no entry gets the lowest seat among those
    with the most shares.
    to_move: default is the seat whose turn it is (card step), else `turn["player"]`.
    """
    per_hand = TABLE[n][0]
    discard = list(discard)
    played = len(discard)
    hands = dict(hands or {})
    players = []
    for q in range(n):
        offset = (q - start) % n
        size = per_hand - (played // n + (1 if offset < played % n else 0))
        p = {"name": (names or NAMES)[q], "coins": (coins or [0] * n)[q]}
        if q in hands:
            p["hand"] = list(hands[q])
        else:
            p["hand"] = None
            p["hand_size"] = size
        players.append(p)
    sh = {c: [0] * n for c in COMPANIES}
    for c, col in (shares or {}).items():
        sh[c] = list(col)
    pres = {}
    for c in COMPANIES:
        if president and c in president:
            pres[c] = president[c]
        elif sum(sh[c]) > 0:
            pres[c] = sh[c].index(max(sh[c]))
        else:
            pres[c] = None
    gr = {c: 0 for c in COMPANIES}
    gr.update(growth or {})
    if to_move is None and step != "over":
        to_move = (start + played) % n if step == "card" else turn["player"]
    d = {
        "format": "ekonos-position", "version": 1, "variant": variant,
        "players": players, "round": round, "start_player": start, "to_move": to_move,
        "step": step, "board": {str(k): v for k, v in (board or {}).items()},
        "growth": gr, "shares": sh, "president": pres, "discard": discard,
        "turn": copy.deepcopy(turn),
    }
    if seed is not None:
        d["seed"] = seed
    return d


def load(d: dict) -> State:
    return State.from_dict(d)


def texts(st: State) -> list[str]:
    return st.legal_moves.texts()


def tiles_of(st: State, company: str) -> list[int]:
    return st.tiles(COMPANIES.index(company))


def board_of(st: State) -> dict:
    return st.to_dict()["board"]


def other_cards(*used, count: int) -> list[int]:
    """`count` card numbers not in any of the `used` lists, lowest first."""
    taken = set()
    for u in used:
        taken |= set(u)
    return [c for c in range(1, 37) if c not in taken][:count]


def mid_game(players: int = 4, seed: int = 21, decisions: int = 12) -> State:
    """A position `decisions` random (seeded) decisions into a new game."""
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        st.push(rng.choice(st.legal_actions()))
    return st


def random_game(n: int, seed: int, variant: str = "rulebook"):
    """Yield (state, action) along a uniformly random game; the state is before the action."""
    rng = random.Random(seed)
    st = State.new(n, seed=seed, variant=variant)
    while not st.is_over():
        a = rng.choice(st.legal_actions())
        yield st, a
        st.push_unchecked(a)


def card_positions(count: int = 6) -> list[State]:
    """Card steps of 2-6 player games after random play (the seat to move knows its hand)."""
    out = []
    for k in range(count):
        st = State.new(2 + k % 5, seed=100 + k)
        rng = random.Random(k)
        for _ in range(rng.randrange(0, 120)):
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
        while not st.is_over() and st.step is not Step.CARD:
            st.push(rng.choice(st.legal_actions()))
        if not st.is_over():
            out.append(st)
    return out


_SMALL_NETS: dict = {}


def small_net_file(h1: int = 8, h2: int = 4, seed: int = 0, kind: str = "value-net"):
    """A network file of this build's inputs with small random weights (seeded), made once per
    test run in a temporary folder removed at exit: for tests of what reads a network, not of
    how well it plays.  `kind` "policy-net": a policy network's (search/policy.py)."""
    key = (h1, h2, seed, kind)
    if key not in _SMALL_NETS:
        import atexit
        import shutil
        import tempfile
        from pathlib import Path

        import numpy as np

        from search.learn.net_file import net_text, write_net
        from search.network import shapes
        rng = np.random.default_rng(seed)
        weights = {k: rng.normal(0, 0.3, s).astype(np.float32)
                   for k, s in shapes(h1, h2, kind).items()}
        folder = Path(tempfile.mkdtemp(prefix="ekonos-net-"))
        atexit.register(shutil.rmtree, folder, True)
        _, path = write_net(net_text(weights, "tests/helpers.py small_net_file", [],
                                     {"curve": []}, {}, kind=kind), folder)
        _SMALL_NETS[key] = path
    return _SMALL_NETS[key]


def random_record(n: int, seed: int) -> tuple[State, list]:
    """(start, moves) of a whole uniformly random game (seeded), the moves as Move values."""
    start = State.new(n, seed=seed)
    st, moves, rng = start.copy(), [], random.Random(seed)
    while not st.is_over():
        m = rng.choice(list(st.legal_moves))
        moves.append(m)
        st.push(m)
    return start, moves


def ctrl_c_held_until_start() -> None:
    """`preexec_fn` for a program started to be interrupted: SIGINT blocked in the child, so a
    Ctrl-C sent while the interpreter itself is starting (before any of the program's code, and
    on a busy machine that can take a second) waits until the program's first line
    (`cli/__init__.py`) installs its handler and unblocks it.  What the tests then see is the
    program's answer at every point from its first line on, never Python's own start."""
    import signal
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
