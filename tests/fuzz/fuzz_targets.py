"""Impossible positions built on purpose, and what a loaded position
must satisfy to be possible.

Random mutation finds a contract break quickly but an impossible *state* that passes every field
check only rarely; these strategies build one each time: a space number spelt another way
("01", "١", "²") next to the canonical key, `version: true`, a sale recorded before the
expansion that precedes it, an expansion from no tiles while the company has tiles, a sell step
whose player owns no share, more than 18 shares of one player with 4-6 players, and (for the
R17 property) a buy step whose buyer is one or two tokens short of the limit.
"""
from __future__ import annotations

from hypothesis import strategies as st

from ekonos import State
from ekonos.rules import ADJACENCY, COMPANIES, MAX_SHARES, MAX_TILES, TOKEN_LIMIT, Step
from fuzz_docs import Raw, positions, superscript, to_digits

TOKEN_PLAYERS = 4     # R17 applies from 4 players


def _recompute_presidents(doc: dict) -> None:
    """Presidents after a change of shares: kept when still holding the most, else the lowest
    seat with the most; none for an empty column (R18)."""
    for c in COMPANIES:
        col = doc["shares"][c]
        pres = doc["president"][c]
        if sum(col) == 0:
            doc["president"][c] = None
        elif pres is None or col[pres] < max(col):
            doc["president"][c] = col.index(max(col))


@st.composite
def aliased_boards(draw) -> dict:
    """A board with a space written twice, or written only, in a non-canonical spelling."""
    doc = draw(positions())
    board = doc["board"]
    sp = draw(st.integers(1, 36))
    key = str(sp)
    alias = draw(st.sampled_from([
        "0" + key, "00" + key, to_digits(key, 0x660), to_digits(key, 0xFF10),
        to_digits(key, 0x966), superscript(key), "+" + key, f" {key}", f"{key} ",
        "_".join(key) if len(key) > 1 else key + "_0"]))
    company = draw(st.sampled_from(COMPANIES)) + draw(st.sampled_from(["", "!"]))
    if draw(st.booleans()) or key not in board:
        board[alias] = company                 # next to the canonical key (or alone)
    else:
        board[alias] = board.pop(key)          # the same tile, spelt another way
    return doc


@st.composite
def odd_versions(draw) -> dict:
    doc = draw(positions())
    doc["version"] = draw(st.sampled_from([True, 1.0, "1", Raw("1.0"), Raw("1e0"), [1],
                                           Raw("1" + "0" * 5000)]))
    return doc


@st.composite
def sold_before_selling(draw) -> dict:
    """`turn.sold: true` at the expand-choice or expand step: the sale (R7) comes after them."""
    doc = draw(positions(draw(st.sampled_from(["expand-choice", "expand"]))))
    doc["turn"]["sold"] = True
    return doc


@st.composite
def expansions_from_nowhere(draw) -> dict:
    """An expand step whose `from` lost spaces (down to none) while the company keeps its tiles."""
    doc = draw(positions("expand"))
    frm = doc["turn"]["expansion"]["from"]
    keep = draw(st.integers(0, max(0, len(frm) - 1)))
    doc["turn"]["expansion"]["from"] = frm[:keep]
    return doc


@st.composite
def sell_without_shares(draw) -> dict:
    """A sell step whose player owns no share: only `pass` would be legal."""
    doc = draw(positions("sell"))
    q = doc["to_move"]
    for c in COMPANIES:
        doc["shares"][c][q] = 0
    _recompute_presidents(doc)
    return doc


@st.composite
def token_hoards(draw) -> dict:
    """4-6 players, one seat holding 19-24 shares (presiding those columns): more tokens than
    R17 allows, and not through markers received."""
    doc = draw(positions(draw(st.sampled_from(["card", "buy", "over"]))).filter(
        lambda d: len(d["players"]) >= TOKEN_PLAYERS))
    n = len(doc["players"])
    q = draw(st.integers(0, n - 1))
    want = draw(st.integers(TOKEN_LIMIT + 1, TOKEN_LIMIT + 6))
    for c in draw(st.permutations(COMPANIES)):
        give = min(MAX_SHARES, want)
        doc["shares"][c] = [give if p == q else 0 for p in range(n)] if give else \
            [x if p != q else 0 for p, x in enumerate(doc["shares"][c])]
        want -= give
    _recompute_presidents(doc)
    return doc


@st.composite
def near_token_limit(draw) -> dict:
    """A buy step with 4-6 players whose buyer has 16 or 17 tokens (shares and presidencies),
    plenty of coins, and at least one company without shares (a buy there takes 2 tokens).
    A buy into a column the buyer presides stays legal, so the step is a real decision."""
    doc = draw(positions("buy").filter(lambda d: len(d["players"]) >= TOKEN_PLAYERS))
    n = len(doc["players"])
    q = doc["to_move"]
    target = draw(st.integers(TOKEN_LIMIT - 2, TOKEN_LIMIT - 1))
    owned = draw(st.lists(st.sampled_from(COMPANIES), min_size=2, max_size=4, unique=True))
    empty = draw(st.sampled_from([c for c in COMPANIES if c not in owned]))
    shares = target - len(owned)            # one marker per owned company
    per = [shares // len(owned) + (1 if i < shares % len(owned) else 0)
           for i in range(len(owned))]
    for c in COMPANIES:
        col = doc["shares"][c]
        if c in owned:
            doc["shares"][c] = [per[owned.index(c)] if p == q else 0 for p in range(n)]
        elif c == empty:
            doc["shares"][c] = [0] * n
        else:
            col[q] = 0
    _recompute_presidents(doc)
    doc["players"][q]["coins"] = draw(st.integers(10, 200))
    return doc


IMPOSSIBLE = {
    "aliased-board": aliased_boards(),
    "odd-version": odd_versions(),
    "sold-before-selling": sold_before_selling(),
    "expansion-from-nowhere": expansions_from_nowhere(),
    "sell-without-shares": sell_without_shares(),
    "token-hoard": token_hoards(),
}


# ---------------------------------------------------------------------------------------------
# What a loaded position satisfies

def check_possible(st_: State) -> None:
    """A state that loaded is one the rules can reach (AssertionError naming the breach)."""
    n = st_.nplayers
    tiles = [set(st_.tiles(c)) for c in range(6)]
    seen: set[int] = set()
    for c in range(6):
        assert not tiles[c] & seen, f"space(s) {sorted(tiles[c] & seen)} hold two companies"
        seen |= tiles[c]
        assert len(tiles[c]) <= MAX_TILES, f"{COMPANIES[c]} has {len(tiles[c])} tiles"
        assert st_.value(c) == len(tiles[c]), f"value of {COMPANIES[c]} != its tiles"
        assert set(st_.protected_tiles(c)) <= tiles[c]
        col = [st_.shares(q, c) for q in range(n)]
        assert sum(col) <= MAX_SHARES and min(col) >= 0, f"{COMPANIES[c]} column {col}"
    assert sorted(seen) == sorted(set(range(1, 37)) - set(st_.empty_spaces()))
    if n >= TOKEN_PLAYERS:
        for q in range(n):
            held = sum(st_.shares(q, c) for c in range(6))
            assert held <= TOKEN_LIMIT, (f"seat {q} holds {held} shares with {n} players "
                                         f"(R17: at most {TOKEN_LIMIT} tokens are bought)")
    step = st_.step
    if step is Step.OVER:
        return
    assert st_.forced_action() is None, (
        f"the {step} step has a single legal decision ({st_.move_text(st_.forced_action())}), "
        "which is never asked for")
    if step is not Step.CARD or st_.hand_known(st_.to_move):
        assert st_.count_legal() >= 1, f"no legal decision at the {step} step"
    turn = st_.turn
    if step in (Step.EXPAND_CHOICE, Step.EXPAND, Step.SELL):
        assert not turn.sold, f"a share sold before the {step} step of the same turn (R7)"
    if step is Step.EXPAND:
        exp = turn.expansion
        start = set(exp.start_spaces)
        placed = tiles[exp.company] - start
        reach = {b for a in start for b in ADJACENCY[a]}
        total = 2 if st_.growth(exp.company) == 4 else 3
        assert start <= tiles[exp.company]
        assert placed <= reach, (f"{COMPANIES[exp.company]} tiles {sorted(placed)} are neither "
                                 f"where it started ({sorted(start)}) nor next to it (R13)")
        assert len(placed) <= total - exp.actions_left, (
            f"{len(placed)} tiles placed with {exp.actions_left} of {total} actions left")


def buy_keeps_token_limit(st_: State) -> list[str]:
    """R17: every legal buy leaves the buyer at most 18 tokens (4-6 players).  Returns the
    buys that break it."""
    bad = []
    seat = st_.to_move
    for move in st_.legal_moves:
        if move.kind.value != "buy":
            continue
        after = st_.copy()
        after.push(move)
        if after.tokens(seat) > TOKEN_LIMIT:
            bad.append(f"{move} (tokens {st_.tokens(seat)} -> {after.tokens(seat)})")
    return bad
