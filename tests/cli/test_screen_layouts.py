"""Screen layouts that fit: at 80×24, 100×30, 120×40 and 160×50 the prompt of every step,
for 2 to 6 players, fits the terminal with the prompt line below it (no line wider than the
terminal, no more lines than it has), and at the card step the map (all 36 spaces, whole), the
companies' growth and the hand with its decisions are on screen.  `show` uses the same
layouts by width."""
from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from cli.commands.play import TerminalGame
from cli.grammar import legal_list
from cli.render import layout_for, render_state
from cli.session import GameSession
from ekonos import State
from ekonos.rules import COMPANIES, Step

SIZES = [(80, 24), (100, 30), (120, 40), (160, 50)]
STEPS = [Step.CARD, Step.SELL, Step.BUY, Step.EXPAND_CHOICE, Step.EXPAND, Step.SUCCESSOR]


def positions(players: int, step: Step, seat: int = 0, want: int = 2) -> list[State]:
    """Full-information positions of seeded random games where `seat` decides at `step`: at
    the card step the fullest hand (the round's first turn) and the most cards played (late
    in a round); else the first ones found."""
    found: list[State] = []
    for seed in range(400):
        rng = random.Random(seed)
        st = State.new(players, seed=seed)
        while not st.is_over():
            if st.step is step and st.to_move == seat:
                found.append(st.copy())
                if step is not Step.CARD or len(found) >= 120:
                    break
            st.push_unchecked(rng.choice(st.legal_actions()))
        if len(found) >= (120 if step is Step.CARD else want):
            break
    if step is Step.CARD and found:
        full = max(found, key=lambda s: (len(s.hand(seat)), len(s.discard)))
        late = max(found, key=lambda s: (len(s.discard), len(s.hand(seat))))
        # the longest hand lines: many tiles to protect, growths that trigger an expansion
        busy = max(found, key=lambda s: (len(s.hand(seat)) >= 3,
                                         sum(len(s.tiles(c)) - len(s.protected_tiles(c))
                                             for c in range(6))
                                         + 5 * sum(s.growth(c) in (3, 5) for c in range(6))))
        return [full, late, busy]
    return found[:want]


def rendered(st: State, width: int, height: int) -> tuple[str, str]:
    """(layout, text) of the prompt screen of seat 0 at `st` on a width × height terminal,
    the prompt line included."""
    console = Console(width=width, height=height, record=True, color_system=None,
                      file=io.StringIO())
    game = TerminalGame(GameSession(st, 0, 1, ai_seed=1), console=console,
                        input_fn=lambda prompt: "")
    layout, screen = game.screen()
    console.print(screen)
    console.print(f"{st.names[0]} › ")
    return layout, console.export_text()


# (a successor step needs two players tied behind the seller: never with 2 players, R18c)
CASES = [(w, h, n, step) for (w, h) in SIZES for n in range(2, 7) for step in STEPS
         if not (n == 2 and step is Step.SUCCESSOR)]


@pytest.mark.parametrize("width,height,players,step", CASES,
                         ids=[f"{w}x{h}-{n}p-{s}" for w, h, n, s in CASES])
def test_every_prompt_fits_the_terminal(width, height, players, step):
    states = positions(players, step)
    assert states, f"no {step} position of seat 0 in the sampled {players}-player games"
    for st in states:
        layout, text = rendered(st, width, height)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= height, f"{layout}: {len(lines)} lines\n{text}"
        assert max(len(line) for line in lines) <= width, text
        if step is not Step.CARD:
            continue
        # the map whole: every space number, no cell cut off
        map_lines = [line for line in lines if re.search(r"─\s?\d|\d\s?[A-Z][a-z]{2}", line)]
        numbers = {int(n) for line in map_lines for n in re.findall(r"(?<![\d|+])(\d{1,2})"
                                                                    r"(?=[ A-Z·!]|$)", line)}
        assert set(range(1, 37)) <= numbers, text
        assert not any("…" in line and not line.startswith("played") for line in lines), text
        # the growth of every company, and every card of the hand with its numbered growths
        for company in COMPANIES:
            assert re.search(rf"^\W*{company[:3]}\w*\s+[■□\d]", text, re.M) or \
                re.search(rf"  {company[:3]}\w*\s+[■□\d]", text), (company, text)
        for card in st.hand(0):
            assert re.search(rf"^\W*{card:>2} [A-Z][a-z]{{2}}\|", text, re.M), (card, text)
        for k in range(1, len(legal_list(st)) + 1):
            assert re.search(rf"(?<!\d){k} [A-Z][a-z]+ \d→", text), (k, text)


@pytest.mark.parametrize("width,layout", [(80, "compact"), (100, "compact"), (119, "compact"),
                                          (120, "side"), (159, "side"), (160, "wide"),
                                          (200, "wide")])
def test_layout_by_width(width, layout):
    assert layout_for(width) == layout


def test_side_by_side_from_120_columns():
    st = positions(4, Step.CARD)[0]
    for width, height in SIZES:
        layout, text = rendered(st, width, height)
        lines = text.splitlines()
        beside = any(("Map" in line or "─" in line)
                     and re.search(r"(growth|gr|Companies)\b", line) for line in lines)
        assert beside, (width, text)
        if width >= 120:
            assert layout in ("side", "wide") and any("╭─ Map" in line for line in lines)


@pytest.mark.parametrize("width", [80, 100, 120, 160])
def test_show_uses_the_same_layouts_by_width(width):
    st = positions(4, Step.CARD)[1]
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(render_state(st, width))
    text = console.export_text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert f"Hand of {st.names[0]}" in text
    if width >= 120:
        assert any("╭─ Map" in line and ("growth" in line or "Companies" in line)
                   for line in lines), text
    else:
        assert any("─" in line and re.search(r"\bgr(owth)?\b", line) for line in lines)
    stacked = Console(width=width, record=True, color_system=None, file=io.StringIO())
    stacked.print(render_state(st))                    # into a pipe: everything stacked
    assert "Market (shares per player)" in stacked.export_text()


def test_screens_for_the_report(tmp_path):
    """The card prompt at 80×24 and 120×40, written out for a person to look at (and each
    within its size)."""
    st = positions(4, Step.CARD)[1]
    for width, height in ((80, 24), (120, 40)):
        layout, text = rendered(st, width, height)
        (tmp_path / f"card-{width}x{height}.txt").write_text(text)
        assert len(text.rstrip("\n").split("\n")) <= height


def test_help_fits_80_columns():
    from cli.commands.play import HELP
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(HELP.format(autosave="~/.local/share/ekonos/autosave.json"))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80 and len(lines) <= 23
