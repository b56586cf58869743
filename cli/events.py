"""What a game session tells its front-ends (cli/session.py): plain, immutable values.

Every change of a `GameSession` is returned as a list of these events and handed to its
subscribers, in order: the terminal prints them, a web board streams them to the page.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Union

from ekonos.moves import Move


@dataclass(frozen=True)
class Decision:
    """One decision of the game: its number (1-based, counting from the record's start plus
    `ply0`), who made it, the move, the round it was made in and why (the narration line, with
    the person called "you")."""

    ply: int
    seat: int
    move: Move
    round: int
    reason: str


@dataclass(frozen=True)
class DecisionMade:
    decision: Decision
    human: bool


@dataclass(frozen=True)
class RoundStarted:
    round: int
    rounds: int
    coins: int                   # each player's income at the start of the round (R4)


@dataclass(frozen=True)
class GameOver:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    saved: tuple[Path, ...]      # where the record was written (games folder, autosave)


@dataclass(frozen=True)
class Undone:
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class Redone:
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class AutosaveFailed:
    path: Path
    reason: str


@dataclass(frozen=True)
class RecordFailed:
    path: Path
    reason: str


Event = Union[DecisionMade, RoundStarted, GameOver, Undone, Redone, AutosaveFailed, RecordFailed]
