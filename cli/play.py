"""`ekonos play`: a game against the AI in the terminal.

The game loop lives in `PlaySession`, which takes its input function and its rich console from
the caller, so tests drive whole games with scripted answers.  The command function `play` only
turns flags into a session.

What the person can type at a prompt (documented in `HELP` and README "How to play"):

* a number: the decision with that number in the list of legal decisions (`list` shows it);
* a move in the notation of POSITION.md (`play 7 place 12`, `sell Crown`, `pass`, ...), any case,
  companies by a prefix of at least 3 letters;
* short forms, per step (see `interpret`);
* a command: help, list, hint, undo, save FILE, show, log, quit.

The session keeps the position at the start of the game (or of the loaded record) and every
decision since, so `undo` rebuilds the game exactly, and a saved file carries the whole record
(`"play"` field, an addition the position format allows) and resumes exactly.
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

import click
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from ekonos import State, save_file
from ekonos.errors import EkonosError, InvalidMoveError, MoveError, PositionError
from ekonos.notation import action_text, parse_company
from ekonos.position import state_from_dict
from ekonos.rules import COMPANIES, DECK, PLAYER_TABLE, VARIANTS
from ekonos.state import DEFAULT_NAMES
from search.analysis import analyse
from search.bots import LEVELS, derive_seed, make_bot, parse_spec

from cli import render


PLAY_FORMAT = 1                  # version of the "play" record added to position files
HINT_FLOOR = 10000               # a hint searches at least this many iterations (about 0.5 s)
COMMANDS = ("help", "list", "hint", "undo", "save", "show", "log", "quit")
COMMAND_ALIASES = {"?": "help", "h": "help", "moves": "list", "l": "list", "q": "quit",
                   "exit": "quit", "board": "show", "u": "undo"}
PASS_WORDS = ("pass", "no", "n", "skip", "-")


class PlayError(EkonosError):
    """Bad flags or a record that cannot be resumed (exit status 2, one line)."""


class QuitGame(Exception):
    """The person asked to stop; the game is saved."""


# ---------------------------------------------------------------------------------------------
# Where games are kept

def data_dir() -> Path:
    """EKONOS_DATA_DIR, else $XDG_DATA_HOME/ekonos, else ~/.local/share/ekonos."""
    env = os.environ.get("EKONOS_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "ekonos"


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


# ---------------------------------------------------------------------------------------------
# Reading what the person types

@dataclass
class Command:
    name: str
    arg: str = ""


def _verb(word: str, forms: dict[str, tuple[str, ...]]) -> str | None:
    for canonical, words in forms.items():
        if word in words:
            return canonical
    return None


CARD_VERBS = {"place": ("place", "pl", "p", "pla", "plac"),
              "protect": ("protect", "pr", "pro", "prot", "prote", "protec"),
              "grow": ("grow", "g", "gr", "gro")}
EXPAND_VERBS = {"place": ("place", "p", "pl", "pla", "plac"),
                "protect": ("protect", "pr", "pro", "prot", "prote", "protec"),
                "stop": ("stop", "s", "st", "done", "end")}
CHOICE_VERBS = {"expand": ("expand", "e", "ex", "y", "yes"), "wait": ("wait", "w", "n", "no")}


def legal_list(state: State) -> list[int]:
    """The legal decisions in the order the numbered list shows them.

    Card step: card by card (ascending card number), each card's grow options first, then
    protect, then place (by space).  Other steps: the engine's order (pass last)."""
    actions = state.legal_actions()
    if state.step_name != "card":
        return sorted(actions, key=lambda a: (action_text(a) == "pass", a))

    def key(a: int):
        card, kind, arg = card_parts(a)
        if kind == "grow":
            arg = DECK[card - 1].bottom.index(COMPANIES.index(arg))
        return (card, {"grow": 0, "protect": 1, "place": 2}[kind], arg)
    return sorted(actions, key=key)


def card_parts(action: int) -> tuple[int, str, int | str]:
    """A card action -> (card number, kind, space number or company name)."""
    words = action_text(action).split()
    arg = words[3]
    return int(words[1]), words[2], int(arg) if arg.isdigit() else arg


def interpret(text: str, state: State) -> Command | int:
    got = _interpret(text, state)
    return got.action if hasattr(got, "action") else got


def _interpret(text: str, state: State):
    """What the person typed -> a Command or a legal action.

    Raises MoveError (its `reason` says what is wrong) for anything else.  Rules:

    * the first word a command (or alias) -> Command;
    * a bare number N (or `#N`) -> the N-th decision of `legal_list`;
    * otherwise the step's short forms are turned into canonical notation and checked by
      `State.parse_move` (which accepts any case and company prefixes):
        card:          [play] CARD VERB ARG    CARD = a card number in your hand, or `#k` for the
                                               k-th card of your hand (`2` also means the 2nd card
                                               when you hold no card 2; if both readings name
                                               different cards you are asked which);
                       VERB ARG                the card left out when only one card in your hand
                                               can do it: `g crown`, `p crown 12`, `pr 12`, `p 12`;
                       VERB = place|p, protect|pr, grow|g.
        expand-choice: expand|e|yes|y, wait|w|no|n.
        expand:        place|p SPACE, protect|pr SPACE, stop|s|done.
        sell / buy:    [sell|s / buy|b] COMPANY, pass|no|n|skip|-.
        successor:     [successor] PLAYER (name or seat).
    """
    words = text.strip().lower().split()
    if not words:
        raise InvalidMoveError(text, "type a decision, a number from the list, or `help`")
    first = words[0]
    name = COMMAND_ALIASES.get(first, first)
    if name in COMMANDS:
        return Command(name, " ".join(text.strip().split()[1:]))
    if len(words) == 1 and re.fullmatch(r"#?\d+", first):
        options = legal_list(state)
        n = int(first.lstrip("#"))
        if not 1 <= n <= len(options):
            raise InvalidMoveError(text, f"there is no decision {n}: the list goes from 1 to "
                                   f"{len(options)} (type `list` to see it)")
        return options[n - 1]
    step = state.step_name
    if step == "card":
        return _interpret_card(text, words, state)
    canonical = _canonical_other(words, step, state)
    return state.parse_move(canonical)


def _canonical_other(words: list[str], step: str, state: State) -> str:
    verb, args = words[0], words[1:]
    if step == "expand-choice":
        v = _verb(verb, CHOICE_VERBS)
        if v and not args:
            return v
    elif step == "expand":
        v = _verb(verb, EXPAND_VERBS)
        if v:
            return " ".join([v] + args)
    elif step in ("sell", "buy"):
        if verb in PASS_WORDS and not args:
            return "pass"
        short = {"sell": ("sell", "s"), "buy": ("buy", "b")}
        for canonical, forms in short.items():
            if verb in forms and len(args) == 1:
                return f"{canonical} {args[0]}"
        if len(words) == 1 and _is_company_word(verb):
            return f"{step} {verb}"
    elif step == "successor":
        if verb in ("successor", "succ", "su") and len(args) == 1:
            return f"successor {args[0]}"
        if len(words) == 1 and not verb.isdigit():
            return f"successor {verb}"
    return " ".join(words)


def _is_company_word(word: str) -> bool:
    return len(word) >= 3 and any(c.lower().startswith(word) for c in COMPANIES)


def _interpret_card(text: str, words: list[str], state: State) -> int:
    seat = state.to_move
    hand = state.hand(seat) or []
    if words[0] == "play":
        if len(words) == 4:
            v = _verb(words[2], CARD_VERBS)
            if v:
                words = ["play", words[1], v, words[3]]
        return state.parse_move(" ".join(words))
    ref = None
    if re.fullmatch(r"#?\d+", words[0]):
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
    company = None
    if verb == "grow":
        if len(args) != 1:
            raise InvalidMoveError(text, "expected `grow COMPANY` (e.g. `g crown`)")
        company = parse_company(args[0], text)
    else:
        if len(args) == 2 and not args[0].isdigit():
            company = parse_company(args[0], text)
            args = args[1:]
        if len(args) != 1 or not args[0].isdigit():
            raise InvalidMoveError(text, f"expected `{verb} SPACE` (a space number 1-36)")
        space = int(args[0])
        if not 1 <= space <= 36:
            raise InvalidMoveError(text, f"space {space} does not exist (1-36)")
        if verb == "protect" and company is None:
            company = _tile_owner(state, space)
            if company is None:
                raise InvalidMoveError(text, f"space {space} is empty: there is no tile to protect")
    matches = []
    for card in cards:
        c = DECK[card - 1]
        if verb == "grow":
            if company not in c.bottom:
                continue
            canonical = f"play {card} grow {COMPANIES[company]}"
        else:
            if company is not None and c.top != company:
                continue
            canonical = f"play {card} {verb} {args[0]}"
        matches.append(canonical)
    if len(cards) == 1 and not matches:
        # one card named: let the engine explain exactly why it cannot
        card = cards[0]
        if verb == "grow":
            bottom = DECK[card - 1].bottom
            raise InvalidMoveError(text, f"card {card} grows only {COMPANIES[bottom[0]]} or "
                                   f"{COMPANIES[bottom[1]]}")
        top = COMPANIES[DECK[card - 1].top]
        if company is not None and COMPANIES[company] != top:
            raise InvalidMoveError(text, f"card {card} acts on {top}, not {COMPANIES[company]}")
        return state.parse_move(f"play {card} {verb} {args[0]}")
    legal = _legal_texts(state, matches)
    if len(legal) == 1:
        return state.parse_move(legal[0])
    if len(legal) > 1:
        raise InvalidMoveError(text, "more than one card can do that: "
                               + " or ".join(f"`{m}`" for m in legal)
                               + " (put the card first, e.g. `" + legal[0][5:] + "`)")
    if matches:  # well-formed for some card, legal for none: the engine's reason for the first
        return state.parse_move(matches[0])
    what = (f"grows {COMPANIES[company]}" if verb == "grow"
            else f"acts on {COMPANIES[company]}" if company is not None else "can do that")
    raise InvalidMoveError(text, f"no card in your hand {what} "
                           f"(hand: {', '.join(map(str, hand))})")


def _legal_texts(state: State, texts: list[str]) -> list[str]:
    out = []
    for t in texts:
        try:
            state.parse_move(t)
        except MoveError:
            continue
        out.append(t)
    return out


def _card_candidates(ref: str, hand: list[int], text: str) -> list[int]:
    """A card reference -> [card]; MoveError when it names no card or is ambiguous."""
    if ref.startswith("#"):
        k = int(ref[1:])
        if not 1 <= k <= len(hand):
            raise InvalidMoveError(text, f"your hand has {len(hand)} cards: #1 to #{len(hand)}")
        return [hand[k - 1]]
    n = int(ref)
    as_card = n if n in hand else None
    as_pos = hand[n - 1] if 1 <= n <= len(hand) else None
    if as_card is not None and as_pos is not None and as_card != as_pos:
        raise InvalidMoveError(text, f"`{n}` could be card {n} or the card at position {n} of "
                               f"your hand (card {as_pos}): write `play {n} ...` for card {n}, "
                               f"or `#{n} ...` for card {as_pos}")
    if as_card is not None:
        return [as_card]
    if as_pos is not None:
        return [as_pos]
    if 1 <= n <= 36:
        raise InvalidMoveError(text, f"card {n} is not in your hand "
                               f"(hand: {', '.join(map(str, hand))})")
    raise InvalidMoveError(text, f"{n} is neither a card of your hand nor a position in it "
                           f"(1-{len(hand)})")


def _tile_owner(state: State, space: int) -> int | None:
    tiles = state._fields()["tiles"]
    for c, mask in enumerate(tiles):
        if mask >> (space - 1) & 1:
            return c
    return None


# ---------------------------------------------------------------------------------------------
# Why a decision was made: a short account from the state before and after it

def _count(mask: int) -> int:
    return bin(mask).count("1")


def _holders(f: dict, n: int, c: int) -> list[int]:
    return [f["shares"][q][c] for q in range(n)]


def describe(before: State, after: State, action: int, seat: int, you: int | None = None) -> str:
    """A short reason for `action` of `seat`, derived from the public state before and after it
    (tile counts, tracks, coins, shares, presidents): what changed and who gains.  The seat
    `you` is called "you"."""
    fb, fa = before._fields(), after._fields()
    n = before.nplayers
    names = [("you" if q == you else nm) for q, nm in enumerate(before.names)]

    def s_(q: int, verb: str) -> str:       # "Bruno holds" / "you hold"
        return f"{names[q]} {verb[:-1] if q == you and verb.endswith('s') else verb}"

    def poss(q: int) -> str:
        return "your" if q == you else f"{names[q]}'s"
    who = names[seat]
    text = action_text(action)
    tb = [_count(fb["tiles"][c]) for c in range(6)]
    ta = [_count(fa["tiles"][c]) for c in range(6)]
    parts: list[str] = []
    main: int | None = None          # the company the decision is about
    expected = [0] * 6               # tile changes the decision itself makes
    show_stake = True

    def stake(c: int) -> str:
        mine = fb["shares"][seat][c]
        col = _holders(fb, n, c)
        if mine and mine == max(col):
            return (f"{poss(seat)} {mine} shares gain most" if mine > 1
                    else f"{poss(seat)} share gains most")
        if mine:
            return f"{s_(seat, 'holds')} {mine} of {sum(col)} shares"
        if sum(col) == 0:
            return f"nobody owns {COMPANIES[c]} yet"
        pres = fb["president"][c]
        return f"{s_(pres, 'presides')} with {col[pres]} of {sum(col)} shares"

    if action < _core_a("A_EXPAND"):
        card, kind, arg = card_parts(action)
        if kind == "grow":
            main = COMPANIES.index(arg)
            g0 = fb["growth"][main]
            g1 = g0 + 1
            msg = f"{arg}'s track {g0}→{g1}"
            pres = fb["president"][main]
            decider = names[pres] if pres >= 0 else who
            if g1 == 4:
                msg += f", {decider} may expand"
            elif g1 == 6:
                msg += f": {arg} must expand ({decider} decide{'' if decider == 'you' else 's'})"
            parts.append(msg)
        else:
            main = DECK[card - 1].top
            if kind == "place":
                expected[main] = 1
                parts.append(f"{COMPANIES[main]} {tb[main]}→{tb[main] + 1} tiles")
            else:
                parts.append(f"{COMPANIES[main]}'s tile on {arg} can never be taken")
    elif text in ("expand", "wait"):
        main = fb["xcompany"]
        if text == "expand" and after.step_name == "expand" and fa["xcompany"] == main:
            parts.append(f"{COMPANIES[main]} expands now (up to 2 growth actions)")
        elif text == "expand":
            parts.append(f"{COMPANIES[main]} expands, but can neither place nor protect: its "
                         "track returns to 0")
            show_stake = False
        else:
            parts.append(f"{COMPANIES[main]}'s track stays at 4, to expand bigger later")
    elif text == "stop" or text.startswith(("place", "protect")):
        main = fb["xcompany"]
        if text == "stop":
            parts.append(f"{COMPANIES[main]}'s expansion ends here")
        elif text.startswith("place"):
            space = int(text.split()[1])
            owner = None
            for c in range(6):
                if fb["tiles"][c] >> (space - 1) & 1:
                    owner = c
            msg = f"{COMPANIES[main]} {tb[main]}→{tb[main] + 1} tiles"
            expected[main] = 1
            if owner is not None:
                expected[owner] = -1
                msg += f", taking space {space} from {COMPANIES[owner]}"
                col = _holders(fb, n, owner)
                top = fb["president"][owner]
                if sum(col) and top >= 0:
                    msg += (f" ({poss(top)} {col[top]} shares lose)" if col[top] > 1
                            else f" ({poss(top)} share loses)")
            parts.append(msg)
        else:
            parts.append(f"{COMPANIES[main]}'s tile on {text.split()[1]} can never be taken")
    elif text.startswith("sell"):
        c = COMPANIES.index(text.split()[1])
        col = sum(_holders(fb, n, c))            # R15: the sale pays the column's size
        parts.append(f"+{col} coins from a column of {col}, "
                     f"{COMPANIES[c]} is worth {tb[c]} a share")
    elif text.startswith("buy"):
        c = COMPANIES.index(text.split()[1])
        paid = sum(_holders(fb, n, c)) + 1       # R16: the lowest free space's price
        mine = fb["shares"][seat][c] + 1
        parts.append(f"pays {paid} for a share worth {tb[c]} now (track {fb['growth'][c]}); "
                     f"{s_(seat, 'holds')} {mine}")
    elif text == "pass":
        if before.step_name == "sell":
            parts.append("keeps every share")
        else:
            parts.append(f"keeps {fb['coins'][seat]} coins")
    elif text.startswith("successor"):
        q = int(text.split()[1])
        parts.append(f"{COMPANIES[fb['xcompany']]}'s presidency goes to {names[q]}")

    if main is not None and show_stake:
        parts.append(stake(main))
    # what the forced steps that followed changed (an automatic expansion, a new round)
    others = [f"{COMPANIES[c]} {tb[c]}→{ta[c]}" for c in range(6) if ta[c] - tb[c] != expected[c]]
    if others:
        parts.append("tiles: " + ", ".join(others))
    for c in range(6):
        p0, p1 = fb["president"][c], fa["president"][c]
        if p0 != p1 and not text.startswith("successor"):
            parts.append(f"{s_(p1, 'becomes')} {COMPANIES[c]}'s president" if p1 >= 0
                         else f"{COMPANIES[c]} has no president now")
    return "; ".join(parts)


def _core_a(name: str) -> int:
    from ekonos import _core
    return _core.ACTIONS[name]


# ---------------------------------------------------------------------------------------------
# What the person sees besides the board: their hand, the decisions, the scorepad

def decision_label(state: State, action: int) -> str:
    """Canonical text plus a little context for the numbered list of a non-card step."""
    f = state._fields()
    text = action_text(action)
    seat = state.to_move
    words = text.split()
    if words[0] in ("sell", "buy"):
        c = COMPANIES.index(words[1])
        col = state.column(c)
        worth = _count(f["tiles"][c])
        if words[0] == "sell":
            return f"sell {render.cname(c)} [dim](+{col} coins, you hold {f['shares'][seat][c]})[/]"
        return f"buy {render.cname(c)} [dim](costs {col + 1}, worth {worth} now)[/]"
    if words[0] == "successor":
        return f"successor {words[1]} [dim]({state.names[int(words[1])]})[/]"
    if words[0] == "place" and len(words) == 2:
        space = int(words[1])
        for c in range(6):
            if f["tiles"][c] >> (space - 1) & 1:
                return f"place {space} [dim](takes it from {COMPANIES[c]})[/]"
    return text


def step_question(state: State, seat: int) -> str:
    f = state._fields()
    step = state.step_name
    if step == "card":
        return (f"Round {state.round}/{state.rounds} — your turn: play a card "
                "(e.g. `2 grow crown`, `play 7 place 12`, or a number)")
    if step in ("expand-choice", "expand"):
        c = f["xcompany"]
        turn = state.names[f["turn_player"]]
        by = "your" if f["turn_player"] == seat else f"{turn}'s"
        if step == "expand-choice":
            return (f"{render.cname(c)}'s track reached 4 on {by} card — you decide: expand now "
                    "with up to 2 growth actions, or wait")
        frm = render.spaces_text([sp + 1 for sp in range(36) if f["xfrom"] >> sp & 1])
        return (f"{render.cname(c)} expands ({f['xactions_left']} growth action"
                f"{'s' if f['xactions_left'] > 1 else ''} left; its tiles at the start: "
                f"{frm or 'none'}): place next to them, protect a {COMPANIES[c]} tile, or stop")
    if step == "sell":
        return f"Sell one share? (optional; you have {f['coins'][seat]} coins)"
    if step == "buy":
        return f"Buy one share? (optional; you have {f['coins'][seat]} coins)"
    if step == "successor":
        return f"You gave up {render.cname(f['xcompany'])}'s presidency: choose who takes it"
    return ""


def _column_grid(items: list[str], cols: int, padding: int) -> Table:
    """`items` in `cols` columns, filled top to bottom then left to right."""
    grid = Table.grid(padding=(0, padding))
    cols = max(cols, 1)
    for _ in range(cols):
        grid.add_column()
    rows = (len(items) + cols - 1) // cols
    for r in range(rows):
        grid.add_row(*[items[r + k * rows] if r + k * rows < len(items) else ""
                       for k in range(cols)])
    return grid


def decisions_panel(state: State) -> Panel:
    options = legal_list(state)
    items = [f"[bold cyan]{i}[/] {decision_label(state, a)}" for i, a in enumerate(options, 1)]
    cols = 3 if len(items) > 6 else 2 if len(items) > 3 else len(items)
    return Panel(_column_grid(items, cols, 3), title="Decisions", title_align="left")


def full_list(state: State) -> Panel:
    """Every legal decision with its number (the `list` command)."""
    options = legal_list(state)
    items = [f"[bold cyan]{i:>3}[/] {action_text(a)}" for i, a in enumerate(options, 1)]
    return Panel(_column_grid(items, 4 if len(items) > 12 else 1, 2),
                 title=f"All {len(items)} legal decisions", title_align="left")



# ---------------------------------------------------------------------------------------------
# The game loop

HELP = """\
[bold]Decide[/] by typing
  • a [bold]number[/] from the list of decisions (`list` shows every decision with its number);
  • a move in full notation: `play 7 place 12`, `play 7 protect 12`, `play 7 grow Crown`,
    `expand`, `wait`, `place 14`, `protect 14`, `stop`, `sell Crown`, `buy Panda`, `pass`,
    `successor 2` — any case, companies by 3 letters or more (`cro`, `pan`);
  • a short form:
      card step   `2 grow crown` / `2 g cro`  card 2 of your hand if you hold it, else the 2nd card
                  `#2 p 12`   the 2nd card of your hand places on 12 (p place, pr protect, g grow)
                  `g crown`, `p crown 12`, `pr 12`   leave the card out when only one card can
      expansion   `e`/`y` expand, `w`/`n` wait;  `p 14` place, `pr 14` protect, `s` stop
      sell, buy   `s crown`, `b pan`, or just the company;  `n`/`no`/`-` pass
      successor   the player's name
[bold]Commands[/]
  help      this text             list      every legal decision, numbered
  hint      the AI's advice       undo      back to your previous decision
  show      the board again       log       the decisions so far (`log all`)
  save FILE save the game         quit      save and leave (resume: ekonos play --load FILE)
The game is saved after every decision in {autosave}; Ctrl-C offers to quit."""


class PlaySession:
    """One game: a person at seat `human` against bots at the other seats.

    `start` is the position the record begins from; `moves` the decisions since (action numbers).
    `input_fn(prompt)` returns one line (raising EOFError at the end of input); `console` is
    where everything is printed.  `autosave` (a path or None) is written after every decision."""

    def __init__(self, start: State, human: int, level: int, ai_seed: int, *,
                 console: Console | None = None, input_fn: Callable[[str], str] | None = None,
                 moves: list[int] | None = None, autosave: Path | None = None, ply0: int = 0,
                 record_dir: Path | None = None):
        if level not in LEVELS:
            raise PlayError(f"--level must be 1-5, got {level}")
        if not 0 <= human < start.nplayers:
            raise PlayError(f"the human seat must be 0-{start.nplayers - 1}, got {human}")
        self.start = start.copy()
        self.human = human
        self.level = level
        self.ai_seed = ai_seed
        self.ply0 = ply0
        self.console = console or Console()
        self.input_fn = input_fn or (lambda prompt: self.console.input(prompt))
        self.autosave = autosave
        self.record_dir = record_dir
        self.bots = {q: make_bot(LEVELS[level], seed=derive_seed(ai_seed, q))
                     for q in range(start.nplayers) if q != human}
        self.history: list[tuple[int, int, int]] = []    # (action, seat, round)
        self.state = self.start.copy()
        self._shown: int | None = None                    # len(history) when the board was shown
        self._autosave_failed = False
        self.last_think = 0.0                             # seconds of the last AI decision
        for a in moves or []:
            self._push(a, quiet=True)

    # -- building and saving ----------------------------------------------------------------
    @classmethod
    def new_game(cls, ai: int = 3, level: int = 3, seed: int | None = None,
                 name: str | None = None, seat: int = 0, variant: str = "rulebook",
                 **kwargs) -> "PlaySession":
        players = ai + 1
        if not 1 <= ai <= 5:
            raise PlayError(f"--ai must be 1-5 opponents, got {ai}")
        if not 0 <= seat < players:
            raise PlayError(f"--seat must be 0-{players - 1} with {ai} AI opponents, got {seat}")
        name = (name or "You").strip()
        if not name:
            raise PlayError("--name must not be empty")
        others = [n for n in DEFAULT_NAMES if n.lower() != name.lower()]
        names = []
        for q in range(players):
            names.append(name if q == seat else others.pop(0))
        try:
            st = State.new(players=players, seed=seed, names=names, variant=variant)
        except ValueError as e:
            raise PlayError(str(e)) from None
        return cls(st, seat, level, ai_seed=st.seed, **kwargs)

    def record(self) -> dict:
        """The position now, plus the "play" record: who is human, the level, the AI seed and
        every decision from `start` (so `--load` resumes exactly, undo included)."""
        d = self.state.to_dict()
        d["play"] = {"version": PLAY_FORMAT, "human": self.human, "level": self.level,
                     "ai_seed": self.ai_seed, "ply0": self.ply0,
                     "start": self.start.to_dict(),
                     "moves": [action_text(a) for a, _, _ in self.history]}
        return d

    def save(self, path: Path) -> None:
        path = Path(path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        save_file(_Record(self.record()), path)

    @classmethod
    def load(cls, path: str | os.PathLike, level: int | None = None, seat: int | None = None,
             **kwargs) -> "PlaySession":
        """Resume a game saved by `ekonos play`, or start playing from any position file."""
        import json
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PlayError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise PlayError(f"{path}: is a directory") from None
        except (OSError, UnicodeDecodeError) as e:
            raise PlayError(f"{path}: cannot read it ({getattr(e, 'strerror', None) or e})") \
                from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PlayError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
        try:
            state = state_from_dict(State, data)
        except PositionError as e:
            raise PlayError(f"{path}: {e}") from None
        play = data.get("play") if isinstance(data, dict) else None
        notes = []
        if play is None:
            human = 0 if seat is None else seat
            lvl = 3 if level is None else level
            ai_seed = derive_seed(state.seed or 0, 0x504C4159)
            start, moves, ply0 = state, [], 0
        else:
            if not isinstance(play, dict):
                raise PlayError(f"{path}: play: must be an object")
            human = _field_int(play, "human", 0, state.nplayers - 1, path) if seat is None else seat
            lvl = _field_int(play, "level", 1, 5, path) if level is None else level
            ai_seed = _field_int(play, "ai_seed", 0, 2**64 - 1, path)
            ply0 = _field_int(play, "ply0", 0, 10**6, path) if "ply0" in play else 0
            start, moves = _replay(play, state)
            if start is None:
                notes.append("the record's history does not lead to this position: undo starts "
                             "from here")
                start, moves = state, []
                texts = play.get("moves")
                ply0 += len(texts) if isinstance(texts, list) else 0
        if not 0 <= human < state.nplayers:
            raise PlayError(f"--seat must be 0-{state.nplayers - 1} for this game, got {human}")
        if lvl not in LEVELS:
            raise PlayError(f"--level must be 1-5, got {lvl}")
        if not all(start.hand_known(q) for q in range(start.nplayers)) or \
                not all(state.hand_known(q) for q in range(state.nplayers)):
            if moves:
                start, moves = state, []
            start = start.copy()
            start.determinize(human, derive_seed(ai_seed, 0x48414E44))
            notes.append("hands the file does not give were dealt at random from the cards "
                         f"{start.names[human]} cannot see")
        session = cls(start, human, lvl, ai_seed, moves=moves, ply0=ply0, **kwargs)
        for note in notes:
            session.console.print(f"[yellow]Note:[/] {note}")
        return session

    # -- moves --------------------------------------------------------------------------------
    @property
    def ply(self) -> int:
        return self.ply0 + len(self.history)

    def _push(self, action: int, quiet: bool = False) -> None:
        before = self.state
        seat = before.to_move
        after = before.copy()
        after.push(action)
        self.history.append((action, seat, before.round))
        self.state = after
        if not quiet:
            who = before.names[seat]
            style = "bold green" if seat == self.human else "bold"
            self.console.print(f"[{style}]{escape(who)}[/]: [bold]{action_text(action)}[/] — "
                               f"{describe(before, after, action, seat, self.human)}")
            if after.round != before.round and not after.is_over():
                self.console.rule(f"Round {after.round} of {after.rounds}: new hands, "
                                  f"+{PLAYER_TABLE[after.nplayers].coins} coins each")
            self._save_auto()

    def _rebuild(self, moves: list[int]) -> None:
        self.history = []
        self.state = self.start.copy()
        for a in moves:
            self._push(a, quiet=True)
        self._shown = None

    def _save_auto(self) -> None:
        if self.autosave is None:
            return
        try:
            self.save(self.autosave)
        except OSError as e:
            if not self._autosave_failed:
                self.console.print(f"[red]Could not autosave to {self.autosave}: "
                                   f"{e.strerror or e}[/]")
            self._autosave_failed = True

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (or until the person quits).  Returns the exit status (0)."""
        if self.state.is_over():              # a finished game loaded: show its end again
            self._finish(keep_record=False)
            return 0
        self.console.print(f"[bold]Ekonos[/]: {self._players_line()} — level {self.level} "
                           f"({LEVELS[self.level]}), seed {self.state.seed}. Type `help` for help.")
        while True:
            try:
                while not self.state.is_over():
                    if self.state.to_move == self.human:
                        self._human_decision()
                    else:
                        self._ai_decision()
                self._finish()
                return 0
            except QuitGame:
                self._goodbye()
                return 0
            except EOFError:
                self.console.print()
                self._goodbye("End of input.")
                return 0
            except KeyboardInterrupt:
                self._rebuild([a for a, _, _ in self.history])
                if self._offer_quit():
                    return 0

    def _players_line(self) -> str:
        return ", ".join(f"{escape(n)}{' (you)' if q == self.human else ''}"
                         for q, n in enumerate(self.state.names))

    def _offer_quit(self) -> bool:
        self._save_auto()
        where = f" (saved in {self.autosave})" if self.autosave else ""
        self.console.print(f"\n[yellow]Interrupted{where}.[/]")
        try:
            answer = self.input_fn("Save and quit? [Y/n] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            answer = "y"
        if answer in ("n", "no"):
            self._shown = None
            return False
        self._goodbye()
        return True

    def _goodbye(self, why: str = "") -> None:
        self._save_auto()
        lead = f"{why} " if why else ""
        if self.autosave is not None and not self._autosave_failed:
            self.console.print(f"{lead}Game saved in [bold]{self.autosave}[/]. "
                               f"Resume with: ekonos play --load {self.autosave}")
        else:
            self.console.print(f"{lead}Game not saved (no autosave file); use `save FILE` "
                               "next time.")

    def _ai_decision(self) -> None:
        seat = self.state.to_move
        view = self.state.view(seat)             # R21: the bot sees what its seat sees
        bot = self.bots[seat]
        name = self.state.names[seat]
        t0 = time.perf_counter()
        with self.console.status(f"{escape(name)} is thinking…", spinner="dots"):
            action = bot.choose(view, seed=derive_seed(bot.seed, self.ply))
        self.last_think = time.perf_counter() - t0
        self._push(action)

    def _show(self) -> None:
        st = self.state
        self.console.print(render.play_board(st, self.console.width))
        numbers = None
        if st.step_name == "card":
            numbers = {a: i for i, a in enumerate(legal_list(st), 1)}
        self.console.print(render.seat_hand_panel(st, self.human, numbers))
        if st.step_name != "card":
            self.console.print(decisions_panel(st))
        self._shown = len(self.history)

    def _human_decision(self) -> None:
        if self._shown != len(self.history):
            self._show()
        self.console.print(f"[bold green]{step_question(self.state, self.human)}[/]")
        while True:
            line = self.input_fn(f"{escape(self.state.names[self.human])} › ")
            try:
                got = interpret(line, self.state)
            except MoveError as e:
                if not line.strip():
                    self.console.print("[dim]Type a decision, a number, or `help`.[/]")
                    continue
                self.console.print(f"[red]✗ {escape(e.reason)}[/]")
                if not isinstance(e, InvalidMoveError) and 0 < len(e.legal) <= 8:
                    self.console.print("[dim]legal here: " + ", ".join(e.legal) + "[/]")
                continue
            if isinstance(got, Command):
                if self._command(got):
                    return
                continue
            self._push(got)
            return

    def _command(self, cmd: Command) -> bool:
        """Run an in-game command.  True when the position changed (undo)."""
        c = self.console
        if cmd.name == "help":
            c.print(HELP.format(autosave=self.autosave or "(no autosave)"))
        elif cmd.name == "list":
            c.print(full_list(self.state))
        elif cmd.name == "show":
            self._show()
        elif cmd.name == "log":
            self._log(all_moves=cmd.arg.strip().lower() == "all")
        elif cmd.name == "hint":
            self._hint()
        elif cmd.name == "save":
            if not cmd.arg:
                c.print("[red]✗ save needs a file name: `save mygame.json`[/]")
                return False
            try:
                self.save(Path(cmd.arg))
            except (OSError, ValueError) as e:
                why = getattr(e, "strerror", None) or str(e)
                c.print(f"[red]✗ could not save to {escape(cmd.arg)}: {escape(why)}[/]")
                return False
            c.print(f"Saved to [bold]{escape(cmd.arg)}[/]. Resume with: ekonos play --load "
                    f"{escape(cmd.arg)}")
        elif cmd.name == "undo":
            mine = [i for i, (_, seat, _) in enumerate(self.history) if seat == self.human]
            if not mine:
                c.print("[red]✗ nothing to undo: you have made no decision yet[/]")
                return False
            i = mine[-1]
            taken = [action_text(a) for a, _, _ in self.history[i:]]
            self._rebuild([a for a, _, _ in self.history[:i]])
            self._save_auto()
            c.print(f"Undone: {', '.join(taken)}")
            return True
        elif cmd.name == "quit":
            raise QuitGame
        return False

    def _hint(self) -> None:
        name, kwargs = parse_spec(LEVELS[self.level])
        iterations = max(kwargs.get("iterations", 0), HINT_FLOOR)
        workers = kwargs.get("workers", 1)
        with self.console.status("Thinking about your position…", spinner="dots"):
            result = analyse(self.state, iterations=iterations, top=3, workers=workers,
                             seed=derive_seed(self.ai_seed, self.ply, 0x48494E54))
        table = Table(title=f"Hint ({result['iterations']} iterations)", show_edge=False)
        for col in ("#", "decision", "win share", "score", "then"):
            table.add_column(col, justify="left" if col in ("decision", "then") else "right")
        for i, m in enumerate(result["moves"], 1):
            win = "—" if m["win"] is None else f"{m['win']:.0%}"
            score = "—" if m["score"] is None else f"{m['score']:.1f}"
            table.add_row(str(i), m["move"], win, score, ", ".join(m["line"][:3]))
        self.console.print(table)

    def _log(self, all_moves: bool = False) -> None:
        rows = list(enumerate(self.history, self.ply0 + 1))
        if not all_moves:
            rows = rows[-30:]
        if not rows:
            self.console.print("[dim]No decisions yet.[/]")
            return
        table = Table(show_edge=False, box=None)
        for col in ("#", "round", "player", "decision"):
            table.add_column(col, justify="right" if col in ("#", "round") else "left")
        for i, (a, seat, rnd) in rows:
            table.add_row(str(i), str(rnd), self.state.names[seat], action_text(a))
        self.console.print(table)
        if not all_moves and len(self.history) > 30:
            self.console.print(f"[dim]last 30 of {len(self.history)}; `log all` shows all[/]")

    def _finish(self, keep_record: bool = True) -> None:
        st = self.state
        self.console.print(render.play_board(st, self.console.width))
        self.console.print(render.scorepad(st))
        winners = [st.names[q] for q in st.winners()]
        if self.human in st.winners():
            verdict = "You win!" if len(winners) == 1 else f"A shared win: {', '.join(winners)}."
        else:
            verdict = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
        self.console.print(f"[bold]{escape(verdict)}[/]")
        where = []
        if keep_record:
            self._save_auto()
        if keep_record and self.record_dir is not None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = Path(self.record_dir) / f"game-{stamp}-seed{st.seed}.json"
            try:
                self.save(path)
                where.append(str(path))
            except OSError as e:
                self.console.print(f"[red]Could not save the game record to {path}: "
                                   f"{e.strerror or e}[/]")
        if keep_record and self.autosave is not None and not self._autosave_failed:
            where.append(str(self.autosave))
        if where:
            self.console.print("Game record saved in " + " and ".join(where) + ".")


class _Record:
    """Adapter so `ekonos.save_file` (atomic) writes a dict with the added "play" field."""

    def __init__(self, data: dict):
        self._data = data

    def to_json(self, indent: int | None = 2) -> str:
        import json
        return json.dumps(self._data, indent=indent)


def _field_int(play: dict, key: str, low: int, high: int, path) -> int:
    v = play.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise PlayError(f"{path}: play.{key}: must be an integer {low}-{high}, got {v!r}")
    return v


def _replay(play: dict, state: State) -> tuple[State | None, list[int]]:
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
            moves.append(st.push_text(t).action)
    except EkonosError:
        return None, []
    if st.to_dict() != state.to_dict():
        return None, []
    return start, moves




# ---------------------------------------------------------------------------------------------
# The command

def _levels_text() -> str:
    """'1 greedy, 2 ISMCTS 1k iterations, ...' from search.bots.LEVELS."""
    out = []
    for k, spec in LEVELS.items():
        name, kw = parse_spec(spec)
        if name == "ismcts" and "iterations" in kw:
            it = kw["iterations"]
            out.append(f"{k} ISMCTS {it // 1000}k iterations" if it % 1000 == 0
                       else f"{k} ISMCTS {it} iterations")
        else:
            out.append(f"{k} {name}")
    return ", ".join(out)


@click.command(epilog="\b\nExamples:\n  ekonos play --ai 3 --level 3\n"
                      "  ekonos play --ai 1 --name Ada --seat 1 --seed 42\n"
                      "  ekonos play --load ~/.local/share/ekonos/autosave.json")
@click.option("--ai", type=int, default=None, metavar="N",
              help="AI opponents, 1-5 (default 3): a game of N+1 players.")
@click.option("--level", type=int, default=None, metavar="1-5",
              help=f"AI strength (default 3): {_levels_text()}.  With --load: changes the "
                   "saved level.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Seed of the deals and the AI (default: random).")
@click.option("--name", default=None, help="Your name (default: You).")
@click.option("--seat", type=int, default=None, metavar="K",
              help="Your seat, 0-N (default 0; seat order is turn order).")
@click.option("--variant", type=click.Choice(VARIANTS), default=None,
              help="Start-player rule of later rounds (default rulebook).")
@click.option("--load", "load", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Resume a game saved by `ekonos play` (or play on from any position file).")
def play(ai, level, seed, name, seat, variant, load):
    """Play Ekonos against the AI in the terminal.

    Type `help` at any prompt for the notation, the short forms and the commands (hint, undo,
    save FILE, show, log, list, quit).  The game is saved after every decision in
    $EKONOS_DATA_DIR, else $XDG_DATA_HOME/ekonos, else ~/.local/share/ekonos (autosave.json);
    finished games are kept in its games/ folder.
    """
    session = make_session(ai=ai, level=level, seed=seed, name=name, seat=seat,
                           variant=variant, load=load)
    return session.run()


def make_session(ai=None, level=None, seed=None, name=None, seat=None, variant=None, load=None,
                 console: Console | None = None, input_fn=None,
                 autosave: Path | None | bool = True) -> PlaySession:
    """Flags -> a PlaySession (PlayError, exit status 2, for bad flags or a bad file)."""
    if level is not None and level not in LEVELS:
        raise PlayError(f"--level must be 1-5, got {level}")
    auto = autosave_path() if autosave is True else (autosave or None)
    kwargs = dict(console=console, input_fn=input_fn, autosave=auto,
                  record_dir=data_dir() / "games" if autosave is not False else None)
    if load is not None:
        given = [flag for flag, v in (("--ai", ai), ("--seed", seed), ("--name", name),
                                      ("--variant", variant)) if v is not None]
        if given:
            raise PlayError(f"{', '.join(given)} cannot be used with --load: the saved game "
                            "fixes them (--level and --seat may change)")
        session = PlaySession.load(load, level=level, seat=seat, **kwargs)
    else:
        ai = 3 if ai is None else ai
        if not 1 <= ai <= 5:
            raise PlayError(f"--ai must be 1-5 opponents, got {ai}")
        session = PlaySession.new_game(ai=ai, level=3 if level is None else level, seed=seed,
                                       name=name, seat=0 if seat is None else seat,
                                       variant=variant or "rulebook", **kwargs)
    if auto is not None:
        keep_unfinished(auto, Path(load) if load is not None else None, session.console)
    return session


def keep_unfinished(auto: Path, loading: Path | None, console: Console) -> Path | None:
    """Before a game starts writing `auto`: if it holds another, unfinished game, move that game
    aside (unfinished-<time>.json beside it) so it is never overwritten.  Returns the new path."""
    import json
    auto = Path(auto)
    if not auto.exists():
        return None
    if loading is not None:
        try:
            if os.path.samefile(auto, loading):
                return None
        except OSError:
            pass
    try:
        data = json.loads(auto.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("step") == "over":
            return None
    except (OSError, ValueError):
        pass                                   # unreadable: keep it too, rather than lose it
    stamp = datetime.fromtimestamp(auto.stat().st_mtime).strftime("%Y%m%d-%H%M%S")
    kept = auto.with_name(f"unfinished-{stamp}.json")
    n = 1
    while kept.exists():
        n += 1
        kept = auto.with_name(f"unfinished-{stamp}-{n}.json")
    try:
        os.replace(auto, kept)
    except OSError as e:
        raise PlayError(f"{auto} holds an unfinished game and could not be moved aside "
                        f"({e.strerror or e}); resume it with --load, or move it") from None
    console.print(f"[yellow]Note:[/] your unfinished game was kept in [bold]{kept}[/] "
                  f"(resume it with: ekonos play --load {kept})")
    return kept
