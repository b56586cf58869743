"""A game between one person and AI players, knowing no terminal: `GameSession`.

`ekonos play` (cli/commands/play.py) is prompts and rendering on top of it; a web board drives
the same object.  What it does:

* seats: one human seat, every other seat an AI of `search.bots.LEVELS[level]`, which decides
  from `state.view(seat)` only (R21);
* decisions: `decide(move_or_text)` for the person, `play_ai()` for the AI seat to move (or, to
  think off a server's event loop, `ai_turn()` -> `AiTurn.think()` -> `commit(turn, move)`);
* undo (back to the person's previous decision; never once over) and redo, on the engine's stack;
* the record: the position plus a `"play"` field (the start position and every decision since),
  written to the autosave after every decision, and to the records folder when the game ends;
  `load` resumes it exactly;
* hints through `search.analysis`, rows h1, h2, ... kept per position (`decide("h1")`);
* the review of the game (`search.review`) once it is over;
* events: every change is returned as a list of events and handed to each subscriber
  (`subscribe(callback)`): `DecisionMade` (with the reason line of `cli.narration`),
  `RoundStarted`, `GameOver`, `Undone`, `Redone`, `AutosaveFailed`, `RecordFailed` (cli.events).

Concurrency: every change of the game (`_push`, `undo`, `redo`) builds a new State (a copy
that keeps the engine's undo stack, then push or pop) and swaps the position and the decisions
in one assignment (`_head`) under `self.lock`, an RLock; `_change` then autosaves and calls the
subscribers, still under the lock, in order (a subscriber must be quick and must not raise).  A
State read from `session.state` is never changed afterwards, so a reader in another thread
needs no lock.  The AI's thinking holds no lock: `commit` refuses a decision computed for a
position that has changed meanwhile (`StaleTurn`).  One `AiTurn` at a time per session (a bot
is not re-entrant).  The single assignment also keeps the game whole when Ctrl-C interrupts.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from ekonos import State
from ekonos.errors import EkonosError, IllegalMoveError, InvalidMoveError
from ekonos.moves import Move
from ekonos.rules import PLAYER_TABLE
from ekonos.state import DEFAULT_NAMES
from search.analysis import JUDGE_LEVEL, analyse, judge_iterations, level_params
from search.bots import LEVELS, Bot, derive_seed, make_bot
from search.review import review_game

from cli import storage
from cli.grammar import Command, interpret
from cli.events import (AutosaveFailed, Decision, DecisionMade, Event, GameOver, RecordFailed,
                        Redone, RoundStarted, Undone)
from cli.narration import describe, plural, read_line, skipped_steps
from cli.record import DEFAULT_LEVEL, RecordError, read_record, write_record

_SEED_HINT = 0x48494E54          # derive_seed tag of a hint's search


class SessionError(EkonosError):
    """A setting, a record or a request the session cannot take; `setting`: the one at fault."""

    def __init__(self, message: str, setting: str | None = None):
        super().__init__(message)
        self.setting = setting


class NotYourTurn(SessionError):
    """A decision asked of the wrong party (the person while an AI decides, or the reverse)."""


class NothingToUndo(SessionError):
    """`undo` before the person has made any decision."""


class NothingToRedo(SessionError):
    """`redo` with nothing undone (or after a new decision)."""


class StaleTurn(SessionError):
    """An AI decision computed for a position that changed while it was thought about."""


@dataclass(frozen=True)
class AiTurn:
    """An AI decision to be made: the seat's view (R21), the bot and its seed for this ply, and
    the version of the game it was taken from.  `think()` holds no lock; hand its move to
    `GameSession.commit`."""

    seat: int
    view: State
    seed: int
    version: int
    bot: Bot

    def think(self) -> Move:
        return Move.from_action(self.bot.choose(self.view, seed=self.seed))


class _Head(NamedTuple):
    """The game now: the position (its engine stack holds every decision since `start`), the
    decisions, and a version that changes with every change."""

    state: State
    decisions: tuple[Decision, ...]
    version: int


# ---------------------------------------------------------------------------------------------

class GameSession:
    """One game: the person at seat `human` against AI players at `level` at the other seats.

    `start` is the position the record begins from; `moves` decisions to replay from it (no
    events, no autosave); `ply0` counts decisions made before `start`.  `autosave` (a path or
    None) is written after every change; an unfinished game found there is first moved aside
    (`kept_unfinished`), unless it is `source`, the file this game was loaded from.  A finished
    game's record goes to `record_dir` (None: not kept).  One process owns the autosave until
    `close()` (storage.AutosaveBusy when another plays there; `owner` names this one)."""

    def __init__(self, start: State, human: int, level: int, ai_seed: int, *,
                 moves: list[Move | int] | tuple = (), ply0: int = 0,
                 autosave: str | Path | None = None, record_dir: str | Path | None = None,
                 source: str | Path | None = None, notes: list[str] | tuple = (),
                 owner: str = "ekonos"):
        if level not in LEVELS:
            raise SessionError(f"level must be 1-{len(LEVELS)}, got {level}", "level")
        if isinstance(human, bool) or not isinstance(human, int) \
                or not 0 <= human < start.nplayers:
            raise SessionError(f"seat must be 0-{start.nplayers - 1} for this game, got {human}",
                               "seat")
        self.lock = threading.RLock()
        self.start = start.copy()
        self.human = human
        self.ai_seed = ai_seed
        self.ply0 = ply0
        self.level = level
        self._bots = self._make_bots(level)
        self._head = _Head(self.start.copy(history=True), (), 0)
        self._redo: list[tuple[Decision, ...]] = []
        self._hints: dict[tuple[int, ...], tuple[Move, ...]] = {}   # a position's hint rows
        self._subscribers: list[Callable[[Event], None]] = []
        self.over: GameOver | None = None
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self.notes: list[str] = list(notes)
        for m in moves:
            self._push(m if isinstance(m, Move) else Move.from_action(m))
        self.autosave = Path(autosave).expanduser() if autosave is not None else None
        self.autosave_error: str | None = None
        self.kept_unfinished: Path | None = None
        self._claim = None
        if self.autosave is not None:      # owned first: a live game is never moved aside
            self._claim, self.kept_unfinished = storage.own_autosave(self.autosave, source, owner)
            self.autosave_error = storage.check_writable(self.autosave)

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def new(cls, ai: int = 3, level: int = DEFAULT_LEVEL, seed: int | None = None,
            name: str | None = None, seat: int = 0, variant: str = "rulebook",
            **kwargs) -> "GameSession":
        """A new game of `ai` + 1 players; the person (named `name`, default "You") at `seat`."""
        if isinstance(ai, bool) or not isinstance(ai, int) or not 1 <= ai <= 5:
            raise SessionError(f"ai must be 1-5 opponents, got {ai}", "ai")
        players = ai + 1
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise SessionError(f"seat must be 0-{players - 1} with {plural(ai, 'AI opponent')}, "
                               f"got {seat}", "seat")
        name = (name or "You").strip()
        if not name:
            raise SessionError("name must not be empty", "name")
        others = [n for n in DEFAULT_NAMES if n.lower() != name.lower()]
        names = [name if q == seat else others.pop(0) for q in range(players)]
        try:
            st = State.new(players=players, seed=seed, names=names, variant=variant)
        except ValueError as e:
            raise SessionError(str(e)) from None
        return cls(st, seat, level, ai_seed=st.seed, **kwargs)

    @classmethod
    def load(cls, path: str | Path, level: int | None = None, seat: int | None = None,
             **kwargs) -> "GameSession":
        """Resume a game saved by `ekonos play`, or start playing from any position file."""
        data = storage.read_json(path)
        return cls.from_record(data, str(path), level=level, seat=seat, source=Path(path),
                               **kwargs)

    @classmethod
    def from_record(cls, data: object, where: str = "record", level: int | None = None,
                    seat: int | None = None, **kwargs) -> "GameSession":
        """A session from a decoded position file, with or without its "play" record
        (cli.record).  `level` and `seat` override the record's.  Messages start with `where`."""
        try:
            setup = read_record(data, where, level=level, seat=seat)
        except RecordError as e:
            raise SessionError(str(e), e.setting) from None
        return cls(setup.start, setup.human, setup.level, setup.ai_seed, moves=setup.moves,
                   ply0=setup.ply0, notes=setup.notes, **kwargs)

    def _make_bots(self, level: int) -> dict[int, Bot]:
        return {q: make_bot(LEVELS[level], seed=derive_seed(self.ai_seed, q))
                for q in range(self.start.nplayers) if q != self.human}

    def set_level(self, level: int) -> None:
        """Change the AI's level from the next decision on."""
        if level not in LEVELS:
            raise SessionError(f"level must be 1-{len(LEVELS)}, got {level}", "level")
        with self.lock:
            self.level = level
            self._bots = self._make_bots(level)

    # -- reading ----------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The position now, never changed (a change makes a new one; `snapshot()` copies)."""
        return self._head.state

    def snapshot(self) -> State:
        """An independent copy of the position now."""
        with self.lock:
            return self._head.state.copy()

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision since `start`, in order."""
        return self._head.decisions

    @property
    def version(self) -> int:
        return self._head.version

    @property
    def ply(self) -> int:
        """Decisions made in the game so far (including the `ply0` before `start`)."""
        return self.ply0 + len(self._head.decisions)

    @property
    def bots(self) -> dict[int, Bot]:
        """The AI of each seat other than the person's."""
        return self._bots

    @property
    def names(self) -> list[str]:
        return self.start.names

    def human_to_move(self) -> bool:
        st = self.state
        return not st.is_over() and st.to_move == self.human

    def ai_to_move(self) -> bool:
        st = self.state
        return not st.is_over() and st.to_move != self.human

    def can_undo(self) -> bool:       # a finished game is kept as it ended (its record is written)
        return not self.state.is_over() and any(d.seat == self.human for d in self._head.decisions)

    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def autosave_ok(self) -> bool:
        """True when the game is being saved after every decision."""
        return self.autosave is not None and self.autosave_error is None

    # -- events -----------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call `callback(event)` for every event from now on; returns the unsubscribe function."""
        with self.lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self.lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)
        return unsubscribe

    # -- decisions --------------------------------------------------------------------------
    def decide(self, choice: Move | str) -> list[Event]:
        """The person's decision: a Move, or text in the language of `cli.grammar` (notation,
        short forms, a number of the list).  MoveError when it is not a legal decision,
        NotYourTurn when an AI is to decide, SessionError when the game is over."""
        with self.lock:
            st = self.state
            self._check_live(st)
            if st.to_move != self.human:
                raise NotYourTurn(f"it is {st.names[st.to_move]}'s decision, not yours")
            if isinstance(choice, str):
                got = interpret(choice, st, self.hint_moves())
                if isinstance(got, Command):
                    raise InvalidMoveError(choice, f"`{got.name}` is a command, not a decision")
                move = got
            elif isinstance(choice, Move):
                move = _legal(st, choice)
            else:
                raise SessionError(f"a decision is a Move or text, got {choice!r}")
            return self._change(self._push(move), new_line=True)

    def ai_turn(self) -> AiTurn:
        """The AI decision due now (NotYourTurn if the person is to decide)."""
        with self.lock:
            st = self.state
            self._check_live(st)
            seat = st.to_move
            if seat == self.human:
                raise NotYourTurn("it is the person's decision, not an AI's")
            bot = self._bots[seat]
            return AiTurn(seat, st.view(seat), derive_seed(bot.seed, self.ply),
                          self._head.version, bot)

    def commit(self, turn: AiTurn, move: Move) -> list[Event]:
        """Apply the AI decision `move` thought for `turn` (StaleTurn if the game moved on)."""
        with self.lock:
            if turn.version != self._head.version:
                raise StaleTurn("the position changed while the AI was thinking")
            return self._change(self._push(_legal(self.state, move)), new_line=True)

    def play_ai(self) -> list[Event]:
        """Let the AI seat to move decide, and apply its decision."""
        turn = self.ai_turn()
        return self.commit(turn, turn.think())

    def undo(self) -> tuple[Decision, ...]:
        """Back to the person's previous decision, taking back the AI decisions after it
        (returned).  NothingToUndo if none; SessionError once over (a second record, else)."""
        with self.lock:
            head = self._head
            if head.state.is_over():
                raise SessionError("the game is over and its record is kept: start a new game")
            mine = [i for i, d in enumerate(head.decisions) if d.seat == self.human]
            if not mine:
                raise NothingToUndo("nothing to undo: you have made no decision yet")
            i = mine[-1]
            st = head.state.copy(history=True)
            for _ in range(len(head.decisions) - i):
                st.pop()
            taken = head.decisions[i:]
            self._head = _Head(st, head.decisions[:i], head.version + 1)
            self._redo.append(taken)
            self._change([Undone(taken)])
            return taken

    def redo(self) -> tuple[Decision, ...]:
        """Make again the decisions the last `undo` took back.  NothingToRedo if there are
        none (a new decision forgets what was undone)."""
        with self.lock:
            if not self._redo:
                raise NothingToRedo("nothing to redo")
            batch = self._redo.pop()
            head = self._head
            st = head.state.copy(history=True)
            for d in batch:
                st.push(d.move)
            self._head = _Head(st, head.decisions + batch, head.version + 1)
            self._change([Redone(batch)])
            return batch

    # -- the record -------------------------------------------------------------------------
    def record(self) -> dict:
        """The position now, plus the "play" record (cli.record): who is human, the level, the
        AI seed and every decision from `start` (so a load resumes exactly, undo included)."""
        with self.lock:
            head = self._head
            return write_record(head.state, self.start, [d.move for d in head.decisions],
                                human=self.human, level=self.level, ai_seed=self.ai_seed,
                                ply0=self.ply0)

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the record to `path` (a file the person named): never creates a folder, never
        replaces an existing file unless `overwrite` (storage.TargetExists then)."""
        return storage.write_json(path, self.record(), overwrite=overwrite)

    def autosave_now(self) -> list[Event]:
        """Write the autosave now (it is written after every change anyway)."""
        with self.lock:
            events = self._autosave()
            self._emit(events)
            return events

    def close(self) -> None:
        """Let go of the autosave (another process may then play there)."""
        claim, self._claim = getattr(self, "_claim", None), None
        if claim is not None:
            claim.release()

    # -- hints ------------------------------------------------------------------------------
    def hint(self, top: int = 3) -> dict:
        """The search's advice for the person's position (search.analysis.analyse's dict): the
        judge's search (search.analysis: level JUDGE_LEVEL's, whatever the AIs' level, with
        the judge's budget: the review's first look), from the person's view only.  The
        search's `top` best decisions in its order (under `root=halving`, the survivor, then
        the moves that lasted longest): h1 is the move the review counts as best at the same
        seed; each move has its `label` for a person
        (cli.narration.move_label) and its continuation `players` (the seat of each decision)
        and `labels`.  Kept for `h1`, `h2`, ... (`hint_moves`) of this position, which undo
        and redo may come back to."""
        with self.lock:
            st = self._head.state.copy()
            seed = derive_seed(self.ai_seed, self.ply, _SEED_HINT)
            path = self._path()
        kwargs = level_params(JUDGE_LEVEL)
        iterations = judge_iterations(JUDGE_LEVEL)
        result = analyse(st, iterations=iterations, top=top, workers=kwargs.get("workers", 1),
                         seed=seed, params=kwargs)
        for m in result["moves"]:
            seats, labels = read_line(st, [m["move"]] + m["line"])
            m["players"], m["label"], m["labels"] = seats[1:], labels[0], labels[1:]
        with self.lock:
            self._hints[path] = tuple(st.parse_move(m["move"]) for m in result["moves"])
        return result

    def hint_moves(self) -> tuple[Move, ...]:
        """The rows of the last hint of the position now (h1 first), if it had one."""
        return self._hints.get(self._path(), ())

    def _path(self) -> tuple[int, ...]:
        """The position now, as the decisions that led to it from `start`."""
        return tuple(d.move.action for d in self._head.decisions)

    def review(self, seat: int | None = None, iterations: int | None = None, seed: int = 0,
               progress: Callable[[int, int], None] | None = None, level: int | None = None):
        """The review of the game so far (search.review.review_game): every decision of `seat`
        (the person's by default; -1: every seat), searched from that seat's view by the judge
        at `level` (None: the hint's, JUDGE_LEVEL)."""
        seat = self.human if seat is None else seat
        level = JUDGE_LEVEL if level is None else level
        return review_game(self.start, [d.move for d in self._head.decisions],
                           seats=None if seat == -1 else [seat], iterations=iterations,
                           seed=seed, ply0=self.ply0, progress=progress, level=level)

    # -- the one place the game changes -----------------------------------------------------
    def _check_live(self, st: State) -> None:
        if st.is_over():
            raise SessionError("the game is over")

    def _push(self, move: Move) -> list[Event]:
        """Apply a legal move (and the forced steps after it); the position and the decisions
        change as one value."""
        with self.lock:
            head = self._head
            before = head.state
            seat = before.to_move
            after = before.copy(history=True)
            after.push(move)
            d = Decision(self.ply0 + len(head.decisions) + 1, seat, move, before.round,
                         describe(before, after, move, seat, self.human),
                         skipped_steps(before, after, move, self.human))
            self._head = _Head(after, head.decisions + (d,), head.version + 1)
            events: list[Event] = [DecisionMade(d, seat == self.human)]
            if after.round != before.round and not after.is_over():
                events.append(RoundStarted(after.round, after.rounds,
                                           PLAYER_TABLE[after.nplayers].coins))
            return events

    def _change(self, events: list[Event], new_line: bool = False) -> list[Event]:
        """After a change: forget the redo line (a new decision), autosave, the end of the game,
        then tell the subscribers."""
        if new_line:
            self._redo.clear()
        events = events + self._autosave()
        st = self._head.state
        if st.is_over() and self.over is None:
            events += self._finish(st)
        self._emit(events)
        return events

    def _autosave(self) -> list[Event]:
        if self.autosave is None:
            return []
        try:
            storage.write_json(self.autosave, self.record(), overwrite=True, make_dirs=True)
        except storage.StorageError as e:
            known = self.autosave_error is not None
            self.autosave_error = str(e)
            return [] if known else [AutosaveFailed(self.autosave, str(e))]
        self.autosave_error = None
        return []

    def _finish(self, st: State) -> list[Event]:
        events: list[Event] = []
        saved: list[Path] = []
        if self.record_dir is not None:
            path = storage.game_record_path(st.seed, self.record_dir)
            try:
                saved.append(storage.write_json(path, self.record(), make_dirs=True))
            except storage.StorageError as e:
                events.append(RecordFailed(path, str(e)))
        if self.autosave_ok:
            saved.append(self.autosave)
        self.over = GameOver(tuple(st.scores()), tuple(st.winners()), tuple(saved))
        events.append(self.over)
        return events

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            for callback in list(self._subscribers):
                callback(event)


def _legal(st: State, move: Move) -> Move:
    if not isinstance(move, Move):
        raise SessionError(f"a decision is a Move, got {move!r}")
    reason = st.why_illegal(move)
    if reason:
        raise IllegalMoveError(str(move), reason, st.legal_moves.texts())
    return move
