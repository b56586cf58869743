"""What `ekonos play` shows besides the board (cli/render/ draws that): the question of each
step, the numbered decisions (with a warning on a sale that hands over a presidency), the full
list, the hint table and the log.  Rich renderables and console markup; names of players are
always escaped (text, never markup)."""
from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import Step

from cli.grammar import every_decision, legal_list
from cli.narration import EVEN_NOTE, EVEN_SHORT, move_label, plural
from cli.render import card_text, cname, company_text, short, spaces_text
from cli.events import Decision, by_turn
from ekonos.threats import expansion_threats


def step_question(state: State, seat: int) -> str:
    """The question the person at `seat` answers now (console markup)."""
    step = state.step
    if step is Step.CARD:
        return f"Round {state.round}/{state.rounds} — your turn: play a card"
    turn = state.turn
    if step in (Step.EXPAND_CHOICE, Step.EXPAND):
        c = turn.expansion.company
        by = "your" if turn.player == seat else f"{escape(state.names[turn.player])}'s"
        if step is Step.EXPAND_CHOICE:
            return (f"{cname(c)} reached 4 on {by} card: expand now (up to 2 actions) "
                    "or wait?")
        left = turn.expansion.actions_left
        return f"{cname(c)} expands ({plural(left, 'action')} left): place, protect or stop?"
    if step is Step.SELL:
        return f"Sell one share? (optional; you have {plural(state.coins(seat), 'coin')})"
    if step is Step.BUY:
        return f"Buy one share? (optional; you have {plural(state.coins(seat), 'coin')})"
    if step is Step.SUCCESSOR:
        return f"You gave up {cname(turn.selling)}'s presidency: choose who takes it"
    return ""


def decision_label(state: State, move: Move, short: bool = False) -> str:
    """Canonical text plus a little context, for the numbered list of a step other than the
    card step (console markup); `short` for small terminals."""
    seat = state.to_move
    if move.kind is MoveKind.SELL:
        pays = plural(state.column(move.company), "coin")
        label = (f"sell {cname(move.company)} [dim](+{pays}, you hold "
                 f"{state.shares(seat, move.company)})[/]")
        warning = presidency_warning(state, seat, move.company)
        return label + (f" [bold yellow]⚠ {escape(warning)}[/]" if warning else "")
    if move.kind is MoveKind.BUY:
        price, worth = state.column(move.company) + 1, state.value(move.company)
        if short:
            return f"buy {cname(move.company)} [dim]({price}¢, worth {worth})[/]"
        return f"buy {cname(move.company)} [dim](costs {price}, worth {worth} now)[/]"
    if move.kind is MoveKind.SUCCESSOR:
        return f"successor {move.seat} [dim]({escape(state.names[move.seat])})[/]"
    if move.step is Step.EXPAND and move.kind is MoveKind.PLACE:
        owner = state.owner(move.space)
        if owner is not None:
            return (f"place {move.space} [dim](takes {str(owner)[:3]})[/]" if short
                    else f"place {move.space} [dim](takes it from {owner})[/]")
    return str(move)


def presidency_warning(state: State, seat: int, company) -> str | None:
    """When `seat` presides `company` and selling one share of it hands the presidency over
    (R18c: someone then holds strictly more), who takes it; None otherwise."""
    if state.president(company) != seat:
        return None
    left = state.shares(seat, company) - 1
    held = {q: state.shares(q, company) for q in range(state.nplayers) if q != seat}
    most = max(held.values(), default=0)
    if left == 0 and most == 0:
        return f"{company} will have no president (R18d)"
    if most <= left:
        return None
    tied = [state.names[q] for q, k in held.items() if k == most]
    if len(tied) == 1:
        return f"the {company} presidency passes to {tied[0]}"
    return f"the {company} presidency passes to {' or '.join(tied)} (you choose)"


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


def decisions_panel(state: State, width: int = 80, framed: bool = True) -> Panel | Table:
    """The numbered decisions of a step other than the card step, in as many columns (up to 4)
    as `width` holds; in a frame, or (not `framed`, for small terminals) under a title line."""
    options = legal_list(state)
    items = [f"[bold cyan]{i:>{len(str(len(options)))}}[/] "
             f"{decision_label(state, m, short=not framed)}" for i, m in enumerate(options, 1)]
    longest = max((Text.from_markup(item).cell_len for item in items), default=1)
    cols = max(1, min(4, len(items), (width - 4 + 3) // (longest + 3)))
    grid = _column_grid(items, cols, 3)
    if framed:
        return Panel(grid, title="Decisions", title_align="left")
    out = Table.grid()
    out.add_row(Text("Decisions (type the number or the words)", style="bold"))
    out.add_row(grid)
    return out


def full_list(state: State) -> Panel | Table:
    """Every legal decision (the `list` command): at the card step each card with the spaces it
    can place on and protect, and its numbered growths; at the other steps the numbered list."""
    if state.step is not Step.CARD:
        options = legal_list(state)
        items = [f"[bold cyan]{i:>3}[/] {m}" for i, m in enumerate(options, 1)]
        return Panel(_column_grid(items, 4 if len(items) > 12 else 1, 2),
                     title=f"All {len(items)} legal decisions", title_align="left")
    numbers = {m: i for i, m in enumerate(legal_list(state), 1)}
    moves = every_decision(state)
    table = Table(box=None, show_edge=False, padding=(0, 1),
                  title=f"All {len(moves)} legal decisions: `CARD p SPACE`, `CARD pr SPACE`, "
                        "or a growth's number", title_justify="left")
    for col in ("card", "place on", "protect", "grow"):
        table.add_column(col)
    for card in sorted({m.card for m in moves}):
        mine = [m for m in moves if m.card == card]
        places = [m.space for m in mine if m.kind is MoveKind.PLACE]
        protects = [m.space for m in mine if m.kind is MoveKind.PROTECT]
        grows = [f"[bold cyan]{numbers[m]}[/] {cname(m.company)}" for m in mine
                 if m.kind is MoveKind.GROW]
        table.add_row(card_text(card), spaces_text(places) or "—",
                      spaces_text(protects) or "—", " · ".join(grows))
    return table


#: Below this many columns the in-game hint leaves out the visits and the continuation, so
#: each row (label, decision, win share, score) stays on one line.
HINT_NARROW = 56


def hint_table(result: dict, names: list[str] | None = None, width: int = 80,
               compact: bool = False) -> Table | Group:
    """The advice of `GameSession.hint` as a table: rows h1, h2, ... (type the label to play
    it) best first by win share, with the visits behind each figure and the expected
    continuation, each decision with its player (grouped: `Anna: play 3 grow Crown, buy:
    pass`); under it, when the win shares are too close to tell apart, a line that says so.
    A terminal narrower than HINT_NARROW gets the label, decision, win share and score only.
    `compact` (beside the table at 80×24): each row on one line, the continuation cut short."""
    how = "exact" if result.get("exact") else f"{result['iterations']} iterations"
    title = (f"Hint ({how}; h1, h2, … plays a row)" if compact
             else f"Hint ({how}; type h1, h2, … to play a row)")
    note = (EVEN_SHORT if compact else EVEN_NOTE) if result.get("even") else None
    table = Table(title=title, title_justify="left", box=None, show_edge=False, padding=(0, 1))
    cols = ["", "decision", "win share", "score", "visits", "then"]
    if width < HINT_NARROW:
        cols = cols[:4]
    elif compact and width < 100:
        cols.remove("visits")
    rows = [{"": f"h{i}", "decision": m.get("label", m["move"]),
             "win share": "—" if m["win"] is None else f"{m['win']:.0%}",
             "score": "—" if m["score"] is None else f"{m['score']:.1f}",
             "visits": "exact" if m.get("exact") else str(m["visits"])}
            for i, m in enumerate(result["moves"], 1)]
    names_of = {col: "win" if compact and width < 100 and col == "win share" else col
                for col in cols}
    # every column but the continuation keeps its width whole; that one gives way, to what
    # is left of the width (rich would otherwise squeeze the short columns out of sight)
    wholes = {col: max([len(names_of[col])] + [len(r[col]) for r in rows])
              for col in cols if col != "then"}
    rest = max(1, width - sum(wholes.values()) - 2 * len(cols))
    for col in cols:
        table.add_column(names_of[col],
                         justify="left" if col in ("decision", "then", "") else "right",
                         overflow="ellipsis" if compact else "fold", min_width=wholes.get(col),
                         max_width=rest if col == "then" else None,
                         no_wrap=col == "decision" or compact)   # a decision stays whole
    for m, cells in zip(result["moves"], rows):
        cells = dict(cells, **{"": Text(cells[""], style="bold cyan"),
                               "then": continuation_text(m.get("labels", m["line"])[:4],
                                                         m.get("players"), names)})
        table.add_row(*(cells[c] for c in cols))
    # the note under the table, as wide as the screen (a table's caption is as narrow as it)
    return Group(table, Text(note, style="dim")) if note else table


class MoveLine(Text):
    """A line of moves that a narrow column folds between moves, never inside one (`Anna: play
    20 place 36,` / `sell Phoenix`); a move longer than the whole width folds as any text."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: (where a line may end, where the next then starts), between moves
        self.breaks: list[tuple[int, int]] = []

    def __rich_console__(self, console, options):
        plain, width = self.plain, options.max_width
        no_wrap = self.no_wrap if self.no_wrap is not None else bool(options.no_wrap)
        if no_wrap or cell_len(plain) <= width or not self.breaks:   # one row, cut as asked
            yield from super().__rich_console__(console, options)
            return
        lines, start, before = [], 0, None
        for end, after in self.breaks + [(len(plain), len(plain))]:
            if before is not None and cell_len(plain[start:end]) > width:
                lines.append(self[start:before[0]])
                start = before[1]
            before = (end, after)
        lines.append(self[start:])
        folded = Text("\n").join(lines)
        folded.justify, folded.overflow, folded.no_wrap = self.justify, self.overflow, self.no_wrap
        yield from folded.__rich_console__(console, options)


def continuation_text(labels: list[str], players: list[int | None] | None,
                      names: list[str] | None) -> MoveLine:
    """A line of play (cli.narration.read_line's labels: a pass says of which step, a
    successor is named) with who makes each decision, a player's decisions in a row grouped:
    `Anna: play 3 grow Crown, sell: pass · You: buy Panda`.  It folds only between moves."""
    out = MoveLine()
    who_before: object = object()
    for k, text in enumerate(labels):
        who = players[k] if players is not None and k < len(players) else None
        named = who is not None and names is not None
        if named and who != who_before:
            if k:
                end = len(out)
                out.append(" · ")
                out.breaks.append((end, len(out)))
            out.append(f"{names[who]}: ", style="dim")
        elif k:
            out.append(",")
            end = len(out)
            out.append(" ")
            out.breaks.append((end, len(out)))
        out.append(text)
        who_before = who
    return out


def log_table(decisions: list[Decision], names: list[str]) -> Table:
    """The decisions with their number, round and player."""
    table = Table(show_edge=False, box=None)
    for col in ("#", "round", "player", "decision"):
        table.add_column(col, justify="right" if col in ("#", "round") else "left")
    for d in decisions:
        table.add_row(str(d.ply), str(d.round), Text(names[d.seat]),
                      move_label(d.move, names))
    return table


#: How much the "since your turn" block spells out, from the most to the least: a line a
#: decision with its reason; the cards with what they are; the moves only.
SINCE_FORMS = ("lines", "cards", "short")


def _since_move(d: Decision, names: list[str], form: str) -> Text | None:
    """One decision in few characters (None for a pass: it changes nothing)."""
    m = d.move
    if m.kind is MoveKind.PASS:
        return None
    if m.kind is MoveKind.SUCCESSOR:
        return Text(f"successor {names[m.seat]}")
    arg = (company_text(m.company, short(str(m.company))) if m.kind is MoveKind.GROW
           else Text(str(m.space)))
    if m.card is not None:
        head = card_text(m.card, pad=False) if form != "short" else Text(str(m.card))
        return head + Text(f" {m.kind} ") + arg
    if m.kind in (MoveKind.SELL, MoveKind.BUY):
        return Text(f"{m.kind} ") + company_text(m.company, short(str(m.company)))
    return Text(str(m))


def since_block(decisions: list[Decision] | tuple, names: list[str], width: int,
                form: str = "cards", first: bool = False) -> Text | None:
    """The other seats' decisions since the person's last one (cli.events.since_last), under
    "Since your turn" (`first`: the person has not decided yet: "So far").  `form` "lines": a
    line a decision with its reason, cut to `width`; "cards" and "short": a seat's decisions
    in one entry, `Bruno: 34 Gem|Pan+Cro place 22, buy Gem`, entries packed into lines of
    `width` ("short" without what the cards are).  None when there is nothing to tell."""
    if not decisions:
        return None
    label = "So far" if first else "Since your turn"
    out = Text(label + ":", style="bold")
    moved = [d for d in decisions if d.move.kind is not MoveKind.PASS]
    if form == "lines" and moved:        # (only passes: told as one entry below)
        for d in moved:
            line = Text(names[d.seat], style="bold") + Text(": ") + \
                _since_move(d, names, "cards") + Text(f" — {d.reason}", style="dim")
            line.truncate(width, overflow="ellipsis")
            out.append("\n")
            out.append_text(line)
        return out
    used, fresh = out.cell_len, True            # fresh: no entry on this line yet
    for seat, run in by_turn(decisions):
        moves = [t for t in (_since_move(d, names, form) for d in run) if t is not None]
        entry = Text(names[seat], style="bold") + Text(": ") + \
            (Text(", ").join(moves) if moves else Text("pass", style="dim"))
        sep = (" " if used else "") if fresh else " · "
        if used and used + len(sep) + entry.cell_len > width:    # the next line (the label's
            out.append("\n")                                     # too, if it cannot hold it)
            used, fresh, sep = 0, True, ""
        out.append(sep)
        out.append_text(entry)
        used += len(sep) + entry.cell_len
        fresh = False
    return out


#: The style of the tiles a coming expansion could take from a company the person holds shares in.
EXPOSED = "bold red"


def threat_block(state: State, seat: int) -> Text | None:
    """The coming forced expansions (ekonos.threats): each company at growth 4-5, who decides
    its expansion and the tiles of other companies it could take, those of companies `seat`
    holds shares in marked (its shares lose what the tiles are worth); a line each (the console
    wraps long ones).  None when no expansion is coming.  Public information only (R21)."""
    threats = expansion_threats(state)
    if not threats:
        return None
    names = state.names
    out = Text("Coming expansions:", style="bold yellow")
    fresh = True
    for t in threats:
        who = "you" if t.decider == seat else \
            (names[t.decider] if t.decider is not None else "no president")
        entry = company_text(t.company, short(str(t.company))) + Text(f" {t.growth}/6 ({who})")
        if t.takes:
            entry.append(" could take")
            owners: dict = {}
            for sp in t.takes:
                owners.setdefault(state.owner(sp), []).append(sp)
            for i, (owner, spaces) in enumerate(owners.items()):
                mine = state.shares(seat, owner) > 0
                entry.append("," if i else "")
                entry.append(f" {short(str(owner))} {' '.join(map(str, spaces))}",
                             style=EXPOSED if mine else "")
        else:
            entry.append(" empty spaces only" if t.spaces else " cannot place", style="dim")
        out.append(" " if fresh else "\n")   # an expansion a line (long ones wrap)
        out.append_text(entry)
        fresh = False
    return out
