"""The Python API of a game in progress: `State`.

`State` subclasses the C-level `CoreState`, adding checked moves with reasons, notation, undo,
players' names and position files.  Methods ending in `_unchecked` trust their input.
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Iterator

from ekonos import _core, notation
from ekonos.errors import EkonosError, IllegalMoveError, InvalidMoveError
from ekonos.rules import (COMPANIES, DECK, MAX_SHARES, MAX_TILES, PLAYER_TABLE, TOKEN_LIMIT,
                          TOKEN_LIMIT_MIN_PLAYERS, VARIANTS)

A = _core.ACTIONS
STEPS = _core.STEP_NAMES
DEFAULT_NAMES = ("Anna", "Bruno", "Chiara", "David", "Elena", "Felix")


class LegalMoves:
    """The legal actions of a position, computed when first needed (like python-chess's)."""

    def __init__(self, state: "State"):
        self._state = state
        self._list: list[int] | None = None

    def _actions(self) -> list[int]:
        if self._list is None:
            self._list = self._state.legal_actions()
        return self._list

    def __iter__(self) -> Iterator[int]:
        return iter(self._actions())

    def __len__(self) -> int:
        return self._state.count_legal()

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self._state.is_legal(action)

    def __bool__(self) -> bool:
        return self._state.count_legal() > 0

    def texts(self) -> list[str]:
        return [notation.action_text(a) for a in self._actions()]

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(self.texts())})>"


class State(_core.CoreState):
    """A game of Ekonos at one decision point.

    >>> s = State.new(players=4, seed=1)
    >>> s.push_text("play 5 grow Crown")        # doctest: +SKIP
    """

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, names: list[str] | None = None,
            variant: str = "rulebook") -> "State":
        """A new game, dealt (R3, R4).  Without a seed one is drawn at random and kept in `seed`."""
        if players not in PLAYER_TABLE:
            raise EkonosError(f"players must be 2-6, got {players}")
        if variant not in VARIANTS:
            raise EkonosError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        names = list(names) if names else list(DEFAULT_NAMES[:players])
        if len(names) != players:
            raise EkonosError(f"{len(names)} names given for {players} players")
        if len(set(n.lower() for n in names)) != len(names) or not all(n.strip() for n in names):
            raise EkonosError(f"player names must be non-empty and distinct: {names}")
        if any(n.strip().isdigit() for n in names):
            raise EkonosError(f"a player name can't be a number (moves name seats by number): "
                              f"{names}")
        if seed is None:
            seed = secrets.randbits(63)
        if not 0 <= seed < 2**64:
            raise EkonosError(f"seed must be 0 to 2**64-1, got {seed}")
        st = cls.new_game(players, seed, VARIANTS.index(variant))
        st._init_python(names, seed)
        return st

    def _init_python(self, names: list[str], seed: int | None) -> None:
        self.names = list(names)
        self.seed = seed
        self._undo: list[bytes] = []
        self.moves: list[int] = []      # decisions pushed through this object, in order

    def copy(self, history: bool = False) -> "State":
        """An independent copy (a struct copy).  `history=True` keeps undo and the move list."""
        st = type(self).__new__(type(self))
        st._copy_core_from(self)
        st._init_python(self.names, self.seed)
        if history:
            st._undo = list(self._undo)
            st.moves = list(self.moves)
        return st

    __copy__ = copy

    def __deepcopy__(self, memo) -> "State":
        return self.copy(history=True)

    def __reduce__(self):
        """Pickle as the raw struct plus the Python attributes (exact, like a copy)."""
        return (_rebuild, (type(self), self._snapshot(), self.names, self.seed,
                           list(self._undo), list(self.moves)))

    # -- queries --------------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return VARIANTS[self._fields()["variant"]]

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def view(self, seat: int) -> "State":
        """What `seat` can see (R21): a copy in which every other hand is unknown (only its size
        is kept) and the chance stream for later deals is replaced, so nothing decided from the
        view can depend on hidden information.  Bots and `hint` receive views, never states."""
        if not 0 <= seat < self.nplayers:
            raise ValueError(f"seat must be 0-{self.nplayers - 1}, got {seat}")
        f = self._fields()
        keep = f["known"] & (1 << seat)
        f["hand"] = [h if keep >> q & 1 else 0 for q, h in enumerate(f["hand"])]
        f["known"] = keep
        f["rng"] = _core.rng_words(0)
        v = self.copy()
        v._set_fields(f)
        v.seed = None       # the seed fixes every deal: keeping it would reveal the hidden hands
        return v

    def hand(self, seat: int) -> list[int] | None:
        """Card numbers (1-36) in a hand, or None when this position does not know it."""
        if not self.hand_known(seat):
            return None
        mask = self._fields()["hand"][seat]
        return [c + 1 for c in range(36) if mask >> c & 1]

    def hand_size(self, seat: int) -> int:
        return self._fields()["hand_size"][seat]

    def winners(self) -> list[int]:
        """R20: the seats with the highest score (only once the game is over)."""
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores)
        return [q for q, v in enumerate(scores) if v == best]

    def move_text(self, action: int) -> str:
        return notation.action_text(action)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and self._same_core(other)
                and self.names == other.names)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        return f"State.from_json({self.to_json(indent=None)!r})"

    def __str__(self) -> str:
        from ekonos.render import render_text  # local: rendering is optional for the engine
        return render_text(self)

    # -- moves ----------------------------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """Text -> legal action, or MoveError saying what is wrong and what is legal."""
        if self.is_over():
            raise IllegalMoveError(text, "the game is over", [])
        try:
            action = notation.parse_action(text, self.step_name, self.names)
        except InvalidMoveError as e:
            raise InvalidMoveError(e.text, e.reason, self.legal_moves.texts()) from None
        reason = self.why_illegal(action)
        if reason:
            raise IllegalMoveError(text, reason, self.legal_moves.texts())
        return action

    def push(self, action: int) -> None:
        """Apply a legal action (then every forced step).  Raises IllegalMoveError otherwise."""
        reason = self.why_illegal(action)
        if reason:
            shown = notation.action_text(action) if 0 <= action < A["NUM_ACTIONS"] else str(action)
            raise IllegalMoveError(shown, reason, self.legal_moves.texts())
        self.push_unchecked(action)

    def push_unchecked(self, action: int) -> None:
        """Apply without a legality check; the caller guarantees `action` is legal."""
        self._undo.append(self._snapshot())
        self.moves.append(action)
        self.apply_unchecked(action)

    def push_text(self, text: str) -> int:
        action = self.parse_move(text)
        self.push_unchecked(action)
        return action

    def pop(self) -> int:
        """Take back the last pushed decision (and the forced steps that followed it)."""
        if not self._undo:
            raise IndexError("no move to take back")
        self._restore(self._undo.pop())
        return self.moves.pop()

    def why_illegal(self, action: int) -> str | None:
        """None if `action` is legal here, otherwise a sentence a person understands."""
        if not 0 <= action < A["NUM_ACTIONS"]:
            return f"action {action} is not in the action table"
        if self.is_legal(action):
            return None
        return _explain(self, action)

    # -- position files -------------------------------------------------------------------------
    def to_dict(self) -> dict:
        from ekonos.position import state_to_dict
        return state_to_dict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: dict) -> "State":
        from ekonos.position import state_from_dict
        return state_from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str) -> "State":
        from ekonos.position import load_text
        return load_text(cls, text)


def _rebuild(cls, snapshot: bytes, names, seed, undo, moves) -> State:
    st = cls.__new__(cls)
    st._restore(snapshot)
    st._init_python(names, seed)
    st._undo, st.moves = undo, moves
    return st


def _explain(st: State, action: int) -> str:
    """Why a well-formed action is not legal in `st` (called only when it is not)."""
    f = st._fields()
    step = STEPS[f["step"]]
    if step == "over":
        return "the game is over"
    who = st.names[f["to_move"]]
    kind = _step_of(action)
    if action in (A["A_SELL_PASS"], A["A_BUY_PASS"]) and step not in ("sell", "buy"):
        return f"pass skips the sell or the buy step; this is the {step} step ({who} to decide)"
    if kind != step:
        return f"it is the {step} step ({who} to decide), not a {kind} decision"
    if kind == "card":
        card, sub = divmod(action, A["CARD_SUBS"])
        if not st.hand_known(f["to_move"]):
            return f"{who}'s hand is not known in this position, so a card play can't be applied"
        hand = st.hand(f["to_move"])
        if card + 1 not in hand:
            return f"card {card + 1} is not in {who}'s hand (hand: {', '.join(map(str, hand))})"
        top = DECK[card].top
        if sub < 36:
            owner = _owner(f, sub)
            if owner is not None:
                return f"space {sub + 1} is not empty ({COMPANIES[owner]})"
            return f"{COMPANIES[top]} already has {MAX_TILES} tiles on the map"
        space = sub - 36
        if _owner(f, space) != top:
            return f"space {space + 1} holds no {COMPANIES[top]} tile to protect"
        return f"the {COMPANIES[top]} tile on space {space + 1} is already protected"
    if kind == "expand":
        company = COMPANIES[f["xcompany"]]
        if action == A["A_XSTOP"]:
            return "stop is always legal during an expansion"
        if action < A["A_XPROTECT"]:
            space = action - A["A_XPLACE"]
            if bin(f["tiles"][f["xcompany"]]).count("1") >= MAX_TILES:
                return f"{company} already has {MAX_TILES} tiles on the map"
            if f["protected"] >> space & 1:
                return f"space {space + 1} holds a protected tile"
            if _owner(f, space) == f["xcompany"]:
                return f"space {space + 1} is already {company}'s"
            return (f"space {space + 1} was not adjacent to {company}'s tiles at the start of "
                    "the expansion (R13)")
        space = action - A["A_XPROTECT"]
        if _owner(f, space) != f["xcompany"]:
            return f"space {space + 1} holds no {company} tile to protect"
        return f"the {company} tile on space {space + 1} is already protected"
    if kind == "sell":
        return f"{who} owns no share of {COMPANIES[action - A['A_SELL']]}"
    if kind == "buy":
        c = action - A["A_BUY"]
        col = st.column(c)
        if col >= MAX_SHARES:
            return f"the {COMPANIES[c]} column is full ({MAX_SHARES} shares)"
        if st.nplayers >= TOKEN_LIMIT_MIN_PLAYERS and st.tokens(f["to_move"]) >= TOKEN_LIMIT:
            return f"{who} has all {TOKEN_LIMIT} tokens on the board (R17)"
        return f"a {COMPANIES[c]} share costs {col + 1} and {who} has {f['coins'][f['to_move']]}"
    if kind == "successor":
        cands = [q for q in range(st.nplayers) if f["candidates"] >> q & 1]
        return "the successor must be one of " + ", ".join(f"{q} {st.names[q]}" for q in cands)
    return "not legal here"


def _step_of(action: int) -> str:
    if action < A["A_EXPAND"]:
        return "card"
    if action <= A["A_WAIT"]:
        return "expand-choice"
    if action <= A["A_XSTOP"]:
        return "expand"
    if action <= A["A_SELL_PASS"]:
        return "sell"
    if action <= A["A_BUY_PASS"]:
        return "buy"
    return "successor"


def _owner(fields: dict, space: int) -> int | None:
    for c, mask in enumerate(fields["tiles"]):
        if mask >> space & 1:
            return c
    return None

