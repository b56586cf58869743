"""Checks on a position that loaded: it round-trips, it says what the file said, it continues
into positions that load, and `show --json` agrees with the engine.
"""
from __future__ import annotations

import json
from typing import Any

from ekonos import State
from ekonos.rules import COMPANIES

SCALAR_FIELDS = ("format", "version", "variant", "round", "start_player", "to_move", "step",
                 "seed")


def _j(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _as_set(value: Any) -> Any:
    """A list the contract treats as a set (hand, `from`, candidates), for comparison."""
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value):
        return sorted(set(value))
    return value


def differences(doc: dict, st: State) -> list[str]:
    """Where the re-saved position says something else than the file it was loaded from, field
    by field (only the fields the file gave; JSON types count: `true` is not `1`)."""
    saved = st.to_dict()
    out = []
    for key in SCALAR_FIELDS:
        if key in doc and _j(doc[key]) != _j(saved[key]):
            out.append(f"{key}: file {_j(doc[key])[:80]}, loaded {_j(saved[key])}")
    for q, (p, s) in enumerate(zip(doc["players"], saved["players"])):
        if isinstance(p.get("name"), str) and p["name"].strip() == s["name"]:
            p = dict(p, name=s["name"])          # a name may be trimmed (as --names is)
        for key in ("name", "coins", "hand_size"):
            if key in p and _j(p[key]) != _j(s[key]):
                out.append(f"players[{q}].{key}: file {_j(p[key])[:80]}, loaded {_j(s[key])[:80]}")
        if "hand" in p and _j(_as_set(p["hand"])) != _j(s["hand"]):
            out.append(f"players[{q}].hand: file {_j(p['hand'])}, loaded {_j(s['hand'])}")
    for key in ("board", "growth", "shares", "president", "discard"):
        if key in doc and _j(doc[key]) != _j(saved[key]):
            out.append(f"{key}: file {_j(doc[key])[:200]}, loaded {_j(saved[key])[:200]}")
    turn, sturn = doc.get("turn"), saved["turn"]
    if turn is None or sturn is None:
        if turn != sturn:
            out.append(f"turn: file {_j(turn)[:200]}, loaded {_j(sturn)[:200]}")
        return out
    for key in ("player", "card", "sold", "company"):
        if key in turn and _j(turn[key]) != _j(sturn.get(key)):
            out.append(f"turn.{key}: file {_j(turn[key])}, loaded {_j(sturn.get(key))}")
    if "candidates" in turn and _j(_as_set(turn["candidates"])) != _j(sturn.get("candidates")):
        out.append(f"turn.candidates: file {_j(turn['candidates'])}, loaded "
                   f"{_j(sturn.get('candidates'))}")
    exp, sexp = turn.get("expansion"), sturn.get("expansion")
    if isinstance(exp, dict) and sexp is not None:
        for key in ("company", "actions_left"):
            if key in exp and key in sexp and _j(exp[key]) != _j(sexp[key]):
                out.append(f"turn.expansion.{key}: file {_j(exp[key])}, loaded {_j(sexp[key])}")
        if "from" in exp and "from" in sexp and _j(_as_set(exp["from"])) != _j(sexp["from"]):
            out.append(f"turn.expansion.from: file {_j(exp['from'])}, loaded {_j(sexp['from'])}")
    return out


def round_trip(st: State) -> None:
    """to_dict -> from_dict gives the same state and the same dict; so does to_json/from_json."""
    d = st.to_dict()
    again = State.from_dict(json.loads(json.dumps(d)))
    assert again == st, "from_dict(to_dict()) is another state"
    assert again.to_dict() == d, "to_dict() changes after a round trip"
    assert State.from_json(st.to_json()) == st, "from_json(to_json()) is another state"


def continue_with(st: State, index: int) -> State:
    """Push the legal decision number `index` (mod the count); the position after it must save
    and load again (what `ekonos apply ... -o FILE` then `ekonos show FILE` do)."""
    actions = st.legal_actions()
    after = st.copy()
    after.push(actions[index % len(actions)])
    try:
        again = State.from_dict(json.loads(after.to_json()))
    except ValueError as e:
        raise AssertionError(f"after {st.move_text(actions[index % len(actions)])!r} the "
                             f"saved position is refused: {e}") from None
    assert again == after, "the position after a move does not round-trip"
    return after


def summary_agrees(summary: dict, st: State) -> list[str]:
    """`show --json` against the engine and against itself: values are the tiles on the
    printed board, scores are coins plus shares times values, both equal the engine's."""
    out = []
    board = summary["board"]
    counted = {c: sum(1 for v in board.values() if v.rstrip("!") == c) for c in COMPANIES}
    for i, c in enumerate(COMPANIES):
        if summary["values"][c] != st.value(i):
            out.append(f"values.{c}: printed {summary['values'][c]}, engine {st.value(i)}")
        if counted[c] != st.value(i):
            out.append(f"board shows {counted[c]} {c} tiles, engine holds {st.value(i)}")
    engine = st.scores()
    if summary["scores"] != engine:
        out.append(f"scores: printed {summary['scores']}, engine {engine}")
    for q, p in enumerate(summary["players"]):
        own = p["coins"] + sum(summary["shares"][c][q] * counted[c] for c in COMPANIES)
        if own != engine[q]:
            out.append(f"seat {q}: coins + shares x printed values = {own}, engine score "
                       f"{engine[q]}")
        if p["tokens"] != st.tokens(q):
            out.append(f"seat {q}: printed tokens {p['tokens']}, engine {st.tokens(q)}")
    if summary["legal"] != st.legal_moves.texts():
        out.append("legal moves differ from the engine's")
    return out


def name_problem(names: list[str]) -> str | None:
    """Names are text a terminal can show and tell apart: no surrogate, no
    control character, none equal to another after trimming and case-folding."""
    import unicodedata
    for name in names:
        bad = [c for c in name if unicodedata.category(c) in ("Cc", "Cs")]
        if bad:
            return f"a name with a control character or surrogate: {name[:40]!r}"
    folded = [n.strip().casefold() for n in names]
    if len(set(folded)) != len(folded):
        return f"names equal after trimming and case-folding: {[n[:40] for n in names]}"
    return None
