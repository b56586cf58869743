"""Move notation of docs/position-format.md: integer actions <-> canonical text, and a
forgiving parser.

Canonical text is what the program prints (full company names).  The parser accepts any case,
company prefixes of at least 3 letters, players by seat or name, and `pass` for whichever of
sell/buy is the current step.  Legality is not judged here; see `State.parse_move`.
"""
from __future__ import annotations

import re

from ekonos.errors import InvalidMoveError
from ekonos.moves import Move, MoveKind
from ekonos.rules import COMPANIES, DECK, NUM_CARDS, NUM_SPACES, Company, Step

MIN_PREFIX = 3


def action_text(action: int) -> str:
    """The canonical text of an action number (any action of the fixed table)."""
    return str(Move.from_action(action))


def parse_company(word: str, text: str = "") -> int:
    """Company by name or unambiguous prefix of at least 3 letters, any case."""
    w = word.lower()
    matches = [i for i, c in enumerate(COMPANIES) if c.lower().startswith(w)]
    exact = [i for i, c in enumerate(COMPANIES) if c.lower() == w]
    if exact:
        return exact[0]
    if not matches:
        raise InvalidMoveError(text or word, f"{word!r} is not a company "
                               f"(companies: {', '.join(COMPANIES)})")
    if len(matches) > 1 or len(w) < MIN_PREFIX:
        options = " or ".join(COMPANIES[i] for i in matches)
        raise InvalidMoveError(text or word, f"{word!r} is ambiguous or too short "
                               f"(at least {MIN_PREFIX} letters): {options}?")
    return matches[0]


def is_number(word: str) -> bool:
    """A number as notation writes it: the ASCII digits 0-9 only (`int()` would also take
    `１４`, `١`, `1_4` and `+1`, which the notation does not)."""
    return _DIGITS.fullmatch(word) is not None


_DIGITS = re.compile(r"[0-9]+")


def parse_number(word: str, what: str, low: int, high: int, text: str) -> int:
    if not is_number(word):
        raise InvalidMoveError(text, f"{word!r} is not a {what} number ({low}-{high}, "
                               "written with the digits 0-9)")
    n = int(word) if len(word) <= 9 else high + 1     # no digit-limit error on absurd input
    if not low <= n <= high:
        raise InvalidMoveError(text, f"{what} {word[:12]}{'...' if len(word) > 12 else ''} does "
                               f"not exist ({low}-{high})")
    return n


def parse_player(word: str, names: list[str], text: str) -> int:
    """Seat by index or by name (any case, unambiguous prefix)."""
    if is_number(word) or word.isdigit():      # a seat, or an odd numeral parse_number refuses
        return parse_number(word, "seat", 0, len(names) - 1, text)
    w = word.lower()
    exact = [i for i, n in enumerate(names) if n.lower() == w]
    if len(exact) == 1:
        return exact[0]
    matches = [i for i, n in enumerate(names) if n.lower().startswith(w)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise InvalidMoveError(text, f"no player called {word!r} "
                               f"(players: {', '.join(f'{i} {n}' for i, n in enumerate(names))})")
    raise InvalidMoveError(text, f"{word!r} is ambiguous: "
                           + " or ".join(f"{i} {names[i]}" for i in matches) + "?")


def move_words(text: str) -> list[str]:
    """Lower-case words split on ASCII spaces and tabs only: a no-break space or another
    Unicode space inside a move is not a separator (`sell\u00a0Panda` is one, unknown, word)."""
    return [w for w in re.split(r"[ \t\r\n]+", text.lower()) if w]


def parse_move(text: str, step: Step | str | None = None,
               names: list[str] | None = None) -> Move:
    """Text -> Move.  `step` (the position's step) is used only to read `pass`; `names` (the
    players' names) let `successor` name a player.

    Raises InvalidMoveError for text that is not a move; legality is the position's business
    (`State.why_illegal`)."""
    words = move_words(text)
    if not words:
        raise InvalidMoveError(text, "empty move")
    verb, args = words[0], words[1:]

    def need(n: int, form: str) -> None:
        if len(args) != n:
            raise InvalidMoveError(text, f"expected `{form}`")

    if verb == "play":
        need(3, "play CARD place|protect SPACE` or `play CARD grow COMPANY")
        card = parse_number(args[0], "card", 1, NUM_CARDS, text)
        kind = args[1]
        if kind in ("place", "protect"):
            return Move.play(card, MoveKind(kind),
                             space=parse_number(args[2], "space", 1, NUM_SPACES, text))
        if kind == "grow":
            company = parse_company(args[2], text)
            bottom = DECK[card - 1].bottom
            if company not in bottom:
                raise InvalidMoveError(text, f"card {card} grows only "
                                       f"{COMPANIES[bottom[0]]} or {COMPANIES[bottom[1]]}")
            return Move.play(card, MoveKind.GROW, company=company)
        raise InvalidMoveError(text, f"{kind!r}: a card is played with place, protect or grow")
    if verb in ("expand", "wait"):
        need(0, verb)
        return Move(Step.EXPAND_CHOICE, MoveKind(verb))
    if verb == "stop":
        need(0, verb)
        return Move(Step.EXPAND, MoveKind.STOP)
    if verb in ("place", "protect"):
        need(1, f"{verb} SPACE")
        return Move(Step.EXPAND, MoveKind(verb),
                    space=parse_number(args[0], "space", 1, NUM_SPACES, text))
    if verb in ("sell", "buy"):
        need(1, f"{verb} COMPANY")
        return Move(Step.SELL if verb == "sell" else Step.BUY, MoveKind(verb),
                    company=Company(parse_company(args[0], text)))
    if verb == "pass":
        need(0, "pass")
        return Move(Step.SELL if str(step) == "sell" else Step.BUY, MoveKind.PASS)
    if verb == "successor":
        need(1, "successor PLAYER")
        return Move(Step.SUCCESSOR, MoveKind.SUCCESSOR, seat=parse_player(args[0], names or [], text))
    raise InvalidMoveError(text, f"unknown move {verb!r} (moves: play, expand, wait, place, "
                           "protect, stop, sell, buy, pass, successor)")


def parse_action(text: str, step: Step | str | None = None,
                 names: list[str] | None = None) -> int:
    """`parse_move(...)` as the engine's action number."""
    return parse_move(text, step, names).action
