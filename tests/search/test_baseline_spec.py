"""The frozen references `baseline` (level 3 when the Elo ladder started) and `linear` (level 4
when the losing ideas were taken out), every parameter written out.

The baseline's moves below were computed once, when it was frozen, with the explicit spec
EXPLICIT (every ISMCTS parameter of the time given); linear's were computed by level 4 before
`linear` existed.  Both must still choose them: if a default, the playout policy, the tree or
the determinization changes under them, these fail, and the change must become a new parameter
whose old value the references keep.  A spec recorded by an earlier version (a result's entrant,
a ladder seat, a suite's judge) still reads as the bot that played (`recorded_spec`).
"""
import dataclasses
import random

import pytest

from ekonos import State
from ekonos.moves import Move
from ekonos.rules import Step
from search import registry
from search.bots import (BASELINE, LEVEL3_PRIORS, LINEAR, PRIOR_TOP, ISMCTSBot, LEVELS,
                         SpecError, make_bot, parse_params, recorded_spec, spec_help, spec_text)

#: `baseline` as it was written while the search still had the parameters taken out since (each
#: at the only value any level played): a recorded spec of that time, and the moves it chose.
EXPLICIT = ("ismcts:iterations=10000,c=0.7,workers=1,reward=blend,blend=0.25,group=1,"
            "pick=visits,policy=light,mast=0.0,card=1.0,market=1.0,horizon=0,cut=root,plain=0,"
            "prior=0.0,root=uct,expand=node")
NOW = "ismcts:iterations=10000,c=0.7,workers=1,horizon=0,plain=0,root=uct"

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
    for spec in (recorded_spec(EXPLICIT), NOW, "baseline", " Baseline "):
        action = make_bot(spec, seed=bot_seed).choose(view.copy())
        assert str(Move.from_action(action)) == move, spec


# (players, deal seed, random decisions played first, stop at the next card step, bot seed,
#  the move level 4 chose before `linear` was named after it)
PINNED_LINEAR = [
    (2, 21, 0, False, 31, "play 5 place 29"),
    (4, 23, 90, True, 33, "play 17 place 16"),
    (5, 24, 30, False, 34, "buy Panda"),
]


@pytest.mark.parametrize("players, seed, decisions, to_card, bot_seed, move", PINNED_LINEAR)
def test_linear_chooses_the_moves_level_4_chose(players, seed, decisions, to_card, bot_seed,
                                                move):
    st = position(players, seed, decisions, to_card)
    view = st.view(st.to_move)
    assert view.count_legal() > 1
    action = make_bot("linear", seed=bot_seed).choose(view.copy())
    assert str(Move.from_action(action)) == move


def test_the_references_write_every_parameter():
    assert BASELINE == registry.NAMED["baseline"] == NOW
    cls, params = parse_params("baseline")
    assert cls is ISMCTSBot
    assert params == ISMCTSBot.Params(iterations=10000, time=None, c=0.7, workers=1, horizon=0,
                                      plain=0, root="uct")
    assert parse_params(LINEAR)[1] == ISMCTSBot.Params(iterations=75000, c=0.3, workers=1,
                                                       horizon=1, plain=1, root="halving",
                                                       model=ISMCTSBot.FORMER_MODEL)
    # every parameter is in the text except `time` (no time budget: the iteration budget), and
    # `model` in baseline's, which has no horizon and reads none; linear names its model.  The
    # value network came later: no reference reads one (`net` empty: none; `rollout` means
    # something only with a net), nor plays another rate of random moves in its playouts
    # (`eps`, later: 0.1, as then, and `epsfor` only says where eps counts), nor explores with
    # another c by player count (`cfor`, later: not given, c in every game), pinned here so
    # that a later default cannot reach them
    for text in (BASELINE, LINEAR):
        params = parse_params(text)[1]
        assert params.net == "" and params.rollout == 1 and params.eps == 0.1
        # nor a policy network's prior at the root (`pnet` empty: none; `ptop` and `pweight`
        # mean something only with one)
        assert params.pnet == "" and params.ptop == PRIOR_TOP and params.pweight == ""
        assert params.cfor == ""
        # nor a budget by player count (`iterfor`, later: not given, `iterations` in every game)
        assert params.iterfor == "" and all(params.budget(n) == params.iterations
                                            for n in range(2, 7))
    every = {f.name for f in dataclasses.fields(ISMCTSBot.Params)} - {
        "time", "net", "rollout", "eps", "epsfor", "cfor", "iterfor", "pnet", "ptop",
        "pweight"}
    for text, written in ((BASELINE, every - {"model"}), (LINEAR, every)):
        assert {item.split("=")[0] for item in text.partition(":")[2].split(",")} == written


def test_a_new_search_parameter_must_be_frozen_in_the_references():
    """When ISMCTS grows a parameter, this fails: add its old value to BASELINE and LINEAR
    (or, for one that is off unless named, like `net`, pin it in
    test_the_references_write_every_parameter), then here."""
    assert [f.name for f in dataclasses.fields(ISMCTSBot.Params)] == \
        ["iterations", "time", "c", "workers", "horizon", "plain", "root", "eps", "epsfor",
         "cfor", "iterfor", "model", "net", "rollout", "pnet", "ptop", "pweight"]


def test_the_default_search_is_level_3_and_linear_is_level_4():
    # but for the levels' 4-player rate of random moves and 5-player exploration, and level 3's
    # budgets by player count, which the default leaves out so that a spec recorded without
    # them still means what it played; nor does it carry level 3's policy priors
    by_count = dict(c=0.5, cfor="5", eps=0.03, epsfor="4", iterfor="3:1000/45:2000/6:5000",
                    **LEVEL3_PRIORS)
    defaults = {name: getattr(ISMCTSBot.Params(), name) for name in by_count}
    assert ISMCTSBot.Params() == dataclasses.replace(parse_params(LEVELS[3])[1], **defaults)
    written = {f"{name}={value}" for name, value in by_count.items()}
    level3 = spec_text("level3").partition(":")[2].split(",")
    default = spec_text("ismcts").partition(":")[2].split(",")
    assert written <= set(level3) and set(level3) - written == set(default) - {"c=0.3"}
    # linear is level 4 as long as the shipped model is the one linear names
    assert parse_params("linear")[1] == dataclasses.replace(parse_params(LEVELS[4])[1],
                                                            model=ISMCTSBot.FORMER_MODEL,
                                                            **defaults)
    assert parse_params(LEVELS[3])[1] == dataclasses.replace(
        parse_params("baseline")[1], iterations=25000, horizon=1, plain=1, root="halving",
        **by_count)


@pytest.mark.parametrize("recorded, means", [
    (EXPLICIT, NOW),                                          # baseline, as first written
    ("ismcts:iterations=10000,c=0.7", NOW),                   # baseline's canonical text then
    ("ismcts:iterations=200,c=0.7", LEVELS[1]),               # level 1's
    ("ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving",
     "ismcts:iterations=25000,c=0.3,horizon=1,plain=1,root=halving,model="
     + ISMCTSBot.FORMER_MODEL),
    ("ismcts:iterations=5000,horizon=1,plain=1", "ismcts:iterations=5000,c=0.7,horizon=1,"
     "plain=1,root=uct,model=" + ISMCTSBot.FORMER_MODEL),
    ("ismcts:time=0.5,c=0.7", "ismcts:time=0.5,c=0.7,horizon=0,plain=0,root=uct"),
    ("ismcts:iterations=300,c=0.7,workers=2,reward=blend", "ismcts:iterations=300,c=0.7,"
     "workers=2,horizon=0,plain=0,root=uct"),
    (LINEAR, LINEAR), (NOW, NOW), ("greedy", "greedy"),
    ("flat:iterations=9", "flat:iterations=9"),
])
def test_a_recorded_spec_means_the_bot_that_played(recorded, means):
    """A text written today reads as itself; one written before names what it meant then."""
    assert recorded_spec(recorded) == spec_text(means)
    # today's reads as itself
    assert recorded_spec(recorded_spec(recorded)) == recorded_spec(recorded)


@pytest.mark.parametrize("gone", ["ismcts:iterations=1000,group=2", "ismcts:mast=0.5,c=0.7",
                                  "ismcts:expand=move,c=0.3", "cheat:reward=win,c=0.7"])
def test_a_recorded_spec_of_an_idea_taken_out_is_refused_saying_so(gone):
    with pytest.raises(SpecError, match="taken out of the engine"):
        recorded_spec(gone)


@pytest.mark.parametrize("param", sorted(ISMCTSBot.REMOVED))
def test_a_parameter_taken_out_is_no_parameter_today(param):
    with pytest.raises(SpecError, match=f"no parameter '{param}'"):
        make_bot(f"ismcts:{param}={ISMCTSBot.REMOVED[param]}")


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
