"""Move notation of POSITION.md: integer actions <-> canonical text, and a forgiving parser.

Canonical text is what the program prints (full company names).  The parser accepts any case,
company prefixes of at least 3 letters, players by seat or name, and `pass` for whichever of
sell/buy is the current step.  Legality is not judged here; see `State.parse_move`.
"""
from __future__ import annotations

from ekonos import _core
from ekonos.errors import InvalidMoveError
from ekonos.rules import COMPANIES, DECK, NUM_CARDS, NUM_SPACES

A = _core.ACTIONS
CARD_SUBS = A["CARD_SUBS"]
NUM_ACTIONS = A["NUM_ACTIONS"]
MIN_PREFIX = 3


def card_action(card: int, kind: str, arg: int) -> int:
    """Action number of playing `card` (1-36) with kind `place`/`protect` (arg: space 1-36) or
    `grow` (arg: index 0/1 of the bottom company)."""
    base = A["A_CARD"] + (card - 1) * CARD_SUBS
    if kind == "place":
        return base + arg - 1
    if kind == "protect":
        return base + NUM_SPACES + arg - 1
    return base + 2 * NUM_SPACES + arg


def action_text(action: int) -> str:
    """The canonical text of an action number (any action of the fixed table)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside the table 0-{NUM_ACTIONS - 1}")
    if action < A["A_EXPAND"]:
        card, sub = divmod(action - A["A_CARD"], CARD_SUBS)
        if sub < NUM_SPACES:
            return f"play {card + 1} place {sub + 1}"
        if sub < 2 * NUM_SPACES:
            return f"play {card + 1} protect {sub - NUM_SPACES + 1}"
        return f"play {card + 1} grow {COMPANIES[DECK[card].bottom[sub - 2 * NUM_SPACES]]}"
    if action == A["A_EXPAND"]:
        return "expand"
    if action == A["A_WAIT"]:
        return "wait"
    if action < A["A_XPROTECT"]:
        return f"place {action - A['A_XPLACE'] + 1}"
    if action < A["A_XSTOP"]:
        return f"protect {action - A['A_XPROTECT'] + 1}"
    if action == A["A_XSTOP"]:
        return "stop"
    if action < A["A_SELL_PASS"]:
        return f"sell {COMPANIES[action - A['A_SELL']]}"
    if action == A["A_SELL_PASS"] or action == A["A_BUY_PASS"]:
        return "pass"
    if action < A["A_BUY_PASS"]:
        return f"buy {COMPANIES[action - A['A_BUY']]}"
    return f"successor {action - A['A_SUCC']}"


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


def parse_number(word: str, what: str, low: int, high: int, text: str) -> int:
    try:
        n = int(word)
    except ValueError:
        raise InvalidMoveError(text, f"{word!r} is not a {what} number ({low}-{high})") from None
    if not low <= n <= high:
        raise InvalidMoveError(text, f"{what} {n} does not exist ({low}-{high})")
    return n


def parse_player(word: str, names: list[str], text: str) -> int:
    """Seat by index or by name (any case, unambiguous prefix)."""
    if word.isdigit():
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


def parse_action(text: str, step: str, names: list[str]) -> int:
    """Text -> action number, for a position at `step` (used only to read `pass`).

    Raises InvalidMoveError for text that is not a move; legality is the caller's business."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidMoveError(text, "empty move")
    verb, args = words[0], words[1:]

    def need(n: int, form: str) -> None:
        if len(args) != n:
            raise InvalidMoveError(text, f"expected `{form}`")

    if verb == "play":
        form = "play CARD place|protect SPACE` or `play CARD grow COMPANY"
        need(3, form)
        card = parse_number(args[0], "card", 1, NUM_CARDS, text)
        kind = args[1]
        if kind in ("place", "protect"):
            return card_action(card, kind, parse_number(args[2], "space", 1, NUM_SPACES, text))
        if kind == "grow":
            company = parse_company(args[2], text)
            bottom = DECK[card - 1].bottom
            if company not in bottom:
                raise InvalidMoveError(text, f"card {card} grows only "
                                       f"{COMPANIES[bottom[0]]} or {COMPANIES[bottom[1]]}")
            return card_action(card, "grow", bottom.index(company))
        raise InvalidMoveError(text, f"{kind!r}: a card is played with place, protect or grow")
    if verb in ("expand", "wait", "stop"):
        need(0, verb)
        return A["A_EXPAND"] if verb == "expand" else A["A_WAIT"] if verb == "wait" else A["A_XSTOP"]
    if verb in ("place", "protect"):
        need(1, f"{verb} SPACE")
        space = parse_number(args[0], "space", 1, NUM_SPACES, text)
        return (A["A_XPLACE"] if verb == "place" else A["A_XPROTECT"]) + space - 1
    if verb in ("sell", "buy"):
        need(1, f"{verb} COMPANY")
        return (A["A_SELL"] if verb == "sell" else A["A_BUY"]) + parse_company(args[0], text)
    if verb == "pass":
        need(0, "pass")
        return A["A_SELL_PASS"] if step == "sell" else A["A_BUY_PASS"]
    if verb == "successor":
        need(1, "successor PLAYER")
        return A["A_SUCC"] + parse_player(args[0], names, text)
    raise InvalidMoveError(text, f"unknown move {verb!r} (moves: play, expand, wait, place, "
                           "protect, stop, sell, buy, pass, successor)")
