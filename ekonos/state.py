"""The Python API of a game in progress: `State`.

`State` subclasses the C-level `CoreState` (whose getters are the read API: `owner(space)`,
`tiles(company)`, `growth(company)`, `president(company)`, `coins(seat)`, `shares(seat,
company)`, `hand(seat)`, `discard`, ...) and adds moves as values, checked play with reasons,
undo, the turn in progress, players' names and position files.  Methods ending in `_unchecked`
trust their input.
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import NamedTuple

from ekonos import _core
from ekonos.errors import EkonosError, IllegalMoveError, InvalidMoveError
from ekonos.moves import Move
from ekonos.names import check_names
from ekonos.notation import parse_move
from ekonos.rules import (COMPANIES, MAX_SHARES, MAX_TILES, PLAYER_TABLE, TOKEN_LIMIT, VARIANTS,
                          Company, Step)

DEFAULT_NAMES = ("Anna", "Bruno", "Chiara", "David", "Elena", "Felix")
NUM_ACTIONS = _core.ACTIONS["NUM_ACTIONS"]


class Expansion(NamedTuple):
    """The expansion in progress (R11-R13)."""

    company: Company
    actions_left: int | None        # None while the president chooses to expand or wait
    start_spaces: tuple[int, ...]   # the company's tiles when it began (R13 adjacency)


class Turn(NamedTuple):
    """The turn in progress, once its card is played (`State.turn`)."""

    player: int                     # whose turn it is (not always who decides: R11-R12)
    card: int                       # the card played, 1-36
    sold: bool                      # a share was sold this turn (R7)
    expansion: Expansion | None     # during expand-choice / expand
    selling: Company | None         # successor step: the company whose presidency is chosen
    candidates: tuple[int, ...]     # successor step: the tied seats


class LegalMoves:
    """The legal moves of a position, computed when first needed (like python-chess's).
    Iterates `Move` values; `actions()` gives the engine's numbers."""

    def __init__(self, state: "State"):
        self._state = state
        self._list: list[int] | None = None

    def actions(self) -> list[int]:
        if self._list is None:
            self._list = self._state.legal_actions()
        return self._list

    def __iter__(self) -> Iterator[Move]:
        return (Move.from_action(a) for a in self.actions())

    def __len__(self) -> int:
        return self._state.count_legal()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, Move):
            try:
                move = move.action
            except ValueError:
                return False
        return isinstance(move, int) and self._state.is_legal(move)

    def __bool__(self) -> bool:
        return self._state.count_legal() > 0

    def texts(self) -> list[str]:
        return [str(m) for m in self]

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
        """A new game, dealt (R3, R4).  Without a seed one is drawn at random and kept in `seed`.
        `names` (one per seat; default Anna, Bruno, ...) are trimmed and checked by
        `check_names`; every bad argument raises EkonosError."""
        if isinstance(players, bool) or not isinstance(players, int) \
                or players not in PLAYER_TABLE:
            raise EkonosError(f"players must be 2-6, got {players!r}")
        if variant not in VARIANTS:
            raise EkonosError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        if names is not None and not isinstance(names, (list, tuple)):
            raise EkonosError(f"names must be a list of names, got {type(names).__name__}")
        names = list(names) if names else list(DEFAULT_NAMES[:players])
        if len(names) != players:
            raise EkonosError(f"{len(names)} names given for {players} players")
        names = check_names(names)
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise EkonosError(f"seed must be an integer 0 to 2**64-1, got {seed!r}")
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
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    @property
    def turn(self) -> Turn | None:
        """The turn in progress (None at the card step and when the game is over)."""
        if self.step in (Step.CARD, Step.OVER):
            return None
        player, card, sold, xc, left, frm, cands = self._turn_raw
        step = self.step
        expansion = None
        if step in (Step.EXPAND_CHOICE, Step.EXPAND):
            expansion = Expansion(Company(xc), left if step is Step.EXPAND else None,
                                  tuple(frm) if step is Step.EXPAND else ())
        selling = Company(xc) if step is Step.SUCCESSOR else None
        return Turn(player, card, sold, expansion, selling, tuple(cands))

    def decider(self, company: Company | int) -> int:
        """R11-R12: who takes `company`'s growth decisions in this turn: its president, or the
        player of the card when it has none."""
        pres = self.president(company)
        if pres is not None:
            return pres
        turn = self.turn
        return turn.player if turn is not None else self.to_move

    def view(self, seat: int) -> "State":
        """What `seat` can see (R21): a copy in which every other hand is unknown (only its size
        is kept) and the chance stream for later deals is replaced, so nothing decided from the
        view can depend on hidden information.  Bots and `hint` receive views, never states."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.nplayers:
            raise ValueError(f"seat must be 0-{self.nplayers - 1}, got {seat!r}")
        v = self.copy()
        v._hide(seat)
        v.seed = None       # the seed fixes every deal: keeping it would reveal the hidden hands
        return v

    def winners(self) -> list[int]:
        """R20: the seats with the highest score (only once the game is over)."""
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores)
        return [q for q, v in enumerate(scores) if v == best]

    def move_text(self, action: int) -> str:
        return str(Move.from_action(action))

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
    def parse_move(self, text: str) -> Move:
        """Text -> a legal Move, or MoveError saying what is wrong and what is legal."""
        if self.is_over():
            raise IllegalMoveError(text, "the game is over", [])
        try:
            move = parse_move(text, self.step, self.names)
        except InvalidMoveError as e:
            raise InvalidMoveError(e.text, e.reason, self.legal_moves.texts()) from None
        reason = self.why_illegal(move)
        if reason:
            raise IllegalMoveError(text, reason, self.legal_moves.texts())
        return move

    def push(self, move: Move | int) -> None:
        """Apply a legal move (a Move or an action number), then every forced step.
        Raises IllegalMoveError otherwise."""
        action = _action_of(move)
        reason = self.why_illegal(action)
        if reason:
            shown = str(Move.from_action(action)) if 0 <= action < NUM_ACTIONS else str(action)
            raise IllegalMoveError(shown, reason, self.legal_moves.texts())
        self.push_unchecked(action)

    def push_unchecked(self, move: Move | int) -> None:
        """Apply without a legality check; the caller guarantees the move is legal."""
        action = _action_of(move)
        snapshot = self._snapshot()
        self.apply_unchecked(action)
        self._undo.append(snapshot)
        self.moves.append(action)

    def push_text(self, text: str) -> Move:
        move = self.parse_move(text)
        self.push_unchecked(move.action)
        return move

    def pop(self) -> Move:
        """Take back the last pushed decision (and the forced steps that followed it)."""
        if not self._undo:
            raise IndexError("no move to take back")
        self._restore(self._undo.pop())
        return Move.from_action(self.moves.pop())

    def why_illegal(self, move: Move | int) -> str | None:
        """None if the move is legal here, otherwise a sentence a person understands.  The
        engine says which rule the move breaks (`why_code`, next to its move generator); this
        only words it."""
        try:
            action = _action_of(move)
        except ValueError as e:
            return str(e)
        code = self.why_code(action)
        if code == 0:
            return None
        return _word_reason(self, code, action)

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
        from ekonos.files import load_text
        return load_text(cls, text)


def _rebuild(cls, snapshot: bytes, names, seed, undo, moves) -> State:
    st = cls.__new__(cls)
    st._restore(snapshot)
    st._init_python(names, seed)
    st._undo, st.moves = undo, moves
    return st


def _action_of(move: Move | int) -> int:
    if isinstance(move, Move):
        return move.action
    if isinstance(move, bool) or not isinstance(move, int):
        raise ValueError(f"a move is a Move or an action number, got {move!r}")
    return move


def _word_reason(st: State, code: int, action: int) -> str:
    """The engine's reason code (WHY_NAMES) for `action` in `st`, as a sentence."""
    why = _core.WHY_NAMES[code]
    if why == "not-an-action":
        return f"action {action} is not in the action table (0-{NUM_ACTIONS - 1})"
    if why == "game-over":
        return "the game is over"
    m = Move.from_action(action)
    seat = st.to_move
    who = "you" if _is_you(st.names[seat]) else st.names[seat]
    step = st.step
    if why == "wrong-step":
        if m.kind.value == "pass":
            return f"pass skips the sell or the buy step; this is the {step} step ({who} to decide)"
        return f"it is the {step} step ({who} to decide), not {_a(str(m.step))} {m.step} decision"
    turn = st.turn
    company = m.top if m.card is not None else m.company
    if company is None and turn is not None and turn.expansion is not None:
        company = turn.expansion.company
    name = COMPANIES[company] if company is not None else ""
    if why == "hand-unknown":
        return f"{_poss(who)} hand is not known in this position, so a card play can't be applied"
    if why == "not-in-hand":
        return (f"card {m.card} is not in {_poss(who)} hand "
                f"(hand: {', '.join(map(str, st.hand(seat)))})")
    if why == "space-taken":
        return f"space {m.space} is not empty ({COMPANIES[st.owner(m.space)]})"
    if why == "no-tile-left":
        return f"{name} already has {MAX_TILES} tiles on the map"
    if why == "no-tile-to-protect":
        return f"space {m.space} holds no {name} tile to protect"
    if why == "already-protected":
        return f"the {name} tile on space {m.space} is already protected"
    if why == "tile-protected":
        return f"space {m.space} holds a protected tile"
    if why == "already-own":
        return f"space {m.space} is already {_poss(name)}"
    if why == "not-adjacent":
        return (f"space {m.space} was not adjacent to {_poss(name)} tiles at the start of the "
                "expansion (R13)")
    if why == "no-share":
        return f"{_subject(who, 'owns', 'own')} no share of {name}"
    if why == "column-full":
        return f"the {name} column is full ({MAX_SHARES} shares)"
    if why == "token-limit":
        after = st.copy()                     # what the buy would take, as the engine buys
        after.apply_unchecked(action)
        need = after.tokens(seat) - st.tokens(seat)
        what = "a share and a presidency marker" if need == 2 else "a share"
        return (f"buying a {name} share would need {need} token{'s' if need != 1 else ''} "
                f"({what}) and {_subject(who, 'has', 'have')} {st.tokens(seat)} of {TOKEN_LIMIT} "
                "on the board, "
                f"so {max(TOKEN_LIMIT - st.tokens(seat), 0)} left (R17)")
    if why == "cannot-afford":
        return (f"a {name} share costs {st.column(company) + 1} and "
                f"{_subject(who, 'has', 'have')} {st.coins(seat)} "
                f"coin{'s' if st.coins(seat) != 1 else ''}")
    if why == "not-candidate":
        return "the successor must be one of " + ", ".join(
            f"{q} {st.names[q]}" for q in turn.candidates)
    return "not legal here"


def _is_you(name: str) -> bool:
    """A player called "You" (the default name of the person, any case) is addressed as you."""
    return name.strip().casefold() == "you"


def _poss(name: str) -> str:
    """Possessive of a name: "Anna's", "Felix'", and "your" for a player called "You"."""
    if _is_you(name):
        return "your"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _subject(name: str, third: str, second: str) -> str:
    """"Anna has" / "you have": the name and its verb, agreeing (`third` person or `second`)."""
    return f"you {second}" if _is_you(name) else f"{name} {third}"


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
