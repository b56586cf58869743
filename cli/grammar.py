"""What a person types at a game prompt -> a `Command` or a legal `Move`.

Accepted (documented in the in-game `help` and README "How to play"):

* a command (or an alias): help, rules, list, hint, undo, redo, save FILE, show, log, quit;
* a number N (or `#N`): the N-th decision of `legal_list` (the numbers the person sees: at
  the card step only the growths carry one, places and protects are typed with their space);
* `h1`, `h2`, ...: the row of the last hint with that label (`hints`, given by the caller);
* a move in the notation of docs/position-format.md (`play 7 place 12`, `sell Crown`, `pass`,
  ...), any case, companies by a prefix of at least 3 letters;
* short forms, per step:
    card:          [play] CARD VERB ARG    CARD = a card number in the hand (a number that is
                                           no card of the hand is refused, with the hand), or
                                           `#k` for the k-th card of the hand;
                   VERB ARG                the card left out when only one card in the hand
                                           can do it: `g crown`, `p crown 12`, `pr 12`, `p 12`;
                   VERB = place|p, protect|pr, grow|g.
    expand-choice: expand|e|yes|y, wait|w|no|n.
    expand:        place|p SPACE, protect|pr SPACE, stop|s|done.
    sell / buy:    [sell|s / buy|b] COMPANY, pass|no|n|skip|-.
    successor:     [successor] PLAYER (name or seat).

Anything else raises `MoveError` whose `reason` says what is wrong.  No terminal here: the web
board's text box reads the same language.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ekonos import State
from ekonos.errors import IllegalMoveError, InvalidMoveError
from ekonos.moves import Move, MoveKind
from ekonos.notation import is_number, move_words, parse_company, parse_number
from ekonos.rules import COMPANIES, DECK, NUM_SPACES, Company, Step

COMMANDS = ("help", "rules", "list", "hint", "undo", "redo", "save", "show", "log", "quit")
COMMAND_ALIASES = {"?": "help", "h": "help", "moves": "list", "l": "list", "q": "quit",
                   "exit": "quit", "board": "show", "u": "undo"}
PASS_WORDS = ("pass", "no", "n", "skip", "-")

CARD_VERBS = {MoveKind.PLACE: ("place", "pl", "p", "pla", "plac"),
              MoveKind.PROTECT: ("protect", "pr", "pro", "prot", "prote", "protec"),
              MoveKind.GROW: ("grow", "g", "gr", "gro")}
EXPAND_VERBS = {"place": ("place", "p", "pl", "pla", "plac"),
                "protect": ("protect", "pr", "pro", "prot", "prote", "protec"),
                "stop": ("stop", "s", "st", "done", "end")}
CHOICE_VERBS = {"expand": ("expand", "e", "ex", "y", "yes"), "wait": ("wait", "w", "n", "no")}
_CARD_KIND_ORDER = {MoveKind.GROW: 0, MoveKind.PROTECT: 1, MoveKind.PLACE: 2}


@dataclass(frozen=True)
class Command:
    """An in-game command (not a decision): `name` and the rest of the line."""

    name: str
    arg: str = ""


def _verb(word: str, forms: dict) -> object | None:
    for canonical, words in forms.items():
        if word in words:
            return canonical
    return None


def every_decision(state: State) -> list[Move]:
    """Every legal decision in the order the person sees them.

    Card step: card by card (ascending card number, as the hand shows them), each card's grow
    options first (in the order of the card's bottom), then protect, then place (by space).
    Other steps: the engine's order, pass last."""
    moves = list(state.legal_moves)
    if state.step is not Step.CARD:
        return sorted(moves, key=lambda m: (m.kind is MoveKind.PASS, m.action))

    def key(m: Move) -> tuple[int, int, int]:
        arg = (DECK[m.card - 1].bottom.index(int(m.company)) if m.kind is MoveKind.GROW
               else m.space)
        return (m.card, _CARD_KIND_ORDER[m.kind], arg)
    return sorted(moves, key=key)


def legal_list(state: State) -> list[Move]:
    """The decisions a number picks, in order: at the card step the growths only (a place or a
    protect is typed with its space, `22 p 12`: numbering 30 places of a card helps nobody);
    at the other steps every decision (a few), pass last."""
    moves = every_decision(state)
    if state.step is Step.CARD:
        return [m for m in moves if m.kind is MoveKind.GROW]
    return moves


def interpret(text: str, state: State, hints: list[Move] | tuple = ()) -> Command | Move:
    """What the person typed -> a Command or a legal Move (MoveError otherwise).  `hints`: the
    decisions of the last hint shown for this position (`h1` is the first)."""
    words = move_words(text)
    if not words:
        raise InvalidMoveError(text, "type a decision, a number from the list, or `help`")
    first = words[0]
    if len(words) == 1 and re.fullmatch(r"h[0-9]{1,3}", first):
        return _hint_row(text, int(first[1:]), state, hints)
    name = COMMAND_ALIASES.get(first, first)
    if name in COMMANDS:
        rest = re.split(r"[ \t\r\n]+", text.strip(" \t\r\n"), maxsplit=1)   # case kept: FILE
        return Command(name, rest[1] if len(rest) > 1 else "")
    if len(words) == 1 and re.fullmatch(r"#?[0-9]{1,9}", first):
        options = legal_list(state)
        n = int(first.lstrip("#"))
        if not options:
            raise InvalidMoveError(text, "no decision has a number here: type it (`list` "
                                   "shows them)")
        if not 1 <= n <= len(options):
            where = (" (places and protects are typed with their space: "
                     f"`{_short(_example_place(state))}`)"
                     if state.step is Step.CARD and _example_place(state) else "")
            raise InvalidMoveError(text, f"there is no decision {n}: the numbers go from 1 to "
                                   f"{len(options)}{where}")
        return options[n - 1]
    if state.step is Step.CARD:
        return _interpret_card(text, words, state)
    return state.parse_move(_canonical_other(words, state.step))


def _hint_row(text: str, k: int, state: State, hints: list[Move] | tuple) -> Move:
    """`hK`: the K-th row of the last hint, if it is still legal here."""
    if not hints:
        raise InvalidMoveError(text, "no hint for this position yet: type `hint` first")
    if not 1 <= k <= len(hints):
        raise InvalidMoveError(text, f"the hint has rows h1 to h{len(hints)}")
    return _checked(state, hints[k - 1], str(hints[k - 1]))


def _example_place(state: State) -> Move | None:
    return next((m for m in every_decision(state) if m.kind is MoveKind.PLACE), None)


def _canonical_other(words: list[str], step: Step) -> str:
    """A short form of a step other than the card step -> notation (or the words as typed)."""
    verb, args = words[0], words[1:]
    if step is Step.EXPAND_CHOICE:
        v = _verb(verb, CHOICE_VERBS)
        if v and not args:
            return v
    elif step is Step.EXPAND:
        v = _verb(verb, EXPAND_VERBS)
        if v:
            return " ".join([v] + args)
    elif step in (Step.SELL, Step.BUY):
        if verb in PASS_WORDS and not args:
            return "pass"
        short = {"sell": ("sell", "s"), "buy": ("buy", "b")}
        for canonical, forms in short.items():
            if verb in forms and len(args) == 1:
                return f"{canonical} {args[0]}"
        if len(words) == 1 and _is_company_word(verb):
            return f"{step} {verb}"
    elif step is Step.SUCCESSOR:
        if verb in ("successor", "succ", "su") and len(args) == 1:
            return f"successor {args[0]}"
        if len(words) == 1 and not is_number(verb):
            return f"successor {verb}"
    return " ".join(words)


def _is_company_word(word: str) -> bool:
    return len(word) >= 3 and any(c.lower().startswith(word) for c in COMPANIES)


def _checked(state: State, move: Move, text: str) -> Move:
    """`move` if legal here, else IllegalMoveError with the engine's reason."""
    reason = state.why_illegal(move)
    if reason:
        raise IllegalMoveError(text, reason, state.legal_moves.texts())
    return move


def _short(move: Move) -> str:
    """A card play written card first, the short form: `14 grow Crown`."""
    arg = move.company if move.kind is MoveKind.GROW else move.space
    return f"{move.card} {move.kind} {arg}"


def _interpret_card(text: str, words: list[str], state: State) -> Move:
    hand = state.hand(state.to_move) or []
    if words[0] == "play":
        if len(words) == 4:
            v = _verb(words[2], CARD_VERBS)
            if v:
                words = ["play", words[1], str(v), words[3]]
        return state.parse_move(" ".join(words))
    ref = None
    if re.fullmatch(r"#?[0-9]{1,9}", words[0]):
        ref, words = words[0], words[1:]
    if not words:
        raise InvalidMoveError(text, "after the card say what to do: place SPACE, protect SPACE "
                               "or grow COMPANY (e.g. `2 grow crown`)")
    verb = _verb(words[0], CARD_VERBS)
    if verb is None:
        if ref is None and words[0] in PASS_WORDS + ("stop", "wait"):
            raise InvalidMoveError(text, "a turn begins with a card: playing one is not "
                                   "optional (selling and buying are, after it)")
        if ref is None:
            # perhaps canonical text of another step: let the engine explain
            return state.parse_move(" ".join(words))
        raise InvalidMoveError(text, f"{words[0]!r}: a card is played with place (p), protect "
                               "(pr) or grow (g)")
    args = words[1:]
    cards = _card_candidates(ref, hand, text) if ref is not None else list(hand)
    company: Company | None = None
    space: int | None = None
    if verb is MoveKind.GROW:
        if len(args) != 1:
            raise InvalidMoveError(text, "expected `grow COMPANY` (e.g. `g crown`)")
        company = Company(parse_company(args[0], text))
    else:
        if len(args) == 2 and not is_number(args[0]):
            company = Company(parse_company(args[0], text))
            args = args[1:]
        if len(args) != 1 or not is_number(args[0]):
            raise InvalidMoveError(text, f"expected `{verb} SPACE` (a space number 1-36)")
        space = parse_number(args[0], "space", 1, NUM_SPACES, text)
        if verb is MoveKind.PROTECT and company is None:
            owner = state.owner(space)
            if owner is None:
                raise InvalidMoveError(text, f"space {space} is empty: there is no tile to protect")
            company = Company(owner)

    def play(card: int) -> Move:
        if verb is MoveKind.GROW:
            return Move.play(card, verb, company=company)
        return Move.play(card, verb, space=space)

    matches = []
    for card in cards:
        info = DECK[card - 1]
        if verb is MoveKind.GROW and company not in info.bottom:
            continue
        if verb is not MoveKind.GROW and company is not None and info.top != company:
            continue
        matches.append(play(card))
    if len(cards) == 1 and not matches:
        # one card named: say exactly why it cannot
        card = cards[0]
        info = DECK[card - 1]
        if verb is MoveKind.GROW:
            raise InvalidMoveError(text, f"card {card} grows only {COMPANIES[info.bottom[0]]} or "
                                   f"{COMPANIES[info.bottom[1]]}")
        raise InvalidMoveError(text, f"card {card} acts on {COMPANIES[info.top]}, not "
                               f"{company}")
    legal = [m for m in matches if state.why_illegal(m) is None]
    if len(legal) == 1:
        return legal[0]
    if len(legal) > 1:
        raise InvalidMoveError(text, "more than one card can do that: "
                               + " or ".join(f"`{m}`" for m in legal)
                               + f" (put the card first, e.g. `{_short(legal[0])}`)")
    if matches:  # well-formed for some card, legal for none: the engine's reason for the first
        return _checked(state, matches[0], str(matches[0]))
    what = (f"grows {company}" if verb is MoveKind.GROW
            else f"acts on {company}" if company is not None else "can do that")
    raise InvalidMoveError(text, f"no card in your hand {what} "
                           f"(hand: {', '.join(map(str, hand))})")


def _card_candidates(ref: str, hand: list[int], text: str) -> list[int]:
    """A card reference -> [card]: a number is the card of that number, never a position in
    the hand (a mistyped card must not play another); `#k` is the k-th card of the hand.
    MoveError when it names no card of the hand, with the hand."""
    cards = ", ".join(map(str, hand))
    if ref.startswith("#"):
        k = int(ref[1:])
        if not 1 <= k <= len(hand):
            raise InvalidMoveError(text, f"your hand has {len(hand)} card"
                                   f"{'' if len(hand) == 1 else 's'}: #1 to #{len(hand)}")
        return [hand[k - 1]]
    n = int(ref)
    if n in hand:
        return [n]
    if 1 <= n <= 36:
        raise InvalidMoveError(text, f"card {n} is not in your hand (hand: {cards})")
    raise InvalidMoveError(text, f"there is no card {n}: cards are 1-36 (hand: {cards})")
