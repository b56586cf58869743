"""`ismcts:clast=C`: the UCB constant of a search whose position is in the game's last round,
where playouts run to the end and score outcomes rather than the evaluation."""
import random

import pytest

from ekonos import State
from search.bots import ISMCTSBot, spec_text


def position_in_round(players: int, last: bool, seed: int = 5) -> State:
    """A position of random play at a card step in the last round (or in the first)."""
    rng = random.Random(seed)
    st = State.new(players, seed=seed)
    target = st.rounds if last else 1
    for _ in range(players * 3):                   # a few decisions into the round
        st.push(rng.choice(st.legal_actions()))
    while st.round < target:
        st.push(rng.choice(st.legal_actions()))
    while st.count_legal() < 3:
        st.push(rng.choice(st.legal_actions()))
    assert not st.is_over() and st.round == target
    return st


def visits(bot: ISMCTSBot, st: State) -> dict[int, int]:
    return {m["action"]: m["visits"]
            for m in bot.analyse(st.view(st.to_move), seed=11).moves}


@pytest.mark.parametrize("players", [2, 6])
def test_the_last_round_searches_with_clast(players):
    st = position_in_round(players, last=True)
    with_clast = visits(ISMCTSBot(iterations=3000, c=0.3, clast=3.0), st)
    assert with_clast == visits(ISMCTSBot(iterations=3000, c=3.0), st)
    assert with_clast != visits(ISMCTSBot(iterations=3000, c=0.3), st)


@pytest.mark.parametrize("players", [2, 6])
def test_earlier_rounds_search_with_c(players):
    st = position_in_round(players, last=False)
    with_clast = visits(ISMCTSBot(iterations=3000, c=0.3, clast=3.0), st)
    assert with_clast == visits(ISMCTSBot(iterations=3000, c=0.3), st)
    assert with_clast != visits(ISMCTSBot(iterations=3000, c=3.0), st)


def test_clast_is_spelled_only_when_given():
    assert "clast" not in spec_text("level3")
    assert "clast=0.7" in spec_text("ismcts:clast=0.7")
    assert spec_text("ismcts:c=0.3") == spec_text("ismcts")
