"""A seat's hand and what each card can do, as the engine says (`State.card_actions`): one line
a card for `ekonos show`, a table with the numbers that pick a decision for `ekonos play`.

At the seat's card step the places, protects and growths shown are the engine's legal moves
(`Move` values); at other times no card can be played, so only the top company and what each
growth would do (R11-R12) are shown.
"""
from __future__ import annotations

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.board import company_text, short, spaces_text
from ekonos.moves import Move, MoveKind
from ekonos.rules import DECK, MAX_TILES, Company, Step

CHOICE = "bold cyan"        # the style of the numbers that pick a decision in `ekonos play`


def plays_a_card(state, seat: int) -> bool:
    """Whether `seat` is about to play a card (so the engine can say what each card does)."""
    return state.step is Step.CARD and state.to_move == seat


def card_moves(state, seat: int, card: int) -> list[Move] | None:
    """The legal moves of playing `card` now (`state.card_actions`), or None when `seat` is not
    the one to play a card (another step or another seat: the engine cannot say yet)."""
    if not plays_a_card(state, seat):
        return None
    return [Move.from_action(a) for a in state.card_actions(card)]


def _spaces_of(moves: list[Move], kind: MoveKind) -> list[int]:
    return [m.space for m in moves if m.kind is kind]


def card_line(state, seat: int, card: int) -> Text:
    """One line for `show`: card `card` and what it can do in this position (R9-R11)."""
    info = DECK[card - 1]
    top = Company(info.top)
    text = Text(f"{card:>2} ")
    text.append_text(company_text(top, short(str(top))))
    text.append("|")
    b0, b1 = (Company(b) for b in info.bottom)
    text.append_text(company_text(b0, short(str(b0))))
    text.append("+")
    text.append_text(company_text(b1, short(str(b1))))
    text.append("  ")
    moves = card_moves(state, seat, card)
    options = []
    if moves is not None:
        places, protects = _spaces_of(moves, MoveKind.PLACE), _spaces_of(moves, MoveKind.PROTECT)
        if places:
            options.append(f"place ({len(places)} empty)")
        if protects:
            options.append("protect " + ",".join(map(str, protects)))
        if not options:
            options.append(f"no {top} action")
    for b in (b0, b1):
        g = state.growth(b)
        if g >= 6:
            options.append(f"grow {short(str(b))}")
            continue
        note = ""
        if g + 1 in (4, 6):
            verb = "may" if g + 1 == 4 else "must"
            pres = state.president(b)
            decider = state.names[state.decider(b)] + ("" if pres is not None else " (no pres.)")
            note = f" {decider} {verb} expand"
        options.append(f"grow {short(str(b))} {g}→{g + 1}{note}")
    text.append(" · ".join(options))
    return text


def hand_panel(state) -> Panel | None:
    """The hand of the seat to move, one card a line (None when the game is over)."""
    seat = state.to_move
    if seat is None:
        return None
    title = Text(f"Hand of {state.names[seat]}")
    hand = state.hand(seat)
    if hand is None:
        body = Text(f"not known in this position ({state.hand_size(seat)} cards)", style="italic")
    elif not hand:
        body = Text("empty", style="italic")
    else:
        body = Text("\n").join(card_line(state, seat, c) for c in hand)
    return Panel(body, title=title, title_align="left", expand=False)


def _grow_effect(state, c: Company, seat: int) -> str:
    """What growing company `c` does now, as the player at `seat` reads it (R11-R12)."""
    g = state.growth(c)
    pres = state.president(c)
    decider = "you" if pres is None or pres == seat else state.names[pres]
    if g + 1 == 4:
        return f"{g}→4, {decider} may expand"
    if g + 1 == 6:
        return f"{g}→6, expands ({decider})"
    return f"{g}→{g + 1}"


def _top_cell(state, top: Company, moves: list[Move] | None,
              numbers: dict[int, int] | None) -> Text:
    """The top action of a card: the engine's places and protects (numbered in `play`)."""
    cell = Text.assemble(company_text(top))
    if moves is None:                        # not this seat's card step: nothing to play yet
        return cell
    cell.append(": ")
    bits: list[Text] = []
    places = [m for m in moves if m.kind is MoveKind.PLACE]
    protects = [m for m in moves if m.kind is MoveKind.PROTECT]
    if numbers:
        for m in sorted(protects, key=lambda m: numbers[m.action]):
            bits.append(Text.assemble((str(numbers[m.action]), CHOICE), f" protect {m.space}"))
        if places:
            nums = sorted(numbers[m.action] for m in places)
            bits.append(Text.assemble((f"{nums[0]}–{nums[-1]}", CHOICE), " place on "
                                      + spaces_text([m.space for m in places])))
    else:
        if protects:
            bits.append(Text("protect " + spaces_text([m.space for m in protects])))
        if places:
            bits.append(Text(f"place ({len(places)} empty spaces)"))
    if state.value(top) >= MAX_TILES:        # why no place: the supply is empty (R9a)
        bits.append(Text("nothing: all tiles out and protected" if not protects else
                         "(no tile left to place)", style="dim"))
    return cell + Text(" · ").join(bits)


def seat_hand_panel(state, seat: int, numbers: dict[int, int] | None = None) -> Panel:
    """The seat's hand, one card per row, with what the card can do now (the engine's moves, at
    the seat's card step; at other times the top company and what each growth would do).  With
    `numbers` (action -> list number, at the seat's card step) each option carries its number."""
    hand = state.hand(seat) or []
    table = Table(show_edge=False, box=None, padding=(0, 1), expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("card", justify="right", style="bold")
    table.add_column("top action")
    table.add_column("growth")
    for k, card in enumerate(hand, 1):
        info = DECK[card - 1]
        moves = card_moves(state, seat, card)
        grow_number = {m.company: numbers.get(m.action) for m in moves or []
                       if m.kind is MoveKind.GROW} if numbers else {}
        grows = []
        for b in map(Company, info.bottom):
            label = Text.assemble(company_text(b), f" {_grow_effect(state, b, seat)}")
            if grow_number.get(b) is not None:
                label = Text.assemble((str(grow_number[b]), CHOICE), " grow ", label)
            grows.append(label)
        table.add_row(f"#{k}", str(card), _top_cell(state, Company(info.top), moves, numbers),
                      Text(" · ").join(grows))
    title = ("Your hand — what each card can do" if plays_a_card(state, seat) or not hand
             else "Your hand")
    if numbers:
        title += " (numbers pick a decision)"
    if not hand:
        return Panel(Text("no cards left this round", style="dim"), title=title,
                     title_align="left", expand=False)
    return Panel(table, title=title, title_align="left", expand=False)
