"""The record of a game played with `ekonos play`: a position file plus a `"play"` field.

    "play": {"version": 1, "human": 0, "level": 3, "ai_seed": 123, "ply0": 0,
             "start": {...a position...}, "moves": ["play 7 place 12", "pass", ...]}

`human` is the person's seat, `level` the AI's, `ai_seed` seeds every AI decision (so a resumed
game continues exactly as it would have), `start` the position the decisions in `moves` (canonical
notation) are played from, and `ply0` the number of decisions made before `start`.  The field is
an addition the position format allows (docs/position-format.md): other programs read the
position and ignore it.  This module writes it and reads it back (`read_record`), also from a
plain position file without it; no terminal, no files (cli/storage.py reads and writes those).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ekonos import State
from ekonos.errors import EkonosError, PositionError
from ekonos.moves import Move
from ekonos.position import state_from_dict
from search.bots import LEVELS, RETIRED, derive_seed

PLAY_FORMAT = 1                  # version of the "play" record added to position files
DEFAULT_LEVEL = 3
_SEED_AI_OF_FILE = 0x504C4159    # derive_seed tags: the AI seed of a plain position file,
_SEED_HANDS = 0x48414E44         # and the deal of the hands a file does not give


class RecordError(EkonosError):
    """A record that cannot be resumed; `setting` names an overriding setting at fault."""

    def __init__(self, message: str, setting: str | None = None):
        super().__init__(message)
        self.setting = setting


@dataclass
class Setup:
    """What a session needs to resume a record: the start position, the decisions to replay from
    it, the person's seat, the AI's level and seed, and notes for the person."""

    start: State
    moves: list[Move]
    human: int
    level: int
    ai_seed: int
    ply0: int = 0
    notes: list[str] = field(default_factory=list)


def write_record(state: State, start: State, moves: list[Move], *, human: int, level: int,
                 ai_seed: int, ply0: int) -> dict:
    """The position `state` with its "play" record (decisions `moves` from `start`)."""
    d = state.to_dict()
    d["play"] = {"version": PLAY_FORMAT, "human": human, "level": level, "ai_seed": ai_seed,
                 "ply0": ply0, "start": start.to_dict(), "moves": [str(m) for m in moves]}
    return d


def read_record(data: object, where: str = "record", level: int | None = None,
                seat: int | None = None) -> Setup:
    """A decoded position file (with or without "play") -> Setup.  `level` and `seat` override
    the record's.  A record whose history no longer leads to its position resumes from the
    position; hands the file does not give are dealt at random from the cards the person
    cannot see.  RecordError (its message starts with `where`) for anything unusable."""
    try:
        state = state_from_dict(State, data)
    except PositionError as e:
        raise RecordError(f"{where}: {e}") from None
    play = data.get("play")
    notes: list[str] = []
    if play is None:
        human = 0 if seat is None else seat
        lvl = DEFAULT_LEVEL if level is None else level
        ai_seed = derive_seed(state.seed or 0, _SEED_AI_OF_FILE)
        start, moves, ply0 = state, [], 0
    else:
        if not isinstance(play, dict):
            raise RecordError(f"{where}: play: must be an object")
        human = _field_int(play, "human", 0, state.nplayers - 1, where) if seat is None else seat
        lvl = _field_int(play, "level", 1, max(*LEVELS, *RETIRED), where) if level is None \
            else level
        if lvl in RETIRED:                  # a game saved when the level existed goes on
            notes.append(f"level {lvl} was retired ({RETIRED[lvl][1]}): the AI plays at level "
                         f"{max(LEVELS)}, the strongest")
            lvl = max(LEVELS)
        ai_seed = _field_int(play, "ai_seed", 0, 2**64 - 1, where)
        ply0 = _field_int(play, "ply0", 0, 10**6, where) if "ply0" in play else 0
        start, moves = _replay(play, state)
        if start is None:
            notes.append("the record's history does not lead to this position: undo starts "
                         "from here")
            start, moves = state, []
            texts = play.get("moves")
            ply0 += len(texts) if isinstance(texts, list) else 0
    if isinstance(human, bool) or not isinstance(human, int) or not 0 <= human < state.nplayers:
        raise RecordError(f"seat must be 0-{state.nplayers - 1} for this game, got {human}",
                          "seat")
    if lvl not in LEVELS:
        raise RecordError(f"level must be 1-{len(LEVELS)}, got {lvl}", "level")
    if not all(start.hand_known(q) for q in range(start.nplayers)) or \
            not all(state.hand_known(q) for q in range(state.nplayers)):
        if moves:
            start, moves = state, []
        start = start.copy()
        start.determinize(human, derive_seed(ai_seed, _SEED_HANDS))
        notes.append("hands the file does not give were dealt at random from the cards "
                     f"{start.names[human]} cannot see")
    return Setup(start, moves, human, lvl, ai_seed, ply0, notes)


def _field_int(play: dict, key: str, low: int, high: int, where: str) -> int:
    v = play.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise RecordError(f"{where}: play.{key}: must be an integer {low}-{high}, got {v!r}")
    return v


def _replay(play: dict, state: State) -> tuple[State | None, list[Move]]:
    """The record's start position and moves, if they lead exactly to `state`."""
    start_d, texts = play.get("start"), play.get("moves")
    if not isinstance(start_d, dict) or not isinstance(texts, list):
        return None, []
    try:
        start = state_from_dict(State, start_d)
        st = start.copy()
        moves = []
        for t in texts:
            if not isinstance(t, str):
                return None, []
            moves.append(st.push_text(t))
    except EkonosError:
        return None, []
    if st.to_dict() != state.to_dict():
        return None, []
    return start, moves
