"""What the other seats did since your last decision, always on screen in `ekonos play`: the
library functions (cli.events) the terminal and the web board share, and the terminal at 80×24
for 2 to 6 players, whose screen before each of your decisions holds every AI decision since
your previous one and marks the spaces they changed; a hint shown beside the board."""
from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from cli.commands.play import TerminalGame
from cli.events import Decision, DecisionMade, by_turn, since_last, spaces_changed
from cli.grammar import every_decision
from cli.session import GameSession
from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import COMPANIES, Company, Step


def _d(ply: int, seat: int, text: str = "pass") -> Decision:
    step = Step.SELL if text == "pass" else Step.BUY
    move = Move(step, MoveKind.PASS) if text == "pass" else Move(step, MoveKind.BUY,
                                                                    company=Company.CROWN)
    return Decision(ply, seat, move, 1, "")


def test_since_last_is_what_the_others_did_after_the_seats_last_decision():
    ds = [_d(1, 0), _d(2, 1), _d(3, 1), _d(4, 2), _d(5, 0), _d(6, 1), _d(7, 2), _d(8, 2)]
    assert [d.ply for d in since_last(ds, 0)] == [6, 7, 8]
    assert [d.ply for d in since_last(ds, 1)] == [7, 8]
    assert since_last(ds, 2) == ()                      # seat 2 decided last: nothing new
    assert [d.ply for d in since_last(ds, 3)] == list(range(1, 9))   # never decided: all
    assert [(q, [d.ply for d in run]) for q, run in by_turn(since_last(ds, 0))] == \
        [(1, [6]), (2, [7, 8])]
    # two turns of one seat in a row (a new round): two runs, each from its card
    card = Decision(9, 2, Move.play(3, MoveKind.GROW, company=Company.PANDA), 2, "")
    assert [[d.ply for d in run] for _, run in by_turn(ds[6:] + [card, _d(10, 2)])] == \
        [[7, 8], [9, 10]]


def test_the_spaces_changed_are_those_whose_tile_changed():
    """Over random games, the spaces `spaces_changed` names for the decisions since a seat's
    last one are exactly those whose tile (company or protection) differs on the board."""
    for seed in range(12):
        rng = random.Random(seed)
        st = State.new(4, seed=seed)
        decisions: list[Decision] = []
        boards = []                      # the board after each decision
        while not st.is_over():
            move = rng.choice(list(st.legal_moves))
            decisions.append(Decision(len(decisions) + 1, st.to_move, move, st.round, ""))
            st.push(move)
            boards.append(st.to_dict()["board"])
        for i in range(0, len(decisions), 3):
            seat = decisions[i].seat
            last = max(k for k in range(i + 1) if decisions[k].seat == seat)
            before, after = boards[last], boards[i]
            differ = {int(sp) for sp in set(before) | set(after)
                      if before.get(sp) != after.get(sp)}
            assert spaces_changed(since_last(decisions[:i + 1], seat)) == differ


# ---------------------------------------------------------------------------------------------
# the terminal at 80×24

class Watcher:
    """Plays the person's seat with random legal decisions and, at each prompt, keeps what
    the terminal shows (its last `height` lines) with the AI decisions made since the
    person's previous decision and the board then (taken from the session's events)."""

    def __init__(self, console: Console, height: int, prompts: int, seed: int):
        self.console, self.height, self.prompts = console, height, prompts
        self.rng = random.Random(seed)
        self.since: list[Decision] = []
        self.board_then: dict = {}
        self.seen: list[tuple[str, list[Decision], dict, State]] = []
        self.game: TerminalGame | None = None

    def on_event(self, event) -> None:
        if isinstance(event, DecisionMade):
            if event.human:
                self.since = []
                self.board_then = self.game.session.state.to_dict()["board"]
            else:
                self.since.append(event.decision)

    def __call__(self, prompt: str) -> str:
        st = self.game.session.state
        if len(self.seen) >= self.prompts or st.is_over():
            raise EOFError
        text = self.console.export_text(clear=True)
        screen = text.rstrip("\n").split("\n")[-(self.height - 1):]
        self.seen.append(("\n".join(screen), list(self.since), dict(self.board_then), st))
        return str(self.rng.choice(every_decision(st)))


def _watch(players: int, seat: int, seed: int, prompts: int, width=80, height=24):
    console = Console(width=width, height=height, record=True, color_system=None,
                      file=io.StringIO())
    watcher = Watcher(console, height, prompts, seed)
    session = GameSession(State.new(players, seed=seed), seat, 1, ai_seed=seed)
    game = TerminalGame(session, console=console, input_fn=watcher)
    watcher.game = game
    session.subscribe(watcher.on_event)
    game.run()
    return watcher


def _entry_pattern(d: Decision, names: list[str]) -> str | None:
    """How an AI decision reads in the since block (None: a pass, which is left out)."""
    m = d.move
    if m.kind is MoveKind.PASS:
        return None
    if m.kind is MoveKind.SUCCESSOR:
        return rf"successor {re.escape(names[m.seat])}"
    arg = COMPANIES[m.company][:3] if m.kind is MoveKind.GROW else str(m.space)
    if m.card is not None:
        return rf"(?<!\d){m.card}( \w{{3}}\|\w{{3}}\+\w{{3}})? {m.kind} {arg}\b"
    if m.kind in (MoveKind.SELL, MoveKind.BUY):
        return rf"{m.kind} {COMPANIES[m.company][:3]}"
    return rf"\b{m.kind}\b( {m.space})?"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_ai_decision_since_your_last_is_on_the_80x24_screen(players):
    seat = 1
    w = _watch(players, seat, seed=40 + players, prompts=40)
    checked = 0
    for screen, since, board_then, st in w.seen:
        lines = screen.split("\n")
        heads = [i for i, line in enumerate(lines) if line.startswith("Ekonos ·")]
        assert heads, screen                       # the whole screen is in view, header first
        lines = lines[heads[-1]:]
        screen = "\n".join(lines)
        assert max(map(len, lines)) <= 80, screen
        if not since:
            continue
        label = "Since your turn:" if board_then or "Since" in screen else "So far:"
        assert label in screen, screen
        block = " ".join(screen[screen.index(label):].split())     # an entry may wrap
        for q in {d.seat for d in since}:
            assert f"{st.names[q]}:" in block, (q, screen)
        for d in since:
            pattern = _entry_pattern(d, st.names)
            if pattern is not None:
                assert re.search(pattern, block), (str(d.move), screen)
                checked += 1
        # the spaces whose tile changed since then stand out (capitals), the others do not
        board = st.to_dict()["board"]
        changed = {int(sp) for sp in board if board[sp] != board_then.get(sp)}
        for sp, tile in board.items():
            caps = re.search(rf"(?<![\d|+]){sp}{tile[:3].upper()}", screen)
            assert bool(caps) == (int(sp) in changed), (sp, changed, screen)
    assert checked >= 5, "the games gave the test too little to check"


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_hint_is_shown_beside_the_board_at_80x24(players):
    """After `hint` at a card prompt of round 2 (the others' turns on screen too), the screen
    holds the map (every space), the hint's three rows and what the others did, within
    80×24."""
    console = Console(width=80, height=24, record=True, color_system=None, file=io.StringIO())
    rng = random.Random(players)
    asked = []
    game: TerminalGame

    def answer(prompt: str) -> str:
        st = game.session.state
        if st.round >= 2 and st.step is Step.CARD:
            asked.append(console.export_text(clear=True))    # the screen at this prompt
            if len(asked) > 1:
                raise EOFError
            return "hint"
        return str(rng.choice(every_decision(st)))
    game = TerminalGame(GameSession(State.new(players, seed=players), 1, 1, ai_seed=players),
                        console=console, input_fn=answer)
    game.run()
    screen = asked[-1].rstrip("\n").split("\n")
    start = max(i for i, line in enumerate(screen) if line.startswith("Ekonos ·"))
    shown = screen[start:]
    joined = "\n".join(shown)
    assert len(shown) <= 23 and max(map(len, shown)) <= 80, joined
    assert all(re.search(rf"(?<![\d|+]){sp}(  ·|[A-Za-z]{{3}})", joined)
               for sp in range(1, 37)), joined
    rows = re.findall(r"^\s*h([123]) +play \d+ \w+ \w+", joined, re.M)
    assert rows == ["1", "2", "3"], joined
    decisions = game.session.decisions
    mine = max(i for i, d in enumerate(decisions) if d.seat == 1)
    others = {d.seat for d in decisions[mine + 1:]}
    assert ("Since your turn:" in joined) == bool(others), joined
    assert all(f"{game.session.names[q]}:" in joined for q in others), joined


def test_the_since_block_tells_a_turn_of_passes_and_packs_entries_within_the_width():
    from cli.panels import since_block
    names = ["Ada", "Bruno", "Chiara"]
    passes = [_d(1, 1), _d(2, 1)]
    for form in ("lines", "cards", "short"):
        assert since_block(passes, names, 80, form).plain == "Since your turn: Bruno: pass"
    card = Decision(3, 2, Move.play(3, MoveKind.PLACE, space=12), 1, "a reason")
    many = [card, _d(4, 2, "buy")] * 6
    for width in (40, 60, 80):
        text = since_block(many, names, width, "short").plain
        assert all(len(line) <= width for line in text.split("\n")), text
        assert text.count("Chiara: 3 place 12, buy Cro") == 6, text
    assert since_block([], names, 80) is None
