"""Why a decision was made: one short reason line per decision, for the people watching.

`describe(before, after, move, seat, you)` reads the public facts of the positions before and
after the decision (tiles on the map, growth tracks, coins, shares, presidents) through the
engine's read API and the fields of the `Move`, and says what changed and who gains.  No rich,
no terminal: the line is plain text, the caller styles it.
"""
from __future__ import annotations

from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.notation import parse_move
from ekonos.rules import MAX_SHARES, TOKEN_LIMIT, TOKEN_LIMIT_MIN_PLAYERS, Company, Step


#: Under a hint whose win shares cannot be told apart (search.analysis.even).
EVEN_NOTE = ("The search's own win shares of these lie within one point of each other, as do "
             "the final points it expects of them: from here it cannot tell them apart, and "
             "any of them is about as good as the others.")


def plural(n: int, word: str) -> str:
    """`plural(1, "coin")` -> '1 coin', `plural(5, "coin")` -> '5 coins'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: The same, in one line (beside the table at 80×24).
EVEN_SHORT = "The search cannot tell them apart: any is about as good as the others."


def move_label(move: Move, names: list[str] | None = None) -> str:
    """The notation of a move, with the step of a pass named (`sell: pass`, `buy: pass`) and,
    with `names`, the successor named by player (`successor Bruno`)."""
    if move.kind is MoveKind.PASS:
        return f"{move.step}: pass"
    if move.kind is MoveKind.SUCCESSOR and names is not None:
        return f"successor {names[move.seat]}"
    return str(move)


class Voice:
    """Names the seats in a reason line: the seat `you` is "you" (with verbs agreeing), the
    others by name.  A player whose name is "You" (any case) is addressed the same way, so the
    words stay grammatical whoever reads them."""

    def __init__(self, names: list[str], you: int | None = None):
        self.names = list(names)
        self.you = you

    def second(self, q: int) -> bool:
        return q == self.you or self.names[q].strip().casefold() == "you"

    def name(self, q: int) -> str:
        return "you" if self.second(q) else self.names[q]

    def subject(self, q: int, verb: str) -> str:
        """'Bruno holds' / 'you hold' (`verb` in the third person singular)."""
        if self.second(q) and verb.endswith("s"):
            verb = verb[:-1]
        return f"{self.name(q)} {verb}"

    def possessive(self, q: int) -> str:
        return "your" if self.second(q) else f"{self.names[q]}'s"


def _company(c: int) -> str:
    return str(Company(c))


def _stake(st: State, voice: Voice, seat: int, c: int) -> str:
    """How the decision's company matters to `seat` (from the shares before it)."""
    mine = st.shares(seat, c)
    col = [st.shares(q, c) for q in range(st.nplayers)]
    if mine and mine == max(col):
        return (f"{voice.possessive(seat)} {mine} shares gain most" if mine > 1
                else f"{voice.possessive(seat)} share gains most")
    if mine:
        return f"{voice.subject(seat, 'holds')} {_of(mine, sum(col))}"
    if sum(col) == 0:
        return f"nobody owns {_company(c)} yet"
    pres = st.president(c)
    return f"{voice.subject(pres, 'presides')} with {_of(col[pres], sum(col))}"


def _of(k: int, total: int) -> str:
    """'2 of 5 shares', or 'the only share'."""
    return "the only share" if total == 1 else f"{k} of {total} shares"


def describe(before: State, after: State, move: Move, seat: int, you: int | None = None) -> str:
    """A short reason for `move` of `seat`, derived from the public state before and after it
    (tile counts, tracks, coins, shares, presidents): what changed and who gains.  The seat
    `you` is called "you"."""
    voice = Voice(before.names, you)
    n_companies = len(Company)
    tb = [before.value(c) for c in range(n_companies)]
    ta = [after.value(c) for c in range(n_companies)]
    parts: list[str] = []
    main: int | None = None              # the company the decision is about
    expected = [0] * n_companies         # tile changes the decision itself makes
    show_stake = True
    kind = move.kind
    turn = before.turn

    if move.step is Step.CARD:
        if kind is MoveKind.GROW:
            main = int(move.company)
            g0 = before.growth(main)
            g1 = g0 + 1
            msg = f"{_company(main)}'s track {g0}→{g1}"
            pres = before.president(main)
            decider = pres if pres is not None else seat
            if g1 == 4:
                msg += f", {voice.name(decider)} may expand"
            elif g1 == 6:
                msg += (f": {_company(main)} must expand "
                        f"({voice.subject(decider, 'decides')})")
            parts.append(msg)
        else:
            main = int(move.top)
            if kind is MoveKind.PLACE:
                expected[main] = 1
                parts.append(f"{_company(main)} {tb[main]}→{tb[main] + 1} tiles")
            else:
                parts.append(f"{_company(main)}'s tile on {move.space} can never be taken")
    elif move.step is Step.EXPAND_CHOICE:
        main = int(turn.expansion.company)
        went_on = (after.step is Step.EXPAND and after.turn is not None
                   and after.turn.expansion.company == main)
        if kind is MoveKind.EXPAND and went_on:
            parts.append(f"{_company(main)} expands now (up to 2 growth actions)")
        elif kind is MoveKind.EXPAND:
            parts.append(f"{_company(main)} expands, but can neither place nor protect: its "
                         "track returns to 0")
            show_stake = False
        else:
            parts.append(f"{_company(main)}'s track stays at 4, to expand bigger later")
    elif move.step is Step.EXPAND:
        main = int(turn.expansion.company)
        if kind is MoveKind.STOP:
            parts.append(f"{_company(main)}'s expansion ends here")
        elif kind is MoveKind.PLACE:
            owner = before.owner(move.space)
            msg = f"{_company(main)} {tb[main]}→{tb[main] + 1} tiles"
            expected[main] = 1
            if owner is not None:
                expected[owner] = -1
                msg += f", taking space {move.space} from {_company(owner)}"
                top = before.president(owner)
                if before.column(owner) and top is not None:
                    held = before.shares(top, owner)
                    msg += (f" ({voice.possessive(top)} {held} shares lose)" if held > 1
                            else f" ({voice.possessive(top)} share loses)")
            parts.append(msg)
        else:
            parts.append(f"{_company(main)}'s tile on {move.space} can never be taken")
    elif kind is MoveKind.SELL:
        c = int(move.company)
        col = before.column(c)                   # R15: the sale pays the column's size
        parts.append(f"+{plural(col, 'coin')} from a column of {col}, "
                     f"{_company(c)} is worth {tb[c]} a share")
    elif kind is MoveKind.BUY:
        c = int(move.company)
        paid = before.column(c) + 1              # R16: the lowest free space's price
        mine = before.shares(seat, c) + 1
        parts.append(f"pays {paid} for a share worth {tb[c]} now (track {before.growth(c)}); "
                     f"{voice.subject(seat, 'holds')} {mine}")
    elif kind is MoveKind.PASS:
        if move.step is Step.SELL:
            parts.append("keeps every share")
        else:
            parts.append(f"keeps {plural(before.coins(seat), 'coin')}")
    elif kind is MoveKind.SUCCESSOR:
        parts.append(f"{_company(turn.selling)}'s presidency goes to {voice.name(move.seat)}")

    if main is not None and show_stake:
        parts.append(_stake(before, voice, seat, main))
    # what the forced steps that followed changed (an automatic expansion, a new round)
    others = [f"{_company(c)} {tb[c]}→{ta[c]}" for c in range(n_companies)
              if ta[c] - tb[c] != expected[c]]
    if others:
        parts.append("tiles: " + ", ".join(others))
    if kind is not MoveKind.SUCCESSOR:
        for c in range(n_companies):
            p0, p1 = before.president(c), after.president(c)
            if p0 != p1:
                parts.append(f"{voice.subject(p1, 'becomes')} {_company(c)}'s president"
                             if p1 is not None else f"{_company(c)} has no president now")
    skipped = skipped_buy(before, after, move, you)
    if skipped:
        parts.append(skipped)
    return "; ".join(parts)


def skipped_buy(before: State, after: State, move: Move, you: int | None) -> str | None:
    """When the decision ended the turn of the person (`you`) before their buy step could ask
    anything (no share they may buy: the engine passed for them), say so once, and why."""
    if you is None or move.step in (Step.BUY, Step.OVER):
        return None
    turn = before.turn
    player = turn.player if turn is not None else before.to_move
    if player != you:
        return None
    later = after.turn
    if not after.is_over() and later is not None and later.player == player \
            and after.round == before.round:
        return None                      # the turn goes on (sell, buy, an expansion, ...)
    coins = before.coins(player)
    columns = {c: before.column(c) for c in Company}
    tokens = before.tokens(player)
    if move.kind is MoveKind.SELL:       # R15: the sale pays the column, then leaves it
        coins += columns[move.company]
        columns[move.company] -= 1
        tokens -= 1
    open_columns = [k for k in columns.values() if k < MAX_SHARES]
    whose = "" if move.step is Step.CARD or before.to_move == you else "your "
    if not open_columns:
        why = "every column is full"
    elif min(open_columns) + 1 > coins:
        why = "no share affordable"
    elif before.nplayers >= TOKEN_LIMIT_MIN_PLAYERS and tokens >= TOKEN_LIMIT:
        why = f"all {TOKEN_LIMIT} of your tokens are on the board"
    else:
        why = "no share you may buy"
    return f"{why}: {whose}buy skipped"


def skipped_steps(before: State, after: State, move: Move, you: int | None) -> tuple[str, ...]:
    """The steps of the turn of `you` (the person) that the engine took for them after `move`
    (a step with one legal decision is never asked): `("sell",)`, `("buy",)`, both, or none.
    What the person typed ahead for those steps must not land on the next question."""
    turn = before.turn
    player = turn.player if turn is not None else before.to_move
    if you is None or player != you or move.step in (Step.BUY, Step.OVER):
        return ()
    later = after.turn
    goes_on = not after.is_over() and later is not None and later.player == player \
        and after.round == before.round
    if goes_on and after.step not in (Step.BUY,):
        return ()                            # still to come: an expansion, the sale, ...
    sell = move.step in (Step.CARD, Step.EXPAND_CHOICE, Step.EXPAND) and \
        not (goes_on and after.step is Step.SELL)
    return (("sell",) if sell else ()) + (() if goes_on else ("buy",))


def read_line(state: State, texts: list[str]) -> tuple[list[int | None], list[str]]:
    """Who makes each decision of a line of play (canonical texts) from `state`, and each
    decision's label for a person (`move_label`: `buy: pass`, `successor Bruno`).  The line was
    thought on a guess of the other hands, so a card it plays may sit in another hand here: it
    is swapped in (the seats only depend on public facts); hands `state` does not know are
    dealt at random first, for the same reason.  From the first decision that cannot be
    followed: None, and the text as it is."""
    st = state.copy()
    if not all(st.hand_known(q) for q in range(st.nplayers)):
        seat = st.to_move
        st.determinize(seat if seat is not None and st.hand_known(seat) else -1, 0)
    seats: list[int | None] = []
    labels: list[str] = []
    for text in texts:
        if st.is_over():
            break
        try:
            move = parse_move(text, st.step, st.names)
            if move.card is not None:
                _hold(st, st.to_move, move.card)
            seat = st.to_move
            st.push(move)
        except ValueError:            # EkonosError is a ValueError
            break
        seats.append(seat)
        labels.append(move_label(move, st.names))
    rest = texts[len(seats):]
    return seats + [None] * len(rest), labels + list(rest)


def line_players(state: State, texts: list[str]) -> list[int | None]:
    """The seat that makes each decision of a line of play (`read_line`); None from the first
    decision that cannot be followed."""
    return read_line(state, texts)[0]


def _hold(st: State, seat: int, card: int) -> None:
    """Put `card` in the hand of `seat`, swapping it with one of that hand's cards (with the
    hand that holds it, or with the undealt cards)."""
    hand = st.hand(seat)
    if hand is None or card in hand or not hand:
        return
    give = hand[-1]
    for q in range(st.nplayers):
        other = st.hand(q)
        if q != seat and other is not None and card in other:
            st.set_hand(q, [give if c == card else c for c in other])
            break
    st.set_hand(seat, [card if c == give else c for c in hand])
