"""Positions as data (docs/position-format.md, format version 1): a state to the file's dict
and back.

`state_from_dict` checks the contract and that the state is possible; every refusal is a
PositionError naming the field and the reason.  Reading and writing files (size cap, JSON
decoding, atomic saves) is `ekonos/files.py`.  Added fields (allowed by the contract): `players[i].hand_size`
always, `rng` (the exact random state, so a saved game continues identically), `turn.company`
in the successor step, and `turn.expansion` with only `company` in the expand-choice step.
"""
from __future__ import annotations

import json

from ekonos import _core
from ekonos.errors import PositionError
from ekonos.moves import Move
from ekonos.names import check_names
from ekonos.rules import (ADJACENCY, COMPANIES, DECK, MAX_SHARES, MAX_TILES, NUM_CARDS,
                          NUM_SPACES, PLAYER_TABLE, TOKEN_LIMIT, TOKEN_LIMIT_MIN_PLAYERS,
                          VARIANTS, Step)

FORMAT = "ekonos-position"
VERSION = 1
STEPS = _core.STEP_NAMES
SOLD_UNDOABLE = _core.SOLD_UNDO
MASK64 = 2**64 - 1
#: The board's keys: the canonical decimal text of each space number, nothing else.
SPACE_KEYS = {str(sp): sp for sp in range(1, NUM_SPACES + 1)}


def _bits(mask: int) -> list[int]:
    return [i for i in range(64) if mask >> i & 1]


# ---------------------------------------------------------------------------------------------
# Save

def state_to_dict(st) -> dict:
    f = st._fields()
    n = f["nplayers"]
    step = Step(f["step"])
    players = []
    for q in range(n):
        known = st.hand_known(q)
        players.append({"name": st.names[q], "coins": f["coins"][q],
                        "hand": [c + 1 for c in _bits(f["hand"][q])] if known else None,
                        "hand_size": f["hand_size"][q]})
    board = {}
    for c, mask in enumerate(f["tiles"]):
        for sp in _bits(mask):
            board[str(sp + 1)] = COMPANIES[c] + ("!" if f["protected"] >> sp & 1 else "")
    board = dict(sorted(board.items(), key=lambda kv: int(kv[0])))
    turn = None
    if step not in (Step.CARD, Step.OVER):
        turn = {"player": f["turn_player"], "card": f["turn_card"] + 1, "sold": bool(f["sold"])}
        if f["sold"] >= SOLD_UNDOABLE:
            turn["undo"] = COMPANIES[f["sold"] - SOLD_UNDOABLE]
        if step is Step.EXPAND_CHOICE:
            turn["expansion"] = {"company": COMPANIES[f["xcompany"]]}
        elif step is Step.EXPAND:
            turn["expansion"] = {"company": COMPANIES[f["xcompany"]],
                                 "actions_left": f["xactions_left"],
                                 "from": [sp + 1 for sp in _bits(f["xfrom"])]}
        elif step is Step.SUCCESSOR:
            turn["company"] = COMPANIES[f["xcompany"]]
            turn["candidates"] = _bits(f["candidates"])
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": VARIANTS[f["variant"]],
        "players": players,
        "round": f["round"],
        "start_player": f["start_player"],
        "to_move": None if step is Step.OVER else f["to_move"],
        "step": str(step),
        "board": board,
        "growth": {COMPANIES[c]: f["growth"][c] for c in range(6)},
        "shares": {COMPANIES[c]: [f["shares"][q][c] for q in range(n)] for c in range(6)},
        "president": {COMPANIES[c]: (None if f["president"][c] < 0 else f["president"][c])
                      for c in range(6)},
        "discard": [c + 1 for c in f["discard"]],
        "turn": turn,
        "seed": st.seed,
        "rng": [f"{w:016x}" for w in f["rng"]],
    }


# ---------------------------------------------------------------------------------------------
# Load

def quote_value(value, width: int = 40) -> str:
    """A value of the file as JSON (ASCII, one line), cut to `width` characters, for messages."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= width else text[:width - 3] + "..."


def _int(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"must be an integer, got {quote_value(value)}")
    if not low <= value <= high:
        raise PositionError(field, f"must be {low}-{high}, got {value}")
    return value


def _seat_or_null(value, field: str, n: int) -> int:
    return -1 if value is None else _int(value, field, 0, n - 1)


def _company(value, field: str) -> int:
    if not isinstance(value, str) or value not in COMPANIES:
        raise PositionError(field, f"must be a company name ({', '.join(COMPANIES)}), "
                            f"got {quote_value(value)}")
    return COMPANIES.index(value)


def _per_company(data: dict, key: str) -> dict:
    obj = data.get(key)
    if not isinstance(obj, dict):
        raise PositionError(key, "must be an object with one entry per company")
    unknown = set(obj) - set(COMPANIES)
    if unknown:
        raise PositionError(key, f"unknown company {quote_value(sorted(unknown)[0])}")
    missing = [c for c in COMPANIES if c not in obj]
    if missing:
        raise PositionError(key, f"missing company {missing[0]}")
    return obj


def state_from_dict(cls, data):
    """Validate a decoded position file and build the state (PositionError on any problem)."""
    if not isinstance(data, dict):
        raise PositionError("", "a position file is a JSON object")
    if data.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}, got {quote_value(data.get('format'))}")
    if type(data.get("version")) is not int or data["version"] != VERSION:  # not true, 1.0
        raise PositionError("version", f"must be {VERSION}, got {quote_value(data.get('version'))}")
    variant = data.get("variant", "rulebook")
    if variant not in VARIANTS:
        raise PositionError("variant", f"must be one of {', '.join(VARIANTS)}, got {quote_value(variant)}")

    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 6:
        raise PositionError("players", "must be a list of 2-6 players")
    n = len(players)
    table = PLAYER_TABLE[n]
    names, coins, hands, sizes = [], [], [], []
    for q, p in enumerate(players):
        fq = f"players[{q}]"
        if not isinstance(p, dict):
            raise PositionError(fq, "must be an object")
        names.append(p.get("name", f"Player {q}"))
        coins.append(_int(p.get("coins"), f"{fq}.coins", 0, 10**6))
        hand = p.get("hand")
        if hand is None:
            hands.append(None)
            sizes.append(_int(p.get("hand_size"), f"{fq}.hand_size", 0, table.cards))
        else:
            if not isinstance(hand, list):
                raise PositionError(f"{fq}.hand", "must be a list of card numbers or null")
            cards = [_int(c, f"{fq}.hand", 1, NUM_CARDS) for c in hand]
            if len(set(cards)) != len(cards):
                raise PositionError(f"{fq}.hand", "holds a card twice")
            if len(cards) > table.cards:
                raise PositionError(f"{fq}.hand", f"{len(cards)} cards; with {n} players a hand "
                                    f"holds at most {table.cards}")
            if "hand_size" in p and _int(p["hand_size"], f"{fq}.hand_size", 0,
                                         NUM_CARDS) != len(cards):
                raise PositionError(f"{fq}.hand_size", f"is {p['hand_size']} but the hand "
                                    f"lists {len(cards)} cards")
            hands.append(cards)
            sizes.append(len(cards))
    names = check_names(names, field="players[{}].name".format, error=PositionError)

    rnd = _int(data.get("round"), "round", 1, table.rounds)
    start = _int(data.get("start_player"), "start_player", 0, n - 1)
    step_name = data.get("step")
    if step_name not in STEPS:
        raise PositionError("step", f"must be one of {', '.join(STEPS)}, got {quote_value(step_name)}")
    kind = Step.from_text(step_name)
    step = int(kind)

    # map
    board = data.get("board")
    if not isinstance(board, dict):
        raise PositionError("board", "must be an object: space number -> company")
    tiles = [0] * 6
    protected = 0
    for key, value in board.items():
        if key not in SPACE_KEYS:     # only "1".."36": "01", "+1", " 1", "\u00b2" would alias
            raise PositionError("board", f"{quote_value(key)} is not a space number 1-{NUM_SPACES} "
                                "(written without sign, spaces or leading zeros)")
        sp = SPACE_KEYS[key] - 1
        if not isinstance(value, str):
            raise PositionError(f"board.{key}", f"must be a company name, got {quote_value(value)}")
        prot = value.endswith("!")
        c = _company(value[:-1] if prot else value, f"board.{key}")
        tiles[c] |= 1 << sp
        if prot:
            protected |= 1 << sp
    for c in range(6):
        if bin(tiles[c]).count("1") > MAX_TILES:
            raise PositionError("board", f"{COMPANIES[c]} has {bin(tiles[c]).count('1')} tiles "
                                f"(at most {MAX_TILES})")

    growth_obj = _per_company(data, "growth")
    growth = [_int(growth_obj[c], f"growth.{c}", 0, 6) for c in COMPANIES]
    shares_obj = _per_company(data, "shares")
    shares = [[0] * 6 for _ in range(6)]
    for c, name in enumerate(COMPANIES):
        col = shares_obj[name]
        if not isinstance(col, list) or len(col) != n:
            raise PositionError(f"shares.{name}", f"must list {n} share counts, one per player")
        for q in range(n):
            shares[q][c] = _int(col[q], f"shares.{name}[{q}]", 0, MAX_SHARES)
        if sum(col) > MAX_SHARES:
            raise PositionError(f"shares.{name}", f"{sum(col)} shares in one column "
                                f"(at most {MAX_SHARES})")
    pres_obj = _per_company(data, "president")
    president = [_seat_or_null(pres_obj[c], f"president.{c}", n) for c in COMPANIES]

    discard_list = data.get("discard", [])
    if not isinstance(discard_list, list):
        raise PositionError("discard", "must be a list of card numbers")
    discard = [_int(c, "discard", 1, NUM_CARDS) - 1 for c in discard_list]
    if len(set(discard)) != len(discard):
        raise PositionError("discard", "holds a card twice")
    seen: dict[int, str] = {c: "discard" for c in discard}
    for q, hand in enumerate(hands):
        for c in hand or []:
            if c - 1 in seen:
                raise PositionError(f"players[{q}].hand", f"card {c} is also in {seen[c - 1]}")
            seen[c - 1] = f"players[{q}].hand"

    # turn
    turn = data.get("turn")
    turn_player, turn_card, sold = -1, -1, 0
    xcompany, xleft, xfrom, candidates = -1, 0, 0, 0
    if kind in (Step.CARD, Step.OVER):
        if turn is not None:
            raise PositionError("turn", f"must be null at the {step_name} step")
    else:
        if not isinstance(turn, dict):
            raise PositionError("turn", f"the {step_name} step needs the turn in progress")
        turn_player = _int(turn.get("player"), "turn.player", 0, n - 1)
        turn_card = _int(turn.get("card"), "turn.card", 1, NUM_CARDS) - 1
        if not discard or discard[-1] != turn_card:
            raise PositionError("turn.card", f"card {turn_card + 1} must be the last card of "
                                "discard (it was played this turn)")
        sold_v = turn.get("sold", False)
        if not isinstance(sold_v, bool):
            raise PositionError("turn.sold", "must be true or false")
        sold = int(sold_v)
        if turn.get("undo") is not None:
            undo = _company(turn["undo"], "turn.undo")
            if not sold or kind is not Step.BUY:
                raise PositionError("turn.undo", "names the company sold this turn whose buy "
                                    "undoes the sale: only at the buy step, after a sale")
            sold = SOLD_UNDOABLE + undo
        if sold and kind in (Step.EXPAND_CHOICE, Step.EXPAND):
            raise PositionError("turn.sold", "must be false while the card's growth is "
                                "resolved: a turn sells only after its card (R7)")
        if kind in (Step.EXPAND_CHOICE, Step.EXPAND):
            exp = turn.get("expansion")
            if not isinstance(exp, dict):
                raise PositionError("turn.expansion", f"the {step_name} step needs the expansion")
            xcompany = _company(exp.get("company"), "turn.expansion.company")
            if xcompany not in DECK[turn_card].bottom:
                grows = " or ".join(COMPANIES[b] for b in DECK[turn_card].bottom)
                raise PositionError("turn.expansion.company", f"card {turn_card + 1} grows only "
                                    f"{grows}, so {COMPANIES[xcompany]} cannot be expanding")
            if kind is Step.EXPAND_CHOICE and growth[xcompany] != 4:
                raise PositionError(f"growth.{COMPANIES[xcompany]}",
                                    "must be 4 while its president chooses to expand or wait")
            if kind is Step.EXPAND:
                if growth[xcompany] not in (4, 6):
                    raise PositionError(f"growth.{COMPANIES[xcompany]}",
                                        "must be 4 or 6 during its expansion")
                most = 2 if growth[xcompany] == 4 else 3
                xleft = _int(exp.get("actions_left"), "turn.expansion.actions_left", 1, most)
                frm = exp.get("from")
                if not isinstance(frm, list):
                    raise PositionError("turn.expansion.from", "must be a list of spaces")
                for sp in frm:
                    sp = _int(sp, "turn.expansion.from", 1, NUM_SPACES) - 1
                    if not tiles[xcompany] >> sp & 1:
                        raise PositionError("turn.expansion.from", f"space {sp + 1} held "
                                            f"{COMPANIES[xcompany]} at the start, so it still does")
                    xfrom |= 1 << sp
                _check_expansion(xcompany, tiles[xcompany], protected, xfrom, most - xleft)
        if kind is Step.SUCCESSOR:
            xcompany = _company(turn.get("company"), "turn.company")
            if president[xcompany] != turn_player:
                raise PositionError(f"president.{COMPANIES[xcompany]}", "in the successor step "
                                    f"the seller (seat {turn_player}) is still the president")
            cands = turn.get("candidates")
            if not isinstance(cands, list) or len(cands) < 2:
                raise PositionError("turn.candidates", "must list at least two tied players")
            for q in cands:
                candidates |= 1 << _int(q, "turn.candidates", 0, n - 1)
            top = max(shares[q][xcompany] for q in range(n) if q != turn_player)
            tied = {q for q in range(n) if q != turn_player and shares[q][xcompany] == top}
            if {q for q in range(n) if candidates >> q & 1} != tied or top <= shares[turn_player][xcompany]:
                raise PositionError("turn.candidates", "must be exactly the players tied for the "
                                    "most shares, holding more than the seller")
            if not sold:
                raise PositionError("turn.sold", "must be true in the successor step")
        if kind is Step.SELL and sold:
            raise PositionError("turn.sold", "must be false in the sell step")

    # growth 6 exists only while the company expands
    for c in range(6):
        if growth[c] == 6 and not (kind is Step.EXPAND and xcompany == c):
            raise PositionError(f"growth.{COMPANIES[c]}", "is 6 only during its expansion")

    # presidents (R18)
    for c, name in enumerate(COMPANIES):
        col = [shares[q][c] for q in range(n)]
        p = president[c]
        if sum(col) == 0:
            if p >= 0:
                raise PositionError(f"president.{name}", "an empty column has no president")
            continue
        if p < 0:
            raise PositionError(f"president.{name}", "a column with shares has a president")
        if kind is Step.SUCCESSOR and c == xcompany:
            continue  # the seller keeps it until they choose
        if col[p] < 1 or col[p] < max(col):
            raise PositionError(f"president.{name}", f"player {p} holds {col[p]} shares but "
                                f"player {col.index(max(col))} holds {max(col)}")

    # R17: with 4-6 players only presidency markers received through a sale take a player past
    # 18 tokens, never shares (a buy is refused beyond 18)
    if n >= TOKEN_LIMIT_MIN_PLAYERS:
        for q in range(n):
            held = sum(shares[q])
            if held > TOKEN_LIMIT:
                raise PositionError("shares", f"seat {q} holds {held} shares; with {n} players "
                                    f"no buy takes a player past {TOKEN_LIMIT} tokens (R17)")

    # hand sizes against the turn order (R5)
    played = len(discard)
    if played > n * table.cards:
        raise PositionError("discard", f"{played} cards played in a round of {n * table.cards}")
    for q in range(n):
        offset = (q - start) % n
        expect = table.cards - (played // n + (1 if offset < played % n else 0))
        if sizes[q] != expect:
            raise PositionError(f"players[{q}].hand", f"{sizes[q]} cards, but {played} cards "
                                f"played this round from start player {start} leave {expect}")
    if kind is Step.OVER:
        if rnd != table.rounds or played != n * table.cards:
            raise PositionError("step", "the game is over only after every card of the last round")
        if data.get("to_move") is not None:
            raise PositionError("to_move", "must be null when the game is over")
        to_move = -1
    else:
        if played == n * table.cards and kind is Step.CARD:
            raise PositionError("step", "every card of the round is played; no card step")
        to_move = _int(data.get("to_move"), "to_move", 0, n - 1)
        if kind is Step.CARD:
            expect_p = (start + played) % n
            if to_move != expect_p:
                raise PositionError("to_move", f"seat {expect_p} plays next in this round, "
                                    f"not {to_move}")
            turn_player = to_move
        else:
            expect_p = (start + played - 1) % n
            if turn_player != expect_p:
                raise PositionError("turn.player", f"seat {expect_p} played the last card, "
                                    f"not {turn_player}")
            if kind in (Step.EXPAND_CHOICE, Step.EXPAND):
                decides = president[xcompany] if president[xcompany] >= 0 else turn_player
                if to_move != decides:
                    raise PositionError("to_move", f"the {COMPANIES[xcompany]} expansion is "
                                        f"decided by seat {decides}")
            elif to_move != turn_player:
                raise PositionError("to_move", f"seat {turn_player} decides the {step_name} step")

    # random state
    seed = data.get("seed")
    if seed is not None:
        seed = _int(seed, "seed", 0, MASK64)
    rng = data.get("rng")
    if rng is not None:
        if not (isinstance(rng, list) and len(rng) == 4):
            raise PositionError("rng", "must be four 64-bit words in hexadecimal")
        try:
            rng_words = [int(w, 16) for w in rng]
        except (TypeError, ValueError):
            raise PositionError("rng", "must be four 64-bit words in hexadecimal") from None
        if any(not 0 <= w <= MASK64 for w in rng_words) or not any(rng_words):
            raise PositionError("rng", "must be four 64-bit words, not all zero")
    else:  # no recorded stream: later deals follow the seed (0 when there is none)
        rng_words = _core.rng_words(seed or 0)

    known = 0
    hand_masks = [0] * 6
    for q, hand in enumerate(hands):
        if hand is not None:
            known |= 1 << q
            for c in hand:
                hand_masks[q] |= 1 << (c - 1)
    padded = lambda xs, fill: list(xs) + [fill] * (6 - len(xs))  # noqa: E731
    fields = {
        "tiles": tiles, "protected": protected, "hand": hand_masks, "rng": rng_words,
        "xfrom": xfrom, "coins": padded(coins, 0), "shares": shares, "president": president,
        "growth": growth, "hand_size": padded(sizes, 0), "discard": discard,
        "nplayers": n, "variant": VARIANTS.index(variant), "round": rnd, "start_player": start,
        "step": step, "to_move": to_move, "turn_player": turn_player, "turn_card": turn_card,
        "sold": sold, "xcompany": xcompany, "xactions_left": xleft, "candidates": candidates,
        "known": known,
    }
    st = cls.__new__(cls)
    st._set_fields(fields)
    st._init_python(names, seed)
    forced = st.forced_action()
    # the engine plays a step with one decision at once (docs/position-format.md)
    if forced is not None:
        raise PositionError("step", f"the only legal decision here is "
                            f"'{Move.from_action(forced)}', which the engine plays by itself: "
                            f"no game waits at this {step_name} step")
    return st


def _check_expansion(company: int, tiles: int, protected: int, xfrom: int, used: int) -> None:
    """R13: during an expansion the company keeps every tile it began with (`from`) and has
    gained only tiles placed next to them, each placement and each protection of a new tile
    costing one of the growth actions used so far (`used` = the track's 2 or 3 - actions_left).
    So with no action used its tiles are exactly `from`, and `from` is empty only when the
    company had no tile (then R14: nothing to do, and the engine stops at once)."""
    placed = tiles & ~xfrom
    near = 0
    for sp in _bits(xfrom):
        near |= _NEIGHBOURS[sp]
    name = COMPANIES[company]
    if placed & ~near:
        sp = _bits(placed & ~near)[0] + 1
        if not xfrom:
            raise PositionError("turn.expansion.from", f"is empty, but {name} has a tile on "
                                f"space {sp}: it lists {name}'s tiles when the expansion began")
        raise PositionError("turn.expansion.from", f"{name}'s tile on space {sp} is neither in "
                            "it nor next to it: an expansion places only next to the tiles it "
                            "began with (R13)")
    cost = bin(placed).count("1") + bin(placed & protected).count("1")
    if cost > used:
        raise PositionError("turn.expansion.from", f"{name}'s tiles outside it (placed during "
                            f"the expansion, protected ones twice) need {cost} growth actions, "
                            f"but {used} were used")


#: Space index (0-35) -> mask of its neighbours (board.json).
_NEIGHBOURS = {sp - 1: sum(1 << (o - 1) for o in nbrs) for sp, nbrs in ADJACENCY.items()}
