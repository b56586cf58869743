"""What the page is sent, as plain JSON: the board's fixed layout, the game now as the person
may see it (their own hand only, R21), with the legal decisions as Move fields, and a finished
game's review.

The page never derives a rule: it draws these values and offers exactly `legal` as clicks.
Reads the position through the typed read API only.
"""
from __future__ import annotations

from ekonos import State
from ekonos.moves import Move
from ekonos.rules import (ADJACENCY, COMPANIES, DECK, MAX_SHARES, MAX_TILES, TOKEN_LIMIT,
                          TOKEN_LIMIT_MIN_PLAYERS, Company, Step)
from ekonos.threats import expansion_threats
from search.bots import LEVELS

from search.review import GameReview

from cli.events import Decision, by_turn, since_last, spaces_changed
from cli.presentation import (COMPANY_COLOURS, MAP_LAYOUT, MARK_SIGN, PLAYER_COLOURS, short,
                              short_move)
from cli.web.terms import TERMS


def layout() -> dict:
    """The fixed things: the map grid (MAP_LAYOUT, the terminal's too), the adjacency lines, the
    companies and their colours, the deck, the levels, the seats' colours, the terms' help."""
    edges = sorted({(min(a, b), max(a, b)) for a, ns in ADJACENCY.items() for b in ns})
    return {
        "grid": [list(row) for row in MAP_LAYOUT],
        "edges": [list(e) for e in edges],
        "companies": [{"index": i, "name": n, "initial": n[0], "short": short(n),
                       "fill": COMPANY_COLOURS[n][0], "ink": COMPANY_COLOURS[n][1]}
                      for i, n in enumerate(COMPANIES)],
        "deck": {str(c.number): {"top": c.top, "bottom": list(c.bottom)} for c in DECK},
        "levels": {str(k): spec for k, spec in LEVELS.items()},
        "max_shares": MAX_SHARES,
        "max_tiles": MAX_TILES,
        "seats": list(PLAYER_COLOURS),
        "terms": {term: {"rules": rules, "text": text} for term, (rules, text) in TERMS.items()},
    }


def move_json(move: Move) -> dict:
    """A Move's fields (None where they do not apply) and its canonical notation."""
    return {"text": str(move), "step": str(move.step), "kind": str(move.kind),
            "card": move.card, "space": move.space,
            "company": None if move.company is None else int(move.company),
            "seat": move.seat}


def decision_json(d: Decision, names: list[str]) -> dict:
    return {"ply": d.ply, "seat": d.seat, "name": names[d.seat], "move": str(d.move),
            "space": d.move.space, "round": d.round, "reason": d.reason}


def since_json(decisions: tuple[Decision, ...], human: int, names: list[str]) -> dict:
    """What the other seats did since the person's last decision (cli.events), by turn, and the
    spaces of the map it changed: public moves only (R21), outlined until the person decides."""
    since = since_last(decisions, human)
    return {"turns": [{"seat": seat, "name": names[seat],
                       "decisions": [decision_json(d, names) for d in run]}
                      for seat, run in by_turn(since)],
            "spaces": sorted(spaces_changed(since))}


def threats_json(st: State) -> list[dict]:
    """The companies at growth 4-5 with what their forced expansion could take
    (ekonos.threats): public information (R21)."""
    return [{"company": int(t.company), "growth": t.growth, "growths": t.growths,
             "actions": t.actions, "decider": t.decider, "spaces": list(t.spaces),
             "takes": list(t.takes)} for t in expansion_threats(st)]


def _turn_json(st: State) -> dict | None:
    turn = st.turn
    if not turn:
        return None
    exp = turn.expansion
    return {
        "player": turn.player, "card": turn.card, "sold": bool(turn.sold),
        "expansion": None if not exp else {
            "company": int(exp.company), "actions_left": exp.actions_left,
            "start_spaces": list(exp.start_spaces or ())},
        "selling": None if turn.selling is None else int(turn.selling),
        "candidates": list(turn.candidates or ()),
    }


def _scorepad(st: State) -> dict:
    """R19: per company its value and each player's shares; coins; totals."""
    return {
        "companies": [{"company": int(c), "value": st.value(c),
                       "shares": [st.shares(q, c) for q in range(st.nplayers)]}
                      for c in Company],
        "coins": [st.coins(q) for q in range(st.nplayers)],
        "totals": list(st.scores()),
        "winners": list(st.winners()),
    }


def state_json(st: State, human: int, decisions: tuple[Decision, ...] = ()) -> dict:
    """The position for the person at seat `human`: everything public, their hand, the legal
    decisions when it is theirs to make, and the decisions so far with their reasons."""
    over = st.is_over()
    n = st.nplayers
    board = {}
    for c in Company:
        for sp in st.tiles(c):
            board[str(sp)] = {"company": int(c), "protected": bool(st.is_protected(sp))}
    market = []
    for c in Company:
        total = st.column(c)
        market.append({"company": int(c), "growth": st.growth(c), "value": st.value(c),
                       "protected": len(st.protected_tiles(c)),
                       "column": total, "sell_pays": total,
                       "next_price": total + 1 if total < MAX_SHARES else None,
                       "president": st.president(c),
                       "shares": [st.shares(q, c) for q in range(n)]})
    scores = st.scores()
    limited = n >= TOKEN_LIMIT_MIN_PLAYERS
    players = [{"seat": q, "name": st.names[q], "coins": st.coins(q), "cards": st.hand_size(q),
                "tokens": st.tokens(q), "token_limit": TOKEN_LIMIT if limited else None,
                "score": scores[q]} for q in range(n)]
    hand = st.hand(human) if st.hand_known(human) else None
    mine = not over and st.to_move == human
    expansion = st.expansion_spaces() if st.step is Step.EXPAND else []
    return {
        "names": list(st.names),
        "human": human,
        "nplayers": n,
        "step": str(st.step),
        "to_move": None if over else st.to_move,
        "round": st.round,
        "rounds": st.rounds,
        "start_player": st.start_player,
        "variant": st.variant,
        "seed": st.seed,
        "board": board,
        "market": market,
        "players": players,
        "hand": sorted(hand) if hand is not None else None,
        "discard": list(st.discard),
        "turn": _turn_json(st),
        "expansion_spaces": sorted(expansion),
        "legal": [move_json(m) for m in st.legal_moves] if mine else [],
        "over": over,
        "scorepad": _scorepad(st) if over else None,
        "log": [decision_json(d, list(st.names)) for d in decisions],
        "since": since_json(decisions, human, list(st.names)),
        "threats": [] if over else threats_json(st),
    }


def review_json(review: GameReview) -> dict:
    """A game review as `ekonos review --json` prints it (GameReview.to_dict), each decision
    with its moves in the short form of the terminal's table (`18 place 30`) besides."""
    data = review.to_dict()
    for d in data["decisions"]:
        d["played_short"] = short_move(d["played"])
        d["best_short"] = short_move(d["best"])
    data["signs"] = dict(MARK_SIGN)
    return data
