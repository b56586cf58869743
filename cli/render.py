"""Terminal rendering of a position with rich, and the machine-readable summary of `show --json`.

Everything here reads the state through its public API (`to_dict()`, `scores()`, `legal_moves`,
`tokens()`, ...); nothing here changes it.  `render_state` returns one rich renderable so other
commands (`play`, `hint`) can print the same picture.
"""
from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ekonos.notation import action_text
from ekonos.rules import (ADJACENCY, COMPANIES, DECK, MAX_SHARES, MAX_TILES, NUM_SPACES,
                          TOKEN_LIMIT, TOKEN_LIMIT_MIN_PLAYERS)

# ---------------------------------------------------------------------------------------------
# The map as a grid.  A hand-made table (found by search, then fixed): every pair of adjacent
# spaces of board.json sits in touching cells (a king's move apart), and the drawing adds a
# connector for each edge of the graph, so neighbours are exactly the spaces joined by a line.
# tests/test_cli.py checks the table against ekonos.rules.ADJACENCY.

MAP_LAYOUT: tuple[tuple[int | None, ...], ...] = (
    (None, 1, 8, 12, 18, 26, 25, 32),
    (None, 2, 9, 13, 19, 27, 34, 33),
    (3, 10, None, 14, 20, 28, None, None),
    (None, 4, 15, 21, 22, 29, 35, None),
    (None, 5, 11, 16, 23, 30, 36, None),
    (None, None, 6, 7, 17, 24, 31, None),
)

#: Space number -> (row, column) in MAP_LAYOUT.
MAP_POSITION: dict[int, tuple[int, int]] = {
    sp: (r, c) for r, row in enumerate(MAP_LAYOUT) for c, sp in enumerate(row) if sp is not None
}

CELL = 7        # characters per space: "12 Sun!"
GAP = 2         # characters between two spaces on a row

#: Colour of each company (the printed colours are not known publicly; these are distinct).
COMPANY_STYLE: dict[str, str] = {
    "Sunset": "black on dark_orange",
    "Phoenix": "white on red3",
    "Panda": "black on grey84",
    "Crown": "black on gold1",
    "Hydra": "white on green4",
    "Gemini": "white on dodger_blue3",
}


def short(company: str) -> str:
    """Three-letter name (also a valid prefix in the move notation)."""
    return company[:3]


def company_text(company: str, label: str | None = None) -> Text:
    return Text(label if label is not None else company, style=COMPANY_STYLE[company])


def _adjacent(a: int | None, b: int | None) -> bool:
    return a is not None and b is not None and b in ADJACENCY[a]


def map_text(board: dict[str, str]) -> Text:
    """The 36 spaces on the grid; each shows its number, company (colour and 3 letters) and a `!`
    when protected, as in position files.  Lines join neighbouring spaces: ── │ ╲ ╱."""
    out = Text()
    rows, cols = len(MAP_LAYOUT), len(MAP_LAYOUT[0])
    for r in range(rows):
        row = MAP_LAYOUT[r]
        for c in range(cols):
            sp = row[c]
            if sp is None:
                out.append(" " * CELL)
            else:
                value = board.get(str(sp))
                if value is None:
                    out.append(f"{sp:>2}  ·  ", style="dim")
                else:
                    company = value.rstrip("!")
                    prot = value.endswith("!")
                    style = COMPANY_STYLE[company] + (" bold" if prot else "")
                    out.append(f"{sp:>2} {short(company)}{'!' if prot else ' '}", style=style)
            if c < cols - 1:
                out.append("─" * GAP if _adjacent(sp, row[c + 1]) else " " * GAP, style="dim")
        out.append("\n")
        if r == rows - 1:
            break
        below = MAP_LAYOUT[r + 1]
        for c in range(cols):
            mid = CELL // 2
            out.append(" " * mid + ("│" if _adjacent(row[c], below[c]) else " ")
                       + " " * (CELL - mid - 1), style="dim")
            if c < cols - 1:
                down = _adjacent(row[c], below[c + 1])      # ╲
                up = _adjacent(row[c + 1], below[c])        # ╱
                gap = ("╳╳" if down and up else "╲ " if down else " ╱" if up else "  ")
                out.append(gap.ljust(GAP), style="dim")
        out.append("\n")
    out.rstrip()
    return out


# ---------------------------------------------------------------------------------------------
# Panels


def _values(board: dict[str, str]) -> dict[str, int]:
    """R19: a company's value is the number of its tiles on the map."""
    values = {c: 0 for c in COMPANIES}
    for v in board.values():
        values[v.rstrip("!")] += 1
    return values


def _decider(d: dict, company: str, player: int) -> str:
    """Who takes a growth decision of `company` (R11-R12)."""
    pres = d["president"][company]
    names = [p["name"] for p in d["players"]]
    return names[pres] if pres is not None else f"{names[player]} (no pres.)"


def growth_table(d: dict) -> Table:
    board = d["board"]
    values = _values(board)
    exp = (d["turn"] or {}).get("expansion")
    expanding = exp["company"] if exp else None
    t = Table(title="Companies", title_justify="left", box=None, padding=(0, 1))
    t.add_column("company")
    t.add_column("growth 0-6")
    t.add_column("tiles", justify="right")
    t.add_column("protected", justify="right")
    t.add_column("supply", justify="right")
    for c in COMPANIES:
        g = d["growth"][c]
        track = Text("■" * g, style="bold") + Text("□" * (6 - g), style="dim") + Text(f" {g}")
        if c == expanding:
            track.append("  expanding" if d["step"] == "expand" else "  expand or wait?",
                         style="italic")
        prot = sum(1 for v in board.values() if v == c + "!")
        t.add_row(company_text(c), track, str(values[c]), str(prot), str(MAX_TILES - values[c]))
    return t


def market_table(d: dict) -> Table:
    names = [p["name"] for p in d["players"]]
    t = Table(title="Market (shares per player)", title_justify="left", box=None,
              padding=(0, 1))
    t.add_column("company")
    for name in names:
        t.add_column(Text(name), justify="right")        # Text: a name is never markup
    t.add_column("column", justify="right")
    t.add_column("sell pays", justify="right")
    t.add_column("next price", justify="right")
    t.add_column("president")
    for c in COMPANIES:
        col = d["shares"][c]
        total = sum(col)
        pres = d["president"][c]
        t.add_row(company_text(c), *[str(x) if x else "·" for x in col],
                  f"{total}/{MAX_SHARES}",
                  str(total) if total else "-",
                  str(total + 1) if total < MAX_SHARES else "full",
                  Text(names[pres]) if pres is not None else "-")
    return t


def players_table(state, d: dict) -> Table:
    scores = state.scores()
    winners = set(state.winners())
    limited = len(d["players"]) >= TOKEN_LIMIT_MIN_PLAYERS
    t = Table(title="Players", title_justify="left", box=None, padding=(0, 1))
    for name, just in (("seat", "right"), ("name", "left"), ("coins", "right"),
                       ("cards", "right"), ("tokens", "right"), ("score now", "right"),
                       ("", "left")):
        t.add_column(name, justify=just)
    for q, p in enumerate(d["players"]):
        marks = []
        if q == d["to_move"]:
            marks.append("◀ to move")
        if q == d["start_player"] and d["step"] != "over":
            marks.append("started the round")
        if q in winners:
            marks.append("★ winner")
        tokens = f"{state.tokens(q)}/{TOKEN_LIMIT}" if limited else str(state.tokens(q))
        t.add_row(str(q), Text(p["name"]), str(p["coins"]), str(p["hand_size"]), tokens,
                  str(scores[q]), ", ".join(marks),
                  style="bold" if q == d["to_move"] else None)
    return t


def card_options(d: dict, card: int, player: int) -> Text:
    """One line: card `card` and what it can do in this position (R9, R10, R11)."""
    info = DECK[card - 1]
    top = COMPANIES[info.top]
    board = d["board"]
    values = _values(board)
    empty = NUM_SPACES - len(board)
    b0, b1 = (COMPANIES[b] for b in info.bottom)
    text = Text(f"{card:>2} ")
    text.append_text(company_text(top, short(top)))
    text.append("|")
    text.append_text(company_text(b0, short(b0)))
    text.append("+")
    text.append_text(company_text(b1, short(b1)))
    text.append("  ")
    options = []
    if values[top] < MAX_TILES and empty:
        options.append(f"place ({empty} empty)")
    unprotected = sorted(int(sp) for sp, v in board.items() if v == top)
    if unprotected:
        options.append("protect " + ",".join(map(str, unprotected)))
    if not options:
        options.append(f"no {top} action")
    for b in info.bottom:
        name = COMPANIES[b]
        g = d["growth"][name]
        if g >= 6:
            options.append(f"grow {short(name)}")
            continue
        note = ""
        if g + 1 == 4:
            note = f" {_decider(d, name, player)} may expand"
        elif g + 1 == 6:
            note = f" {_decider(d, name, player)} must expand"
        options.append(f"grow {short(name)} {g}→{g + 1}{note}")
    text.append(" · ".join(options))
    return text


def hand_panel(state, d: dict) -> Panel | None:
    seat = d["to_move"]
    if seat is None:
        return None
    p = d["players"][seat]
    title = f"Hand of {p['name']}"
    if p["hand"] is None:
        return Panel(Text(f"not known in this position ({p['hand_size']} cards)", style="italic"),
                     title=title, title_align="left", expand=False)
    if not p["hand"]:
        return Panel(Text("empty", style="italic"), title=title, title_align="left",
                     expand=False)
    player = d["turn"]["player"] if d["turn"] else seat
    lines = [card_options(d, c, player) for c in p["hand"]]
    return Panel(Text("\n").join(lines), title=title, title_align="left", expand=False)


def header_text(state, d: dict) -> Text:
    names = [p["name"] for p in d["players"]]
    t = Text()
    t.append("Ekonos", style="bold")
    t.append(f" · {len(names)} players · variant {d['variant']} · "
             f"round {d['round']} of {state.rounds}\n")
    if d["step"] == "over":
        win = state.winners()
        t.append("Game over: ", style="bold")
        t.append(("winner: " if len(win) == 1 else "winners (tied): ")
                 + ", ".join(names[q] for q in win), style="bold")
        return t
    t.append(f"Step {d['step']}: ")
    t.append(f"{names[d['to_move']]} to decide", style="bold")
    turn = d["turn"]
    if turn:
        card = DECK[turn["card"] - 1]
        t.append(f"\n{names[turn['player']]} played card {turn['card']} "
                 f"({COMPANIES[card.top]} | {' + '.join(COMPANIES[b] for b in card.bottom)})")
        if turn.get("sold"):
            t.append(", has sold")
        exp = turn.get("expansion")
        if exp:
            t.append(f"; {exp['company']} expands")
            if "actions_left" in exp:
                t.append(f": {exp['actions_left']} growth action(s) left, from spaces "
                         + ", ".join(map(str, exp["from"])))
            else:
                t.append(": expand now (up to 2 actions) or wait")
        if d["step"] == "successor":
            t.append(f"; {names[turn['player']]} chooses the next president of "
                     f"{turn.get('company', '?')} among "
                     + ", ".join(f"{q} {names[q]}" for q in turn["candidates"]))
    if d["discard"]:
        t.append("\nplayed this round: " + " ".join(map(str, d["discard"])), style="dim")
    return t


def render_state(state) -> Group:
    """The whole position for a person: header, map, companies, market, players, hand, moves."""
    d = state.to_dict()
    parts = [header_text(state, d),
             Panel(map_text(d["board"]), title="Map", title_align="left", expand=False),
             growth_table(d), Text(""), market_table(d), Text(""), players_table(state, d)]
    hand = hand_panel(state, d)
    if hand is not None:
        parts.append(hand)
    if not state.is_over():
        texts = state.legal_moves.texts()
        if d["step"] != "card" or len(texts) <= 12:
            parts.append(Text("Legal: " + (summarize_moves(texts, max_groups=40) or
                                           "none known (the hand is not in this position)")))
        else:
            parts.append(Text(f"{len(texts)} legal moves: play CARD place|protect SPACE, "
                              "or play CARD grow COMPANY"))
    return Group(*parts)


# ---------------------------------------------------------------------------------------------
# Text summaries


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


def summarize_moves(texts: list[str], max_groups: int = 8) -> str:
    """Canonical moves in one short line.  The plays of one card are merged
    (`play 14 place 1-5,7-36 or protect 6 or grow Sunset/Hydra`), so are the places and protects
    of an expansion; groups are separated by `; `, and beyond `max_groups` they are counted."""
    groups: dict[str, dict[str, list[str]]] = {}
    for m in texts:
        w = m.split()
        if w[0] == "play" and len(w) == 4:
            key, kind, arg = f"play {w[1]} ", w[2], w[3]
        elif w[0] in ("place", "protect") and len(w) == 2:
            key, kind, arg = "", w[0], w[1]
        else:
            key, kind, arg = m, "", ""
        groups.setdefault(key, {}).setdefault(kind, []).append(arg)
    shown = []
    for key, kinds in groups.items():
        parts = []
        for kind, args in kinds.items():
            if not kind:
                parts.append("")
            elif kind in ("place", "protect"):
                parts.append(f"{kind} {_ranges([int(a) for a in args])}")
            else:
                parts.append(f"{kind} {'/'.join(args)}")
        shown.append(key + " or ".join(parts))
    if len(shown) > max_groups:
        rest = len(shown) - max_groups
        shown = shown[:max_groups] + [f"... {rest} more"]
    return "; ".join(shown)


def summary_dict(state) -> dict:
    """What `ekonos show --json` prints: the position's key facts for a program."""
    d = state.to_dict()
    values = _values(d["board"])
    seat = d["to_move"]
    return {
        "step": d["step"],
        "to_move": seat,
        "round": d["round"],
        "rounds": state.rounds,
        "variant": d["variant"],
        "players": [{"name": p["name"], "coins": p["coins"], "hand_size": p["hand_size"],
                     "tokens": state.tokens(q)} for q, p in enumerate(d["players"])],
        "values": values,
        "growth": d["growth"],
        "shares": d["shares"],
        "president": d["president"],
        "board": d["board"],
        "turn": d["turn"],
        "hand": d["players"][seat]["hand"] if seat is not None else None,
        "scores": state.scores(),
        "winners": state.winners(),
        "legal": state.legal_moves.texts(),
    }

# ---------------------------------------------------------------------------------------------
# For `ekonos play` (cli/play.py): the board without a hand, one seat's hand with what each
# card can do (and the numbers that pick those decisions), the end-of-game scorepad.

def _count(mask: int) -> int:
    return bin(mask).count("1")


def _card_parts(action: int) -> tuple[int, str, int | str]:
    """A card action -> (card number, place|protect|grow, space number or company name)."""
    words = action_text(action).split()
    return int(words[1]), words[2], int(words[3]) if words[3].isdigit() else words[3]


def play_board(state, width: int = 80) -> Group:
    """The board for `ekonos play`: header (round, whose decision), map, growth tracks,
    market (shares per player, next price, president), players (coins, cards, score now).
    On a wide terminal (from about 130 columns) tables stand beside the map."""
    d = state.to_dict()
    header = header_text(state, d)
    drawing = map_text(d["board"])
    the_map = Panel(drawing, title="Map", title_align="left", expand=False)
    growth, market = growth_table(d), market_table(d)
    players = players_table(state, d)
    map_width = max(len(line) for line in drawing.plain.split("\n")) + 4   # border, padding
    if width >= map_width + 2 + 80:          # the companies and the players beside the map
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=map_width, no_wrap=True)
        grid.add_column()
        grid.add_row(the_map, Group(growth, Text(""), players))
        return Group(header, grid, market)
    if width >= map_width + 2 + 50:          # the companies beside the map
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=map_width, no_wrap=True)
        grid.add_column()
        grid.add_row(the_map, growth)
        return Group(header, grid, market, Text(""), players)
    return Group(header, the_map, growth, Text(""), market, Text(""), players)


def cname(c: int) -> str:
    """A company's name in its colour (COMPANY_STYLE), as console markup."""
    return f"[{COMPANY_STYLE[COMPANIES[c]]}]{COMPANIES[c]}[/]"


def spaces_text(spaces: list[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1–3, 5, 7–8'."""
    out, i = [], 0
    spaces = sorted(spaces)
    while i < len(spaces):
        j = i
        while j + 1 < len(spaces) and spaces[j + 1] == spaces[j] + 1:
            j += 1
        out.append(str(spaces[i]) if i == j else f"{spaces[i]}–{spaces[j]}")
        i = j + 1
    return ", ".join(out)


def _grow_effect(f: dict, c: int, names: list[str], seat: int) -> str:
    """What growing company `c` does now, as the player at `seat` reads it."""
    g = f["growth"][c]
    pres = f["president"][c]
    decider = "you" if pres == seat or (pres < 0) else names[pres]
    if g + 1 == 4:
        return f"{g}→4, {decider} may expand"
    if g + 1 == 6:
        return f"{g}→6, expands ({decider})"
    return f"{g}→{g + 1}"


def seat_hand_panel(state, seat: int, numbers: dict[int, int] | None = None) -> Panel:
    """The seat's hand, one card per row, with what the card can do now.  With `numbers`
    (action -> list number, at the seat's card step) each option carries its number."""
    f = state._fields()
    hand = state.hand(seat) or []
    table = Table(show_edge=False, box=None, padding=(0, 1), expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("card", justify="right", style="bold")
    table.add_column("top action")
    table.add_column("growth")
    occupied = 0
    for mask in f["tiles"]:
        occupied |= mask
    empty = [sp + 1 for sp in range(36) if not occupied >> sp & 1]
    legal = set(numbers) if numbers else None
    for k, card in enumerate(hand, 1):
        c = DECK[card - 1]
        top = c.top
        tiles = _count(f["tiles"][top])
        unprot = [sp + 1 for sp in range(36)
                  if f["tiles"][top] >> sp & 1 and not f["protected"] >> sp & 1]
        bits = []
        if numbers:
            acts = [a for a in legal if _card_parts(a)[0] == card]
            places = sorted((numbers[a], _card_parts(a)[2]) for a in acts if _card_parts(a)[1] == "place")
            prots = sorted((numbers[a], _card_parts(a)[2]) for a in acts if _card_parts(a)[1] == "protect")
            for num, sp in prots:
                bits.append(f"[bold cyan]{num}[/] protect {sp}")
            if places:
                lo, hi = places[0][0], places[-1][0]
                bits.append(f"[bold cyan]{lo}–{hi}[/] place on {spaces_text([sp for _, sp in places])}")
        else:
            if unprot:
                bits.append("protect " + spaces_text(unprot))
            if tiles < MAX_TILES and empty:
                bits.append(f"place ({len(empty)} empty spaces)")
        if tiles >= MAX_TILES and not unprot:
            bits.append("[dim]nothing: all tiles out and protected[/]")
        elif tiles >= MAX_TILES:
            bits.append("[dim](no tile left to place)[/]")
        grows = []
        for b in c.bottom:
            label = f"{cname(b)} {_grow_effect(f, b, state.names, seat)}"
            if numbers:
                act = next((a for a in legal if _card_parts(a) == (card, "grow", COMPANIES[b])), None)
                if act is not None:
                    label = f"[bold cyan]{numbers[act]}[/] grow {label}"
            grows.append(label)
        table.add_row(f"#{k}", str(card), f"{cname(top)}: " + " · ".join(bits), " · ".join(grows))
    title = "Your hand — what each card can do"
    if numbers:
        title += " (numbers pick a decision)"
    if not hand:
        return Panel(Text("no cards left this round", style="dim"), title=title,
                     title_align="left", expand=False)
    return Panel(table, title=title, title_align="left", expand=False)


def scorepad(state) -> Table:
    """The rulebook's scorepad: per player, shares × value per company, coins, total (R19)."""
    f = state._fields()
    n = state.nplayers
    scores = state.scores()
    best = max(scores)
    table = Table(title="Final scores", title_style="bold")
    table.add_column("")
    table.add_column("value", justify="right")
    for q in range(n):
        style = "bold green" if scores[q] == best else ""
        table.add_column(Text(state.names[q]), justify="right", header_style=style or "bold")
    for c in range(6):
        value = _count(f["tiles"][c])
        cells = []
        for q in range(n):
            k = f["shares"][q][c]
            cells.append(f"{k}×{value} = {k * value}" if k else "[dim]–[/]")
        table.add_row(cname(c), str(value), *cells)
    table.add_row("coins", "", *[str(f["coins"][q]) for q in range(n)], end_section=True)
    table.add_row("[bold]total[/]", "", *[(f"[bold green]{s}[/]" if s == best else f"[bold]{s}[/]")
                                          for s in scores])
    return table
