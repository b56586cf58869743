"""What the lab's files must hold, checked field by field before anything is played or fitted:
the ladder file's games and seats, and the plain values (counts, scores, texts) that suite and
result files share.  Each check raises EkonosError naming the field; the loader adds the file.

A value read from JSON can be anything JSON allows and more: an integer of 4,000 digits (which
no float holds), a float that overflowed to infinity, a text with a lone surrogate (which no
terminal or file encoding writes).  Every number is checked for its type and range and every
text for its encoding here, so nothing later meets them.
"""
from __future__ import annotations

import math

from ekonos.errors import EkonosError

#: The largest ladder file read: the repository's (benchmarks/results/ladder.json, 510 games)
#: is 330 KB, so 64 MiB holds some 100,000 games.
MAX_LADDER_BYTES = 64 << 20

#: The longest spec or other text field of a lab file (a real spec is under 100 characters).
MAX_TEXT = 1000

#: The largest count (decisions, run, seed, table, block, game number) a lab file may hold.
MAX_COUNT = 2**63 - 1

#: The largest score or time in a lab file, in absolute value (far beyond any real one).
MAX_NUMBER = 1e12


def text(value: object, where: str, *, optional: bool = False) -> str | None:
    """A text field: a str of at most MAX_TEXT characters that UTF-8 can encode."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise EkonosError(f"{where} must be text, not {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise EkonosError(f"{where} is {len(value)} characters long; at most {MAX_TEXT}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise EkonosError(f"{where} holds a lone surrogate (\\ud800-\\udfff), not text") \
            from None
    return value


def count(value: object, where: str, *, low: int = 0, high: int = MAX_COUNT) -> int:
    """An integer field from `low` to `high` (booleans are not integers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EkonosError(f"{where} must be a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise EkonosError(f"{where} must be from {low} to {high}, not {_shown(value)}")
    return value


def number(value: object, where: str, *, low: float = -MAX_NUMBER,
           high: float = MAX_NUMBER) -> float:
    """A finite number field from `low` to `high` (an int too large for a float is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EkonosError(f"{where} must be a number, not {_shown(value)}")
    if isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise EkonosError(f"{where} must be from {low:g} to {high:g}, not {_shown(value)}")
    if not math.isfinite(value) or not low <= value <= high:
        raise EkonosError(f"{where} must be a finite number from {low:g} to {high:g}, "
                          f"not {_shown(value)}")
    return float(value)


def _shown(value: object, limit: int = 40) -> str:
    """A value for a message: short, and never a lone surrogate or a 5,000-digit number."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"an integer of {len(str(abs(value))) if abs(value) < 10**4000 else 'over 4000'}" \
               " digits"
    if isinstance(value, (list, dict)):
        return f"a JSON {'list' if isinstance(value, list) else 'object'}"
    shown = ascii(value) if not isinstance(value, float) else repr(value)
    shown = "null" if value is None else shown
    return shown if len(shown) <= limit else shown[:limit] + "..."


# -- the ladder file ------------------------------------------------------------------------------

#: Game fields a ladder run writes, each a count when present (older files may lack them).
GAME_COUNTS = ("run", "seed", "players", "table", "block", "number")


def ladder_record(g: object, k: int) -> None:
    """One game of a ladder file: seats with a spec and a finite score; the optional think
    fields (decisions, think, think_median, resolved) and game fields of the right types."""
    where = f"games[{k}]"
    if not isinstance(g, dict):
        raise EkonosError(f"{where} must be an object with \"seats\"")
    seats = g.get("seats")
    if not isinstance(seats, list) or len(seats) < 2:
        raise EkonosError(f"game {k}: needs \"seats\", a list of at least two seats")
    if len(seats) > 64:
        raise EkonosError(f"game {k}: {len(seats)} seats; a game has at most 64")
    for name in GAME_COUNTS:
        if name in g:          # a run number is small: the next run's seed derives from it
            count(g[name], f"{where}.{name}", high=2**31 if name == "run" else MAX_COUNT)
    if "variant" in g:
        text(g["variant"], f"{where}.variant")
    for q, seat in enumerate(seats):
        ladder_seat(seat, f"{where}.seats[{q}]", k)


def ladder_seat(seat: object, where: str, k: int) -> None:
    if not isinstance(seat, dict) or not isinstance(seat.get("spec"), str) \
            or "score" not in seat:
        raise EkonosError(f"game {k}: a seat is {{\"spec\": text, \"score\": number}}, "
                          f"not {_shown(seat)}")
    text(seat["spec"], f"{where}.spec")
    number(seat["score"], f"{where}.score")
    text(seat.get("resolved"), f"{where}.resolved", optional=True)
    if seat.get("decisions") is None and "decisions" not in seat:
        return
    decisions = count(seat["decisions"], f"{where}.decisions")
    if decisions:                 # timed: both times are needed (think_times reads them)
        for name in ("think", "think_median"):
            if name not in seat:
                raise EkonosError(f"{where}: \"{name}\" is missing (a seat with decisions "
                                  "has think and think_median, in seconds)")
            number(seat[name], f"{where}.{name}", low=0.0)


# -- the suite file -------------------------------------------------------------------------------

#: The most root moves of one reference or partial search (a position has at most a few hundred
#: legal moves).
MAX_MOVES = 10_000


def suite_reference(ref: object, where: str) -> None:
    """A position's pooled reference: a floor and moves, each a move text, its visits and its
    win share (0 to 1)."""
    if not isinstance(ref, dict) or not isinstance(ref.get("moves"), list) or \
            not ref["moves"] or "floor" not in ref:
        raise EkonosError(f"{where}: must hold a floor and moves")
    count(ref["floor"], f"{where}.floor")
    if len(ref["moves"]) > MAX_MOVES:
        raise EkonosError(f"{where}.moves: more than {MAX_MOVES} moves")
    for j, m in enumerate(ref["moves"]):
        if not isinstance(m, dict) or not all(k in m for k in ("move", "visits", "win")):
            raise EkonosError(f"{where}.moves: each needs move, visits, win")
        text(m["move"], f"{where}.moves[{j}].move")
        count(m["visits"], f"{where}.moves[{j}].visits")
        number(m["win"], f"{where}.moves[{j}].win", low=0.0, high=1.0)


def suite_partial(partial: object, where: str, seeds: int) -> None:
    """The searches of a position done so far (a build stopped part-way): at most `seeds`, each
    {"seed": k, "moves": {move text: [visits, win sum]}}."""
    if not isinstance(partial, list) or len(partial) > seeds:
        raise EkonosError(f"{where}: at most {seeds} searches")
    for k, part in enumerate(partial):
        at = f"{where}[{k}]"
        if not isinstance(part, dict) or not isinstance(part.get("moves"), dict) or \
                not part["moves"]:
            raise EkonosError(f"{at}: must be {{\"seed\": {k}, \"moves\": {{move: [visits, "
                              "win sum]}}}")
        if part.get("seed") != k or isinstance(part.get("seed"), bool):
            raise EkonosError(f"{at}.seed: must be {k}, not {_shown(part.get('seed'))}")
        if len(part["moves"]) > MAX_MOVES:
            raise EkonosError(f"{at}.moves: more than {MAX_MOVES} moves")
        for move, vw in part["moves"].items():
            text(move, f"{at}.moves key")
            if not isinstance(vw, list) or len(vw) != 2:
                raise EkonosError(f"{at}.moves[{ascii(move)[:40]}]: must be [visits, win sum]")
            visits = count(vw[0], f"{at}.moves[{ascii(move)[:40]}] visits")
            number(vw[1], f"{at}.moves[{ascii(move)[:40]}] win sum", low=0.0,
                   high=visits + 1.0)          # win share times visits, rounded
