"""What `ekonos play` shows besides the board (cli/render/ draws that): the question of each
step, the numbered decisions, the full list, the hint table and the log.  Rich renderables and
console markup; names of players are always escaped (text, never markup)."""
from __future__ import annotations

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import Step

from cli.grammar import legal_list
from cli.narration import plural
from cli.render import cname, spaces_text
from cli.events import Decision


def step_question(state: State, seat: int) -> str:
    """The question the person at `seat` answers now (console markup)."""
    step = state.step
    if step is Step.CARD:
        return (f"Round {state.round}/{state.rounds} — your turn: play a card "
                "(e.g. `2 grow crown`, `play 7 place 12`, or a number)")
    turn = state.turn
    if step in (Step.EXPAND_CHOICE, Step.EXPAND):
        c = turn.expansion.company
        by = "your" if turn.player == seat else f"{escape(state.names[turn.player])}'s"
        if step is Step.EXPAND_CHOICE:
            return (f"{cname(c)}'s track reached 4 on {by} card — you decide: expand now "
                    "with up to 2 growth actions, or wait")
        left = turn.expansion.actions_left
        frm = spaces_text(list(turn.expansion.start_spaces))
        return (f"{cname(c)} expands ({plural(left, 'growth action')} left; its tiles at the "
                f"start: {frm or 'none'}): place next to them, protect a {c} tile, or stop")
    if step is Step.SELL:
        return f"Sell one share? (optional; you have {plural(state.coins(seat), 'coin')})"
    if step is Step.BUY:
        return f"Buy one share? (optional; you have {plural(state.coins(seat), 'coin')})"
    if step is Step.SUCCESSOR:
        return f"You gave up {cname(turn.selling)}'s presidency: choose who takes it"
    return ""


def decision_label(state: State, move: Move) -> str:
    """Canonical text plus a little context, for the numbered list of a step other than the
    card step (console markup)."""
    seat = state.to_move
    if move.kind is MoveKind.SELL:
        pays = plural(state.column(move.company), "coin")
        return (f"sell {cname(move.company)} [dim](+{pays}, you hold "
                f"{state.shares(seat, move.company)})[/]")
    if move.kind is MoveKind.BUY:
        return (f"buy {cname(move.company)} [dim](costs {state.column(move.company) + 1}, "
                f"worth {state.value(move.company)} now)[/]")
    if move.kind is MoveKind.SUCCESSOR:
        return f"successor {move.seat} [dim]({escape(state.names[move.seat])})[/]"
    if move.step is Step.EXPAND and move.kind is MoveKind.PLACE:
        owner = state.owner(move.space)
        if owner is not None:
            return f"place {move.space} [dim](takes it from {owner})[/]"
    return str(move)


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
    """The numbered decisions of a step other than the card step."""
    options = legal_list(state)
    items = [f"[bold cyan]{i}[/] {decision_label(state, m)}" for i, m in enumerate(options, 1)]
    cols = 3 if len(items) > 6 else 2 if len(items) > 3 else len(items)
    return Panel(_column_grid(items, cols, 3), title="Decisions", title_align="left")


def full_list(state: State) -> Panel:
    """Every legal decision with its number (the `list` command)."""
    options = legal_list(state)
    items = [f"[bold cyan]{i:>3}[/] {m}" for i, m in enumerate(options, 1)]
    return Panel(_column_grid(items, 4 if len(items) > 12 else 1, 2),
                 title=f"All {len(items)} legal decisions", title_align="left")


def hint_table(result: dict) -> Table:
    """search.analysis.analyse's advice as a table: decision, win share, score, continuation."""
    table = Table(title=f"Hint ({result['iterations']} iterations)", show_edge=False)
    for col in ("#", "decision", "win share", "score", "then"):
        table.add_column(col, justify="left" if col in ("decision", "then") else "right")
    for i, m in enumerate(result["moves"], 1):
        win = "—" if m["win"] is None else f"{m['win']:.0%}"
        score = "—" if m["score"] is None else f"{m['score']:.1f}"
        table.add_row(str(i), m["move"], win, score, ", ".join(m["line"][:3]))
    return table


def log_table(decisions: list[Decision], names: list[str]) -> Table:
    """The decisions with their number, round and player."""
    table = Table(show_edge=False, box=None)
    for col in ("#", "round", "player", "decision"):
        table.add_column(col, justify="right" if col in ("#", "round") else "left")
    for d in decisions:
        table.add_row(str(d.ply), str(d.round), Text(names[d.seat]), str(d.move))
    return table
