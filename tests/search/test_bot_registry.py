"""Bots by registration: spec parsing, printing, help and levels all derive from the bot classes."""
import dataclasses

import pytest

from helpers import small_net_file
from search import evaluation, registry
from search.bots import (BOTS, LEVELS, Bot, BotParams, ISMCTSBot, SpecError, format_spec,
                         make_bot, parse_params, parse_spec, spec_help)
from search.registry import define_level, param

#: Specs the arena JSON and README print: their canonical text must not change.
PRINTED = ["ismcts:iterations=200,c=0.7,workers=2,horizon=0,plain=0,root=uct",
           "flat:iterations=300", "random", "greedy",
           "ismcts:iterations=300,c=0.3,horizon=1,plain=1,root=halving,model=eval-5ec0e708e0a8",
           "ismcts:iterations=300,c=0.7,horizon=0,plain=1,root=uct",
           "ismcts:time=0.5,c=0.3,horizon=0,plain=1,root=halving",
           "flat:iterations=60,policy=random"]


#: A valid value of each free-text parameter (its bot checks it, not the registry).
TEXT_VALUES = {"model": str(evaluation.MODEL_PATH), "net": str(small_net_file()), "epsfor": "46",
               "cfor": "5", "iterfor": "3:500/456:2000",
               "pnet": str(small_net_file(kind="policy-net")), "pweight": "3:0.3/4:1"}


#: A parameter that only means something beside another (refused alone): set that one too.
NEEDS = {"rollout": ("net",), "ptop": ("pnet",), "pweight": ("pnet",)}
#: A parameter whose changed value rules out another's (pnet keeps halving's root moves, so it
#: needs root=halving): when all change together, the other keeps its default.
EXCLUDES = {"pnet": ("root",)}


def other_value(params: BotParams, f: dataclasses.Field):
    """A valid value of field `f` that differs from its default, from the field's own metadata."""
    m = f.metadata
    if m["choices"] is not None:
        return next(c for c in m["choices"] if c != f.default)
    kind = registry.field_type(type(params), f.name)
    if kind is str:                 # a text checked by its bot: one it accepts
        return TEXT_VALUES[f.name]
    lo = m["lo"] if m["lo"] is not None else 0
    hi = m["hi"] if m["hi"] is not None else lo + 100
    for candidate in (lo + 1, (lo + hi) / 2, hi):
        value = kind(candidate)
        if value != f.default and lo <= value <= hi and not (m["lo_open"] and value == lo):
            return value
    raise AssertionError(f"no other value for {f.name}")


def variants(cls: type[Bot]) -> list[BotParams]:
    """The defaults, then each field changed alone, then all fields changed together."""
    base = cls.Params()
    out = [base]
    changed = {}
    for f in dataclasses.fields(base):
        changed[f.name] = other_value(base, f)
        needs = {k: TEXT_VALUES[k] for k in NEEDS.get(f.name, ())}
        out.append(dataclasses.replace(base, **{f.name: changed[f.name]}, **needs))
    if changed:
        for name, others in EXCLUDES.items():
            if name in changed:
                for other in others:
                    changed.pop(other, None)
        out.append(cls.Params(**changed))
    return out


def test_the_bots_are_registered_in_order():
    assert list(BOTS) == ["random", "greedy", "flat", "ismcts", "cheat"]
    assert all(BOTS[name].name == name for name in BOTS)


@pytest.mark.parametrize("name", list(BOTS))
def test_printed_spec_parses_back_to_the_same_parameters(name):
    cls = BOTS[name]
    for params in variants(cls):
        text = format_spec(name, params)
        assert parse_params(text) == (cls, params), text
        assert make_bot(text).spec == text
        assert cls(params=params).spec == text


@pytest.mark.parametrize("spec", PRINTED)
def test_canonical_specs_print_byte_identical(spec):
    assert make_bot(spec).spec == spec
    name, kwargs = parse_spec(spec)
    assert BOTS[name](**kwargs).spec == spec


def test_parse_spec_returns_only_the_given_parameters_checked_and_typed():
    assert parse_spec(" ISMCTS : Iterations = 50 , c = 1 ") == \
        ("ismcts", {"iterations": 50, "c": 1.0})
    assert isinstance(parse_spec("ismcts:c=1")[1]["c"], float)
    assert parse_spec("flat") == ("flat", {})
    cls, params = parse_params("flat")
    assert cls is BOTS["flat"] and params == cls.Params()


def test_defaults_live_only_in_the_params_dataclass():
    bot = ISMCTSBot()
    assert bot.params == ISMCTSBot.Params()
    assert bot.spec == format_spec("ismcts", ISMCTSBot.Params())
    # the printer's view of "default" is the dataclass's: changing one field shows exactly it
    for f in dataclasses.fields(ISMCTSBot.Params):
        if f.name in ("iterations", "c", "horizon", "plain", "root", "model"):   # written
            assert f"{f.name}={getattr(bot.params, f.name)}" in bot.spec    # with a horizon
            continue
        value = other_value(bot.params, f)
        needs = {k: TEXT_VALUES[k] for k in NEEDS.get(f.name, ())}
        assert f"{f.name}={value}" in ISMCTSBot(**{f.name: value}, **needs).spec
        assert f"{f.name}=" not in bot.spec


def test_time_budget_replaces_iterations_in_the_spec():
    assert make_bot("ismcts:time=0.5").spec == \
        "ismcts:time=0.5,c=0.3,horizon=1,plain=1,root=halving,model=" + evaluation.SHIPPED
    both = make_bot("ismcts:iterations=500,time=1")
    assert parse_params(both.spec)[1] == both.params


def test_help_lists_every_bot_parameter_default_and_level():
    text = spec_help()
    assert "\n\n" not in text
    for name, cls in BOTS.items():
        assert f"  {name} " in text
        for f in dataclasses.fields(cls.Params):
            default = "none" if f.default is None else f.default
            assert f"{f.name}={default} " in text, f.name
            assert f.metadata["help"] in text
    for level, spec in LEVELS.items():
        assert f"level{level} " in text and spec in text


def test_levels_are_specs_of_registered_bots():
    assert sorted(LEVELS) == [1, 2, 3, 4]
    budgets = []
    for level, spec in sorted(LEVELS.items()):
        name, kwargs = parse_spec(spec)
        assert name in BOTS
        assert parse_spec(f"level{level}") == (name, kwargs)
        assert make_bot(f"level{level}").spec == make_bot(spec).spec
        budgets.append(kwargs["iterations"])
    assert budgets == sorted(budgets)


def test_a_retired_level_is_no_spec_and_says_what_it_was():
    assert set(registry.RETIRED).isdisjoint(LEVELS)
    for level, (was, why) in registry.RETIRED.items():
        with pytest.raises(SpecError) as e:
            make_bot(f"level{level}")
        assert f"level {level} was retired" in str(e.value) and was in str(e.value)
        assert why in str(e.value) and f"levels are {min(LEVELS)}-{max(LEVELS)}" in str(e.value)
        _, params = registry.parse_params(was)                 # what it was still plays
        assert params.iterations > registry.parse_params(LEVELS[max(LEVELS)])[1].iterations
        with pytest.raises(TypeError, match="is defined"):
            registry.retire_level(min(LEVELS), "no reason", "greedy")


@pytest.fixture
def scratch_registry(monkeypatch):
    """Bots and levels registered inside a test leave the registry as it was."""
    monkeypatch.setattr(registry, "BOTS", dict(registry.BOTS))
    monkeypatch.setattr(registry, "LEVELS", dict(registry.LEVELS))


def test_a_new_bot_is_one_class(scratch_registry):
    class FirstBot(Bot):
        """Always the first legal action."""

        name = "first"

        @dataclasses.dataclass(frozen=True)
        class Params(BotParams):
            skip: int = param(0, lo=0, hi=5, help="legal actions to skip")
            mood: str = param("calm", choices=("calm", "wild"), help="how it feels")

        def choose(self, view, seed=None):
            return view.nth_legal(min(self.params.skip, view.count_legal() - 1))

    assert registry.BOTS["first"] is FirstBot
    bot = registry.make_bot("first:skip=2", seed=3)
    assert isinstance(bot, FirstBot) and bot.params.skip == 2 and bot.spec == "first:skip=2"
    assert registry.make_bot("first").spec == "first"
    assert registry.parse_spec("first:mood=wild") == ("first", {"mood": "wild"})
    with pytest.raises(SpecError, match="skip must be from 0 to 5"):
        registry.make_bot("first:skip=6")
    help_text = registry.spec_help()
    assert "Always the first legal action" in help_text and "skip=0" in help_text
    assert define_level(9, "first", skip=1) == "first:skip=1"
    assert registry.make_bot("level9").spec == "first:skip=1"


def test_registration_refuses_clashes_and_bad_names(scratch_registry):
    with pytest.raises(TypeError, match="two bots named"):
        type("Again", (Bot,), {"name": "greedy"})
    with pytest.raises(TypeError, match="bot name"):
        type("Lvl", (Bot,), {"name": "level7"})
    with pytest.raises(TypeError, match="Params"):
        type("NoData", (Bot,), {"name": "nodata", "Params": dict})
    with pytest.raises(SpecError, match="iterations must be"):
        define_level(8, "flat", iterations=0)
    with pytest.raises(TypeError):
        define_level(8, "flat", skip=1)
    assert 8 not in registry.LEVELS


def test_a_bot_takes_params_or_keywords_not_both():
    with pytest.raises(TypeError):
        ISMCTSBot(params=ISMCTSBot.Params(), c=0.5)
    with pytest.raises(TypeError):
        ISMCTSBot(params=BOTS["flat"].Params())
    with pytest.raises(TypeError):
        ISMCTSBot(iters=5)
