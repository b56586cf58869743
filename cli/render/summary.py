"""Positions and moves as short text and as JSON: the legal moves in one line, and the summary
`ekonos show --json` prints for programs.
"""
from __future__ import annotations

from collections.abc import Iterable

from ekonos.errors import InvalidMoveError
from ekonos.moves import Move, MoveKind
from ekonos.notation import parse_move
from ekonos.rules import COMPANIES, Company, Step


def _ranges(numbers: list[int]) -> str:
    numbers = sorted(numbers)
    out, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(str(numbers[i]) if i == j else
                   f"{numbers[i]},{numbers[j]}" if j == i + 1 else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(out)


def _as_move(move: Move | str) -> Move | None:
    """A Move, or the Move canonical text names (None when it names none without context:
    `successor 2` needs the players' names)."""
    if isinstance(move, Move):
        return move
    try:
        return parse_move(move)
    except InvalidMoveError:
        return None


def summarize_moves(moves: Iterable[Move | str], max_groups: int = 8) -> str:
    """Moves (Move values or canonical texts) in one short line.  The plays of one card are
    merged (`play 14 place 1-5,7-36 or protect 6 or grow Sunset/Hydra`), so are the places and
    protects of an expansion; groups are separated by `; `, and beyond `max_groups` they are
    counted."""
    groups: dict[str, dict[str, list[int | str]]] = {}
    for given in moves:
        m = _as_move(given)
        if m is not None and m.kind in (MoveKind.PLACE, MoveKind.PROTECT, MoveKind.GROW):
            key = f"play {m.card} " if m.step is Step.CARD else ""
            arg = COMPANIES[m.company] if m.kind is MoveKind.GROW else m.space
            groups.setdefault(key, {}).setdefault(str(m.kind), []).append(arg)
        else:
            groups.setdefault(str(given), {}).setdefault("", [])
    shown = []
    for key, kinds in groups.items():
        parts = []
        for kind, args in kinds.items():
            if not kind:
                parts.append("")
            elif kind in ("place", "protect"):
                parts.append(f"{kind} {_ranges(args)}")
            else:
                parts.append(f"{kind} {'/'.join(args)}")
        shown.append(key + " or ".join(parts))
    if len(shown) > max_groups:
        rest = len(shown) - max_groups
        shown = shown[:max_groups] + [f"... {rest} more"]
    return "; ".join(shown)


def summary_dict(state) -> dict:
    """What `ekonos show --json` prints: the position's key facts for a program.  `board` and
    `turn` are the position file's own objects (docs/position-format.md)."""
    d = state.to_dict()
    seat = state.to_move
    return {
        "step": str(state.step),
        "to_move": seat,
        "round": state.round,
        "rounds": state.rounds,
        "variant": state.variant,
        "players": [{"name": name, "coins": state.coins(q), "hand_size": state.hand_size(q),
                     "tokens": state.tokens(q)} for q, name in enumerate(state.names)],
        "values": {str(c): state.value(c) for c in Company},
        "growth": {str(c): state.growth(c) for c in Company},
        "shares": {str(c): [state.shares(q, c) for q in range(state.nplayers)] for c in Company},
        "president": {str(c): state.president(c) for c in Company},
        "board": d["board"],
        "turn": d["turn"],
        "hand": state.hand(seat) if seat is not None else None,
        "scores": state.scores(),
        "winners": state.winners(),
        "legal": state.legal_moves.texts(),
    }
