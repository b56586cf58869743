"""A game review (search.review.GameReview) for a person: every reviewed decision in a table,
the win-share chart over the game, the costliest decisions and each player's accuracy, in that
order, so the summary is what stays on screen."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cli.presentation import MARK_SIGN, short_move

MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def how_sure(d) -> str:
    """What stands beside a decision's points lost: ` exact` (every line searched to the end),
    ` [a–b]` (the 90% interval of the second or deep look) or nothing (the first look's figure)."""
    if d.method == "exact":
        return " exact"
    return "" if d.low is None else f" [{max(d.low, 0):.0f}–{d.high:.0f}]"
SEAT_STYLES = ("bold green", "bold magenta", "bold cyan", "bold yellow", "bold blue", "bold red")


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def decisions_table(review) -> Table:
    """One row a decision: number, round, player (when several are reviewed), played (win
    share), best (win share, `=` when it is the move played), loss in points, mark."""
    t = Table(box=None, show_edge=False, padding=(0, 1), title="Decisions (win: expected win "
              "share after the move, calibrated on self-play; loss: points of win share lost)",
              title_justify="left")
    several = len(review.seats) > 1
    columns = [("#", "right"), ("rd", "right")] + ([("player", "left")] if several else []) + \
        [("played", "left"), ("win", "right"), ("best", "left"), ("win", "right"),
         ("loss", "right"), ("", "left")]
    for col, just in columns:
        t.add_column(col, justify=just, overflow="fold")
    for d in review.decisions:
        same = d.played == d.best
        mark = d.mark or ""
        who = [Text(review.names[d.seat][:10])] if several else []
        t.add_row(str(d.ply), str(d.round), *who, short_move(d.played), _pct(d.win_played),
                  "=" if same else short_move(d.best), "" if same else _pct(d.win_best),
                  f"{d.loss:.1f}" if d.loss >= 0.05 else "",
                  Text(f"{MARK_SIGN[mark]} {mark}" if mark else "", style=MARK_STYLE.get(mark)))
    return t


def win_chart(review, width: int = 72, height: int = 10) -> Text:
    """Each reviewed seat's expected win share at its decisions (the best move's), as points
    on a grid: x the decision number, y 0-100%; a seat's points by its first letter (or seat
    number), `*` where two meet; the last column is the result when the game is over."""
    points: dict[int, list[tuple[int, float]]] = {q: [] for q in review.seats}
    for d in review.decisions:
        points[d.seat].append((d.ply, d.win_best))
    plies = [d.ply for d in review.decisions] or [0]
    first, last = min(plies), max(plies)
    if review.result is not None:
        last += 1
        for q in review.seats:
            points[q].append((last, review.result[q]))
    cols = max(10, width - 6)
    span = max(last - first, 1)
    letters = _letters(review.names)
    grid = [[(" ", None)] * cols for _ in range(height + 1)]
    for q in review.seats:
        for ply, win in points[q]:
            x = round((ply - first) / span * (cols - 1))
            y = height - round(win * height)
            cell = grid[y][x][0]
            grid[y][x] = ((letters[q], SEAT_STYLES[q % len(SEAT_STYLES)]) if cell in (" ", letters[q])
                          else ("*", "bold"))
    out = Text()
    for y, row in enumerate(grid):
        label = {0: "100%", height // 2: " 50%", height: "  0%"}.get(y, "    ")
        out.append(label + " │", style="dim")
        for ch, style in row:
            out.append(ch, style=style)
        out.append("\n")
    out.append("     └" + "─" * cols + "\n", style="dim")
    out.append(f"      decision {first}" + " " * max(1, cols - 18 - len(str(last)))
               + f"{'result' if review.result is not None else last}", style="dim")
    legend = "   ".join(f"{letters[q]} {review.names[q]}" for q in review.seats)
    out.append("\n      " + legend)
    return out


def _letters(names: list[str] | tuple[str, ...]) -> list[str]:
    first = [n.strip()[:1].upper() or "?" for n in names]
    return first if len(set(first)) == len(first) else [str(q) for q in range(len(names))]


def summary(review) -> Group:
    """The costliest decisions with the better move, then each reviewed seat's accuracy and
    marks."""
    parts = []
    worst = review.costliest(3)
    if worst:
        t = Table(box=None, show_edge=False, padding=(0, 1),
                  title="The costliest decisions", title_justify="left")
        for col in ("#", "player", "played", "better", "lost"):
            t.add_column(col, justify="right" if col in ("#", "lost") else "left",
                         overflow="fold")
        for d in worst:
            t.add_row(str(d.ply), Text(review.names[d.seat]),
                      f"{short_move(d.played)} ({_pct(d.win_played)})",
                      f"{short_move(d.best)} ({_pct(d.win_best)})",
                      Text(f"{d.loss:.1f}{how_sure(d)} points {d.mark or ''}".strip(),
                           style=MARK_STYLE.get(d.mark or "")))
        parts.append(t)
    else:
        parts.append(Text("No decision lost a point of win share by the search's measure."))
    acc = Table(box=None, show_edge=False, padding=(0, 1), title="Accuracy",
                title_justify="left")
    for col in ("player", "accuracy", "decisions", "open", "decided", "inaccuracies",
                "mistakes", "blunders"):
        acc.add_column(col, justify="left" if col == "player" else "right")
    for q in review.seats:
        a, o = review.accuracy(q), review.open_accuracy(q)
        c = review.counts(q)
        acc.add_row(Text(review.names[q]), "—" if a is None else f"{a:.0f}%",
                    str(len(review.of(q))), "—" if o is None else f"{o:.0f}%",
                    str(review.decided_count(q)), str(c["inaccuracy"]), str(c["mistake"]),
                    str(c["blunder"]))
    parts.append(acc)
    parts.append(Text("Marks: inaccuracy ?! from 5 points of win share lost, mistake ? from "
                      "10, blunder ?? from 15, by the lower end of the loss's 90% interval "
                      "(the played and the better move searched again side by side, "
                      f"{review.replicates} times, then {review.deep_replicates} more times, "
                      f"each {review.deep_share:g}× as deep as the first search, where that "
                      "would mark): a mark is a loss that holds with 95% confidence; [a–b] is that interval; exact: the last decisions, every "
                      "line to the end searched.  Accuracy: Lichess's curve of the "
                      "points lost (100% for none, about 50% at 15), averaged over the "
                      "decisions; open: over those taken before the game was decided (the "
                      "best move at most 2% to win, or the played one at least 98%): there "
                      "nothing can be lost, so a lost game's accuracy reads high.",
                      style="dim"))
    return Group(*parts)


def review_report(review, width: int = 80) -> Group:
    """The whole review: the table, the chart, the summary."""
    head = Text(f"Review: {len(review.decisions)} decisions of "
                + ", ".join(review.names[q] for q in review.seats)
                + f"; level {review.level}'s search (the hint's), {review.iterations} "
                f"iterations a decision, seed {review.seed}; each searched from that player's "
                "view only", style="bold")
    return Group(head, decisions_table(review), Text(""),
                 Text("Expected win share at each decision", style="bold"),
                 win_chart(review, width=min(width, 100)), Text(""), summary(review))
