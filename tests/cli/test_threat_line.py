"""The coming forced expansions in `ekonos play`'s prompt: each company at
growth 4-5 with who decides its expansion and the tiles of other companies it could take, on the
screen at 80x24 and 120x40; the groups of companies the person holds shares in marked."""
from __future__ import annotations

import random

from rich.console import Console

from cli.panels import EXPOSED, threat_block
from cli.screen import prompt_screen
from ekonos import State
from ekonos.rules import ADJACENCY, Company, Step


def _positions_with_threats(players: int, count: int):
    """Card decisions of random games where some company's track is at 4 or 5."""
    found = []
    for seed in range(200):
        rng = random.Random(seed)
        st = State.new(players, seed=seed)
        while not st.is_over() and len(found) < count:
            if st.step is Step.CARD and any(st.growth(c) in (4, 5) for c in Company):
                found.append(st.copy())
                break
            st.push(rng.choice(list(st.legal_moves)))
        if len(found) >= count:
            return found
    return found


def _could_take(st: State, company: Company) -> set[int]:
    """Independently of ekonos.threats: the other companies' unprotected tiles next to one of
    `company`'s tiles (R13a's targets that are taken from someone)."""
    mine = {sp for sp in range(1, 37) if st.owner(sp) == company}
    return {n for sp in mine for n in ADJACENCY[sp]
            if st.owner(n) is not None and st.owner(n) != company and not st.is_protected(n)}


def test_every_coming_expansion_is_on_the_prompt_screen_at_80x24_and_120x40():
    positions = _positions_with_threats(4, 6) + _positions_with_threats(2, 3)
    assert len(positions) >= 6
    for st in positions:
        seat = st.to_move
        for width, height in ((80, 24), (120, 40)):
            console = Console(width=width, height=height, record=True, color_system=None)
            _, screen = prompt_screen(console, st, seat, (), width, height)
            console.print(screen)
            text = " ".join(console.export_text().split())
            assert "Coming expansions:" in text
            for c in Company:
                if st.growth(c) not in (4, 5) or st.value(c) >= 10:
                    continue
                president = st.president(c)
                who = "you" if president == seat else (
                    st.names[president] if president is not None else "no president")
                assert f"{str(c)[:3]} {st.growth(c)}/6 ({who})" in text
                for sp in _could_take(st, c):
                    assert f"{str(st.owner(sp))[:3]} " in text and f" {sp}" in text


def test_no_line_without_a_coming_expansion():
    st = State.new(4, seed=3)
    assert all(st.growth(c) < 4 for c in Company)
    assert threat_block(st, 0) is None


def test_the_tiles_of_companies_the_person_holds_shares_in_are_marked():
    for st in _positions_with_threats(4, 6):
        for seat in range(len(st.names)):
            block = threat_block(st, seat)
            marked = {str(block)[span.start:span.end].split()[0] for span in block.spans
                      if str(span.style) == EXPOSED}
            held = {str(c)[:3] for c in Company if st.shares(seat, c) > 0}
            shown = {str(st.owner(sp))[:3] for c in Company if st.growth(c) in (4, 5)
                     for sp in _could_take(st, c)}
            assert marked == held & shown
