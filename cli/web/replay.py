"""The review board: a finished game's reviewed decisions, one at a time, on the map.

* `position(session, job, ply)` is the position just before the reviewed decision `ply`,
  computed by replaying the game (its start and decisions) to it, drawn as the live board is
  (cli.web.views.state_json: the reviewed seat's view, their hand only; no decision offered),
  with the review's figures for it and the played and better moves as Move fields (the page
  outlines their spaces).
* `line(...)` is the better move's expected line there (search.review.expected_line, searched
  from the reviewed seat's view only), computed on demand and kept.

Only a finished game that has a finished review has a review board (`Refused(409)` otherwise):
its record is the player's own, every card of it was played face up; the hands the other seats
held are never sent (the position is the reviewed seat's view).  A ply that is not one of the
review's decisions is `Refused(404)`; a ply that is not a small integer, `Refused(400)`.
"""
from __future__ import annotations

import re
import threading

from ekonos import State
from ekonos.moves import Move
from ekonos.notation import parse_move
from search.bots import derive_seed
from search.review import expected_line

from cli.session import GameSession
from cli.web.review import Job
from cli.web.views import move_json, state_json

LINE_LENGTH = 8               # decisions of the expected line after the better move
_PLY = re.compile(r"\d{1,6}")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def parse_ply(text: str | None) -> int:
    """The `ply` of a query string: an integer of at most 6 digits (Refused(400) otherwise)."""
    if text is None or not _PLY.fullmatch(text):
        raise Refused(400, "ply must be the number of a reviewed decision, e.g. ?ply=12")
    return int(text)


def _reviewed(session: GameSession, job: Job | None, ply: int) -> tuple[State, Move, dict]:
    """(the position before decision `ply`, the move played there, the review's entry)."""
    if not session.state.is_over():
        raise Refused(409, "the review board is for a finished game: this one is not over yet")
    if job is None or job.result is None:
        raise Refused(409, "this game has no finished review yet: ask for it first "
                           "(POST /api/review)")
    entry = next((d for d in job.result["decisions"] if d["ply"] == ply), None)
    if entry is None:
        plies = [d["ply"] for d in job.result["decisions"]]
        span = f"{plies[0]}-{plies[-1]}" if plies else "none"
        raise Refused(404, f"decision {ply} is not one the review judged (reviewed: {span})")
    decisions = session.decisions
    index = next((i for i, d in enumerate(decisions) if d.ply == ply), None)
    if index is None or decisions[index].seat != job.seat:        # cannot happen: same game
        raise Refused(409, "the review does not match this game: ask for it again")
    st = session.start.copy()
    for d in decisions[:index]:
        st.push(d.move)
    return st, decisions[index].move, entry


def _legal(st: State, text: str) -> Move | None:
    return next((m for m in st.legal_moves if str(m) == text), None)


def position(session: GameSession, job: Job | None, ply: int) -> dict:
    """The review board's JSON for decision `ply` (under the session's lock)."""
    with session.lock:
        st, played, entry = _reviewed(session, job, ply)
        decisions = session.decisions
        index = next(i for i, d in enumerate(decisions) if d.ply == ply)
        state = state_json(st, job.seat, decisions[:index])
    state["legal"] = []                    # a position to look at, not to play
    best = _legal(st, entry["best"])
    plies = [d["ply"] for d in job.result["decisions"]]
    return {"ply": ply, "index": plies.index(ply), "plies": plies, "state": state,
            "review": entry, "played": move_json(played),
            "best": None if best is None else move_json(best)}


class Lines:
    """The expected lines computed so far, by (review key, ply): one search each."""

    def __init__(self, keep: int = 64):
        self.keep = keep
        self._lines: dict[tuple[str, int], list[str]] = {}
        self._lock = threading.Lock()
        self._one = threading.Lock()          # one line's search at a time (a flood queues)
        self.searches = 0

    def line(self, session: GameSession, job: Job | None, ply: int, iterations: int) -> dict:
        """The better move's expected line at `ply` (a search in the calling thread)."""
        with session.lock:
            st, _, entry = _reviewed(session, job, ply)
        key = (job.key, ply)
        with self._lock:
            kept = self._lines.get(key)
        if kept is None:
            best = _legal(st, entry["best"])
            if best is None:                                   # cannot happen: a legal move
                raise Refused(409, f"the better move {entry['best']!r} does not replay here")
            with self._one:
                with self._lock:
                    kept = self._lines.get(key)
                if kept is None:
                    self.searches += 1
                    kept = expected_line(st, best, iterations,
                                         derive_seed(job.result["seed"], ply), LINE_LENGTH)
                    with self._lock:
                        if len(self._lines) >= self.keep:
                            self._lines.pop(next(iter(self._lines)))
                        self._lines[key] = kept
        names = list(st.names)
        found = _seats(st, kept)              # zip: a move whose seat is unknown is left out
        return {"ply": ply, "best": entry["best"], "iterations": iterations,
                "line": [dict(move_json(move), move=str(move), seat=q, name=names[q])
                         for move, q in found]}


def _seats(st: State, texts: list[str]) -> list[tuple[Move, int]]:
    """Each decision of a line as a Move, with who makes it of a line from `st`, the line replayed on the view of the seat
    to move (the search's own view).  Another seat's card play cannot be checked there (its
    hand is unknown: `why_illegal` says so), so each move is parsed for the step it is at and
    applied unchecked, as the search applied it; the line stops at a move that does not parse
    or apply (none is expected: the search made every one of them from this view)."""
    view = st.view(st.to_move)
    out: list[tuple[Move, int]] = []
    for text in texts:
        if view.is_over():
            break
        seat = view.to_move
        try:
            move = parse_move(text, view.step, view.names)
            view.push_unchecked(move.action)
        except Exception:
            break
        out.append((move, seat))
    return out
