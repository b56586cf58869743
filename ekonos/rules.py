"""The fixed facts of Ekonos (docs/rules.md): companies, deck, per-player-count table, board graph.

This module is the single source of the rules' data.  The Cython core (`ekonos._core`) reads it
once at import time to fill its C tables; the Python layer (notation, position files, the CLI)
reads it directly.  Nothing else restates these facts.
"""
from __future__ import annotations

import json
from enum import IntEnum
from importlib import resources
from typing import NamedTuple

#: The six companies in their fixed order (index 0-5), R1.
COMPANIES: tuple[str, ...] = ("Sunset", "Phoenix", "Panda", "Crown", "Hydra", "Gemini")
NUM_COMPANIES = 6
NUM_SPACES = 36
NUM_CARDS = 36
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_TILES = 10          # tiles per company (R9, R13)
MAX_SHARES = 8          # share spaces per market column (R16)
TOKEN_LIMIT = 18        # tokens per player, enforced with 4-6 players (R17)
TOKEN_LIMIT_MIN_PLAYERS = 4
VARIANTS = ("rulebook", "bga")   # R6


class Company(IntEnum):
    """The six companies, in their fixed order (R1).  `str(c)` is the name used in notation."""

    SUNSET = 0
    PHOENIX = 1
    PANDA = 2
    CROWN = 3
    HYDRA = 4
    GEMINI = 5

    def __str__(self) -> str:
        return COMPANIES[self]

    @property
    def label(self) -> str:
        """The company's name, as notation and position files write it."""
        return COMPANIES[self]


class Step(IntEnum):
    """The decision a position waits for (R7-R18): the engine's step machine.  `str(step)` is the
    name position files use (`card`, `expand-choice`, ...)."""

    CARD = 0
    EXPAND_CHOICE = 1
    EXPAND = 2
    SELL = 3
    BUY = 4
    SUCCESSOR = 5
    OVER = 6

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")

    @classmethod
    def from_text(cls, text: str) -> "Step":
        """`expand-choice` -> Step.EXPAND_CHOICE; ValueError for anything else."""
        for step in cls:
            if str(step) == text:
                return step
        raise ValueError(f"unknown step {text!r} (steps: {', '.join(map(str, cls))})")


class Card(NamedTuple):
    number: int           # 1-36
    top: int              # company index
    bottom: tuple[int, int]


def _build_deck() -> tuple[Card, ...]:
    """R1: the cards of top company i carry every pair of the four companies other than i, i+1."""
    cards = []
    for top in range(NUM_COMPANIES):
        others = [c for c in range(NUM_COMPANIES) if c not in (top, (top + 1) % NUM_COMPANIES)]
        for a in range(4):
            for b in range(a + 1, 4):
                cards.append(Card(len(cards) + 1, top, (others[a], others[b])))
    return tuple(cards)


#: The 36 action cards, DECK[n - 1] is card n (the table of docs/rules.md R1).
DECK: tuple[Card, ...] = _build_deck()


class RoundTable(NamedTuple):
    cards: int     # cards dealt per player per round
    coins: int     # coins received per round
    rounds: int    # rounds in the game


#: R2: per player count.
PLAYER_TABLE: dict[int, RoundTable] = {
    2: RoundTable(6, 12, 6),
    3: RoundTable(6, 12, 4),
    4: RoundTable(6, 12, 3),
    5: RoundTable(5, 10, 3),
    6: RoundTable(6, 12, 2),
}


def _load_board() -> dict[int, tuple[int, ...]]:
    text = resources.files("ekonos").joinpath("board.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {int(k): tuple(v) for k, v in data["adjacency"].items()}


#: Space number (1-36) -> neighbouring space numbers; the map graph of board.json.
ADJACENCY: dict[int, tuple[int, ...]] = _load_board()


def company_index(name: str) -> int:
    """Exact company name (any case) -> index.  Prefix matching lives in `ekonos.notation`."""
    for i, c in enumerate(COMPANIES):
        if c.lower() == name.lower():
            return i
    raise ValueError(f"unknown company {name!r} (companies: {', '.join(COMPANIES)})")
