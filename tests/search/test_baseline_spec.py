"""The frozen `baseline` spec (issue 10, item 4): level 3 as it was, every parameter written out.

The moves below were computed once, when the baseline was frozen, with the explicit spec
EXPLICIT (every ISMCTS parameter given).  Both EXPLICIT and `baseline` must still choose them:
if a default, the playout policy, the tree or the determinization changes under them, these
fail, and the change must become a new parameter whose old value baseline keeps.
"""
import dataclasses
import random

import pytest

from ekonos import State
from ekonos.moves import Move
from ekonos.rules import Step
from search import registry
from search.bots import BASELINE, ISMCTSBot, LEVELS, make_bot, parse_params, spec_help

EXPLICIT = ("ismcts:iterations=10000,c=0.7,workers=1,reward=blend,blend=0.25,group=1,"
            "pick=visits,policy=light,mast=0.0,card=1.0,market=1.0,horizon=0,cut=root,plain=0,"
            "prior=0.0,root=uct,expand=node")

# (players, deal seed, random decisions played first, stop at the next card step, bot seed,
#  the move chosen when the baseline was frozen)
PINNED = [
    (2, 1, 0, False, 11, "play 18 place 35"),
    (4, 2, 0, False, 12, "play 27 place 14"),
    (3, 3, 40, False, 13, "buy Phoenix"),
    (4, 4, 90, False, 14, "buy Sunset"),
    (2, 5, 150, False, 15, "sell Panda"),
    (5, 6, 60, False, 16, "pass"),
    (3, 7, 50, True, 17, "play 5 place 33"),
    (4, 8, 120, True, 18, "play 2 protect 25"),
    (2, 9, 80, True, 19, "play 21 grow Gemini"),
]


def position(players: int, seed: int, decisions: int, to_card: bool) -> State:
    st = State.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        st.push(rng.choice(st.legal_actions()))
    while to_card and st.step is not Step.CARD:
        st.push(st.legal_actions()[0])
    return st


@pytest.mark.parametrize("players, seed, decisions, to_card, bot_seed, move", PINNED)
def test_baseline_and_the_explicit_spec_choose_the_pinned_move(players, seed, decisions,
                                                               to_card, bot_seed, move):
    st = position(players, seed, decisions, to_card)
    view = st.view(st.to_move)
    assert view.count_legal() > 1            # a real decision, not a forced one
    for spec in (EXPLICIT, "baseline", " Baseline "):
        action = make_bot(spec, seed=bot_seed).choose(view.copy())
        assert str(Move.from_action(action)) == move, spec


def test_baseline_writes_every_parameter_and_equals_the_explicit_spec():
    assert BASELINE == EXPLICIT
    assert registry.NAMED["baseline"] == EXPLICIT
    cls, params = parse_params("baseline")
    assert cls is ISMCTSBot and params == parse_params(EXPLICIT)[1]
    assert params == ISMCTSBot.Params(iterations=10000, time=None, c=0.7, workers=1,
                                      reward="blend", blend=0.25, group=1, pick="visits",
                                      policy="light", mast=0.0, card=1.0,
                                      market=1.0, horizon=0, cut="root", plain=0,
                                      prior=0.0, root="uct", expand="node")
    # every parameter is in the text except `time` (no time budget: the iteration budget) and
    # `model`, the evaluation's file, which a search without a horizon never reads
    written = {item.split("=")[0] for item in BASELINE.split(":")[1].split(",")}
    assert written == {f.name for f in dataclasses.fields(ISMCTSBot.Params)} - {"time", "model"}
    assert params.horizon == 0


def test_a_new_search_parameter_must_be_frozen_in_baseline():
    """When ISMCTS grows a parameter, this fails: add its old value to BASELINE, then here."""
    assert [f.name for f in dataclasses.fields(ISMCTSBot.Params)] == \
        ["iterations", "time", "c", "workers", "reward", "blend", "group", "pick", "policy",
         "mast", "card", "market", "horizon", "cut", "plain", "prior", "root", "expand",
         "model"]


def test_level_3_is_baseline_with_the_ideas_issue_11_kept():
    """Level 3 was `baseline` until issue 11; it now differs by the measured parameters only."""
    base = parse_params("baseline")[1]
    assert parse_params(LEVELS[3])[1] == dataclasses.replace(base, iterations=25000, horizon=1,
                                                             plain=1, c=0.3, root="halving")


def test_baseline_is_listed_in_the_spec_help():
    lines = spec_help().splitlines()
    row = next(line for line in lines if line.split()[:1] == ["baseline"])
    assert row.split()[1] == BASELINE


def test_named_specs_refuse_names_of_bots_and_levels(monkeypatch):
    monkeypatch.setattr(registry, "NAMED", dict(registry.NAMED))
    for bad in ("ismcts", "level7", "Bad", "two words"):
        with pytest.raises(TypeError):
            registry.define_named(bad, "ismcts", iterations=5)
    with pytest.raises(registry.SpecError):
        registry.define_named("tiny", "ismcts", iterations=0)
    assert registry.define_named("tiny", "ismcts", iterations=5) == "ismcts:iterations=5"
    assert make_bot("tiny").params.iterations == 5
