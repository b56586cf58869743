"""Moves as values: one decision of one player, immutable, hashable, with a canonical text form.

Every decision of the game is one `Move`; the engine numbers the same decisions with integer
actions (a fixed table, `ekonos/_core.pxd`).  The two convert both ways and round-trip:

>>> m = Move.from_action(Move.play(7, MoveKind.PLACE, space=12).action)
>>> str(m), m.card, m.space
('play 7 place 12', 7, 12)

Text is the notation of docs/position-format.md: `ekonos.notation.parse_move(text)` (or,
checked against a position, `State.parse_move(text)`) reads it; nothing else reads notation text.
Whether a move is legal is a question for a position: `State.why_illegal(move)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from operator import index

from ekonos import _core
from ekonos.rules import COMPANIES, DECK, NUM_CARDS, NUM_SPACES, Company, Step

_A = _core.ACTIONS
CARD_SUBS = _A["CARD_SUBS"]
NUM_ACTIONS = _A["NUM_ACTIONS"]


class MoveKind(Enum):
    """What a decision does; `str(kind)` is its verb in notation."""

    PLACE = "place"            # card step (with a card) or expansion: a tile on a space
    PROTECT = "protect"        # card step (with a card) or expansion: flip a tile
    GROW = "grow"              # card step: a bottom company's track +1
    EXPAND = "expand"          # expand-choice
    WAIT = "wait"              # expand-choice
    STOP = "stop"              # expansion: end it early
    SELL = "sell"
    BUY = "buy"
    PASS = "pass"              # skip the sell or the buy step (`step` says which)
    SUCCESSOR = "successor"    # the selling president names the next one

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Move:
    """One decision.  Fields that do not apply are None:

    * `step`: the step the decision belongs to (`Step.CARD`, `Step.EXPAND`, ...);
    * `kind`: what it does (`MoveKind`);
    * `card`: the card played (1-36), card step only;
    * `space`: the space (1-36) of a place or protect;
    * `company`: the company grown, sold or bought;
    * `seat`: the next president chosen in a successor step.
    """

    step: Step
    kind: MoveKind
    card: int | None = None
    space: int | None = None
    company: Company | None = None
    seat: int | None = None

    # -- constructors ---------------------------------------------------------------------------
    @classmethod
    def play(cls, card: int, kind: MoveKind, *, space: int | None = None,
             company: Company | int | None = None) -> "Move":
        """A card play: `play(7, PLACE, space=12)`, `play(7, GROW, company=Company.CROWN)`."""
        return cls(Step.CARD, kind, card=card, space=space,
                   company=None if company is None else Company(company))

    @classmethod
    def from_action(cls, action: int) -> "Move":
        """The move of an action number of the engine's table (ValueError outside it)."""
        try:
            a = index(action)
        except TypeError:
            raise ValueError(f"an action is an integer, got {action!r}") from None
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {a} is outside the table 0-{NUM_ACTIONS - 1}")
        return _TABLE[a]

    # -- views ----------------------------------------------------------------------------------
    @property
    def action(self) -> int:
        """The engine's action number (the inverse of `from_action`)."""
        try:
            return _ACTION_OF[self]
        except KeyError:
            raise ValueError(f"{self!r} is not a move of the game") from None

    @property
    def top(self) -> Company | None:
        """For a card play: the company of the card's top region (what place/protect act on)."""
        return None if self.card is None else Company(DECK[self.card - 1].top)

    def __str__(self) -> str:
        """Canonical notation (docs/position-format.md): `play 7 place 12`, `sell Crown`, ..."""
        k = self.kind.value
        if self.step is Step.CARD:
            arg = COMPANIES[self.company] if self.kind is MoveKind.GROW else self.space
            return f"play {self.card} {k} {arg}"
        if self.kind in (MoveKind.PLACE, MoveKind.PROTECT):
            return f"{k} {self.space}"
        if self.kind in (MoveKind.SELL, MoveKind.BUY):
            return f"{k} {COMPANIES[self.company]}"
        if self.kind is MoveKind.SUCCESSOR:
            return f"{k} {self.seat}"
        return k


def _build_table() -> tuple[Move, ...]:
    """Move of every action number, in action order (mirrors the ACTION TABLE of _core.pxd)."""
    moves: list[Move] = []
    for card in range(1, NUM_CARDS + 1):
        moves += [Move(Step.CARD, MoveKind.PLACE, card=card, space=sp)
                  for sp in range(1, NUM_SPACES + 1)]
        moves += [Move(Step.CARD, MoveKind.PROTECT, card=card, space=sp)
                  for sp in range(1, NUM_SPACES + 1)]
        moves += [Move(Step.CARD, MoveKind.GROW, card=card, company=Company(b))
                  for b in DECK[card - 1].bottom]
    assert len(moves) == _A["A_EXPAND"]
    moves += [Move(Step.EXPAND_CHOICE, MoveKind.EXPAND), Move(Step.EXPAND_CHOICE, MoveKind.WAIT)]
    moves += [Move(Step.EXPAND, MoveKind.PLACE, space=sp) for sp in range(1, NUM_SPACES + 1)]
    moves += [Move(Step.EXPAND, MoveKind.PROTECT, space=sp) for sp in range(1, NUM_SPACES + 1)]
    moves.append(Move(Step.EXPAND, MoveKind.STOP))
    moves += [Move(Step.SELL, MoveKind.SELL, company=c) for c in Company]
    moves.append(Move(Step.SELL, MoveKind.PASS))
    moves += [Move(Step.BUY, MoveKind.BUY, company=c) for c in Company]
    moves.append(Move(Step.BUY, MoveKind.PASS))
    moves += [Move(Step.SUCCESSOR, MoveKind.SUCCESSOR, seat=q) for q in range(6)]
    assert len(moves) == NUM_ACTIONS
    return tuple(moves)


_TABLE: tuple[Move, ...] = _build_table()
_ACTION_OF: dict[Move, int] = {m: a for a, m in enumerate(_TABLE)}
