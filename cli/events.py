"""What a game session tells its front-ends (cli/session.py): plain, immutable values.

Every change of a `GameSession` is returned as a list of these events and handed to its
subscribers, in order: the terminal prints them, a web board streams them to the page.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, Union

from ekonos.moves import Move


@dataclass(frozen=True)
class Decision:
    """One decision of the game: its number (1-based, counting from the record's start plus
    `ply0`), who made it, the move, the round it was made in and why (the narration line, with
    the person called "you"); `skipped`: the person's steps the engine then took for them
    (cli.narration.skipped_steps: "sell", "buy")."""

    ply: int
    seat: int
    move: Move
    round: int
    reason: str
    skipped: tuple[str, ...] = ()


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


# ---------------------------------------------------------------------------------------------
# What happened since a seat last decided: for the terminal's "since your turn" and the web
# board alike (pure functions of the decisions, no rendering).

def since_last(decisions: Sequence[Decision], seat: int) -> tuple[Decision, ...]:
    """The other seats' decisions made since `seat`'s last decision, oldest first (every
    decision when `seat` has made none yet): what `seat` has not answered yet."""
    for i in range(len(decisions) - 1, -1, -1):
        if decisions[i].seat == seat:
            return tuple(decisions[i + 1:])
    return tuple(decisions)


def by_turn(decisions: Sequence[Decision]) -> list[tuple[int, tuple[Decision, ...]]]:
    """The decisions in runs of one seat's turn, in order: [(seat, its consecutive decisions)]
    (a card played begins a new run: a player may have two turns in a row at a new round)."""
    runs: list[tuple[int, tuple[Decision, ...]]] = []
    for d in decisions:
        if runs and runs[-1][0] == d.seat and d.move.card is None:
            runs[-1] = (d.seat, runs[-1][1] + (d,))
        else:
            runs.append((d.seat, (d,)))
    return runs


def spaces_changed(decisions: Sequence[Decision]) -> frozenset[int]:
    """The spaces of the map these decisions changed: a tile placed (on an empty space, or
    over another company's tile in an expansion) or protected.  (The steps the engine takes
    by itself never change the map: an expansion may always stop.)"""
    return frozenset(d.move.space for d in decisions if d.move.space is not None)
