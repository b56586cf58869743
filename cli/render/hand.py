"""A seat's hand and what each card can do, as the engine says (`State.card_actions`).

One line a card, everywhere: `22 Cro|Pho+Pan  place · protect 32   1 Pho 0→1   2 Pan 3→4 …`.
A place is typed with its space (`22 p 12`: any empty space of the map), a protect with its
space (`22 pr 32`); only the growths carry a number, the one a person types to pick them
(`numbers`, from `cli.grammar.legal_list`).  Single values are printed plainly, ranges only
where there are several.

At the seat's card step the places, protects and growths are the engine's legal moves (`Move`
values); at other times no card can be played, so only the cards and what each growth would do
(R11-R12) are shown.
"""
from __future__ import annotations

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.presentation import short
from cli.render.board import card_text, company_text, spaces_text
from ekonos.moves import Move, MoveKind
from ekonos.rules import DECK, MAX_TILES, Company, Step

CHOICE = "bold cyan"        # the style of the numbers that pick a decision in `ekonos play`
HOW_TO_TYPE = "place `{c} p SPACE` · protect `{c} pr SPACE` · grow: type its number"


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


def grow_effect(state, c: Company, seat: int | None, short_form: bool = False,
                shortest: bool = False) -> str:
    """What growing company `c` does now (R11-R12): `0→1`, `3→4, you may expand`, `5→6, Anna
    must expand`; the decider is named as `seat` reads it ("you").  `short_form`: `3→4 you
    may exp.`; `shortest`: `3→4 you`, `5→6 Ann!` (the track reaches 4, or 6 and the expansion
    is forced; who decides)."""
    g = state.growth(c)
    if g >= 6:
        return "6"
    pres = state.president(c)
    # R12: without a president the card's player decides (`seat`, who would play it)
    q = pres if pres is not None else seat if seat is not None else state.decider(c)
    decider = "you" if q == seat else state.names[q]
    step = f"{g}→{g + 1}"
    if g + 1 not in (4, 6):
        return step
    verb = "may" if g + 1 == 4 else "must"
    if shortest:
        return f"{step} {decider[:3]}{'!' if g + 1 == 6 else ''}"
    if short_form:
        return f"{step} {decider[:8]} {verb} exp."
    return f"{step}, {decider} {verb} expand"


#: How much a hand line spells out, from the most to the least.
FORMS = ("roomy", "compact", "tight")


def _top_text(state, top: Company, moves: list[Move], form: str) -> Text:
    """What the card's top does now: `place · protect 14, 28`, or why not."""
    places, protects = _spaces_of(moves, MoveKind.PLACE), _spaces_of(moves, MoveKind.PROTECT)
    bits: list[str] = []
    if places:
        bits.append("place on an empty space" if form == "roomy" else "place")
    if protects:
        bits.append(("pr " + spaces_text(protects).replace(", ", ",")) if form == "tight"
                    else "protect " + spaces_text(protects))
    if bits:
        return Text(" · ".join(bits))
    if state.value(top) >= MAX_TILES and form == "roomy":   # why no place: no tile left (R9a)
        return Text(f"no {short(str(top))} action: all its tiles are out and protected",
                    style="dim")
    return Text(f"no {short(str(top))} action", style="dim")


def _grow_cells(state, card: int, seat: int | None, moves: list[Move] | None,
                numbers: dict[int, int] | None, form: str) -> list[Text]:
    """One cell a bottom company: its number (if it has one), the company, what growing does."""
    number_of = {m.company: numbers.get(m.action) for m in moves or []
                 if m.kind is MoveKind.GROW} if numbers else {}
    cells = []
    for b in map(Company, DECK[card - 1].bottom):
        cell = Text()
        k = number_of.get(b)
        if k is not None:
            cell.append(f"{k:>2} ", style=CHOICE)
        cell.append_text(company_text(b, str(b) if form == "roomy" else short(str(b))))
        cell.append(" " + grow_effect(state, b, seat, short_form=form == "compact",
                                      shortest=form == "tight"))
        cells.append(cell)
    return cells


def _grid(rows: list[list[Text]]) -> tuple[Table, int]:
    """The rows in a borderless grid, and its width."""
    grid = Table.grid(padding=(0, 2))
    for _ in range(4):
        grid.add_column(no_wrap=True)
    for row in rows:
        grid.add_row(*row)
    widths = [max((row[i].cell_len for row in rows if i < len(row)), default=0)
              for i in range(4)]
    return grid, sum(widths) + 2 * (sum(1 for w in widths if w) - 1)


def hand_choices(state, seat: int, numbers: dict[int, int] | None = None,
                 roomy: bool = False, title: str | None = None,
                 width: int | None = None) -> Table | Panel:
    """The hand of `seat` at its card step, one line a card: the card, what its top can do
    (typed with a space number), and its two growths (with the number that picks each).
    `roomy`: in a titled panel with full company names; otherwise a borderless grid for small
    terminals.  With `width`, the most spelt-out form whose lines fit in it."""
    hand = state.hand(seat) or []
    example = hand[0] if hand else "CARD"
    head = title or f"Your hand — {HOW_TO_TYPE.format(c=example)}"
    room = None if width is None else width - (4 if roomy else 0)
    forms = FORMS if roomy else FORMS[1:]
    for form in forms:
        rows = []
        for card in hand:
            moves = card_moves(state, seat, card) or []
            top = Company(DECK[card - 1].top)
            rows.append([card_text(card), _top_text(state, top, moves, form),
                         *_grow_cells(state, card, seat, moves, numbers, form)])
        if not hand:
            rows.append([Text("no cards left this round", style="dim")])
        grid, used = _grid(rows)
        if room is None or used <= room:
            break
    if roomy:
        return Panel(grid, title=head, title_align="left", expand=False)
    out = Table.grid()
    out.add_column(no_wrap=True)
    out.add_row(Text(head, style="bold"))
    out.add_row(grid)
    return out


def hand_line(state, seat: int, label: str = "Your hand: ", width: int | None = None,
              lines: int = 1) -> Text:
    """The hand in one line, for the steps at which no card is played: `22 Cro|Pho+Pan · …`;
    with `width`, in at most `lines` lines of it, broken between cards, the cards that do not
    fit cut (`+2 more`) rather than wrapped."""
    hand = state.hand(seat)
    if hand is None:
        return Text(label + f"not known ({state.hand_size(seat)} cards)", style="dim")
    if not hand:
        return Text(label + "no cards left this round", style="dim")
    shown = list(hand)
    while True:
        rest = len(hand) - len(shown)
        pieces = [card_text(c) for c in shown] + ([Text(f"+{rest} more", style="dim")]
                                                   if rest else [])
        line, used, rows = Text(label, style="bold"), len(label), 1
        for k, piece in enumerate(pieces):
            if k and width is not None and used + 3 + len(piece.plain) > width:
                line.append("\n")
                used, rows = 0, rows + 1
            elif k:
                line.append(" · ")
                used += 3
            line.append_text(piece)
            used += len(piece.plain)
        if width is None or (rows <= lines and used <= width) or len(shown) <= 1:
            return line
        shown.pop()


def card_line(state, seat: int, card: int) -> Text:
    """One line for `show`: card `card` and what it can do in this position (R9-R11)."""
    text = card_text(card)
    text.append("  ")
    moves = card_moves(state, seat, card)
    options = []
    if moves is not None:
        options.append(_top_text(state, Company(DECK[card - 1].top), moves, "compact").plain)
    for b in map(Company, DECK[card - 1].bottom):
        options.append(f"grow {short(str(b))} {grow_effect(state, b, None)}")
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
