"""A compact plain-text dump of a position (no colours, no third-party imports).

`str(state)` uses it.  The full terminal rendering with colours and a drawn map is the CLI's
(`cli/render/`); this one is for logs, doctests and debugging.
"""
from __future__ import annotations

from ekonos.rules import COMPANIES


def render_text(state) -> str:
    """A few lines: header, map, growth, market, players, the hand of the seat to move."""
    d = state.to_dict()
    names = [p["name"] for p in d["players"]]
    n = len(names)
    if d["step"] == "over":
        winners = ", ".join(names[q] for q in state.winners())
        head = f"round {d['round']}/{state.rounds}, game over, won by {winners}"
    else:
        head = (f"round {d['round']}/{state.rounds}, step {d['step']}, "
                f"{names[d['to_move']]} (seat {d['to_move']}) to move")
    lines = [f"Ekonos, {n} players, {d['variant']}: {head}"]

    board = d["board"]
    lines.append("map: " + (" ".join(f"{sp}={board[sp][:3]}{'!' if board[sp].endswith('!') else ''}"
                                     for sp in board) or "empty"))
    lines.append("growth: " + " ".join(f"{c[:3]}={d['growth'][c]}" for c in COMPANIES))
    values = {c: sum(1 for v in board.values() if v.rstrip("!") == c) for c in COMPANIES}
    lines.append("values: " + " ".join(f"{c[:3]}={values[c]}" for c in COMPANIES))
    market = []
    for c in COMPANIES:
        pres = d["president"][c]
        col = "/".join(str(x) for x in d["shares"][c])
        market.append(f"{c[:3]}={col}" + (f"(P{pres})" if pres is not None else ""))
    lines.append("shares: " + " ".join(market))
    scores = state.scores()
    lines.append("players: " + ", ".join(
        f"{q} {p['name']} {p['coins']}c {p['hand_size']} cards score {scores[q]}"
        for q, p in enumerate(d["players"])))
    if d["discard"]:
        lines.append("played this round: " + " ".join(map(str, d["discard"])))
    if d["turn"]:
        lines.append("turn: " + ", ".join(f"{k}={v}" for k, v in d["turn"].items()))
    if d["to_move"] is not None:
        hand = d["players"][d["to_move"]]["hand"]
        lines.append(f"hand of {names[d['to_move']]}: "
                     + (" ".join(map(str, hand)) if hand is not None else "not known"))
    return "\n".join(lines)
