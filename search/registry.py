"""Bots by registration: the one place that turns bot classes into spec strings and back.

A bot is a subclass of `Bot` that sets `name` and, if it takes parameters, a nested frozen
dataclass `Params(BotParams)` whose fields are declared with `param(default, ...)`.  Defining the
class registers it; from it alone follow

- spec parsing (`parse_spec`, `parse_params`, `make_bot`): `ismcts:iterations=2000,c=0.5`,
  every value converted to the field's type and checked (finite, in range, one of the choices);
- spec printing (`bot.spec`, `format_spec`): the canonical text of a configuration;
- the help text (`spec_help`) listing every bot, its parameters, their defaults and ranges;
- the strength levels (`define_level`, `LEVELS`): `level3` is a named spec; a level taken out
  (`retire_level`, `RETIRED`) is no spec, and says what it was;
- other named specs (`define_named`, `NAMED`): `baseline` is a frozen configuration.

So adding a bot is one class in one file (search/bots.py).  Bad parameters raise `SpecError`
(an `EkonosError`) naming the parameter, and the spec when there is one.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import re
import types
import typing
from collections.abc import Callable
from typing import Any, ClassVar

from ekonos import State
from ekonos.errors import EkonosError

MASK64 = 2**64 - 1

#: Bounds shared by every bot and by `search.analysis`: beyond them a search is a mistake.
MAX_ITERATIONS = 10**9
MAX_SECONDS = 3600
MAX_WORKERS = 64


class SpecError(EkonosError):
    """A bot spec or bot parameter that cannot be understood or is out of range."""


def param(default: Any, *, help: str, lo: float | None = None, hi: float | None = None,
          lo_open: bool = False, choices: tuple | None = None,
          shown: Callable[[Any], bool] | None = None, values: str | None = None) -> Any:
    """A field of a `BotParams` dataclass: its default (written only here), a help line, the
    allowed range (`lo`..`hi`, `lo_open` for > lo) or `choices` (or, for a text checked
    elsewhere, `values` saying what it may be), and `shown(params)` deciding whether the
    canonical spec prints it (by default: when it differs from its default)."""
    return dataclasses.field(default=default, metadata=dict(
        help=help, lo=lo, hi=hi, lo_open=lo_open, choices=choices, shown=shown, values=values))


@dataclasses.dataclass(frozen=True)
class BotParams:
    """Base of every bot's parameters: checks and normalises each field when constructed."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _check(f, field_type(type(self), f.name),
                                                    getattr(self, f.name)))


def field_type(cls: type, name: str) -> type:
    """The value type of a parameter field: int, float or str (`float | None` gives float)."""
    return _field_types(cls)[name]


@functools.cache
def _field_types(cls: type) -> dict[str, type]:
    out = {}
    for name, hint in typing.get_type_hints(cls).items():
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            hint = next(a for a in typing.get_args(hint) if a is not type(None))
        out[name] = hint
    return out


def _check(f: dataclasses.Field, kind: type, value: Any) -> Any:
    """`value` converted to `kind` and checked against the field's metadata; SpecError if not."""
    m, name = f.metadata, f.name
    if value is None and f.default is None:
        return None
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise SpecError(f"{name} must be an integer, got {quote(value)}")
        value = int(value)
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise SpecError(f"{name} must be a number, got {quote(value)}")
        value = float(value)
        if not math.isfinite(value):
            raise SpecError(f"{name} must be a finite number, got {quote(value)}")
    elif not isinstance(value, kind):
        raise SpecError(f"{name} must be a {kind.__name__}, got {quote(value)}")
    if m["choices"] is not None and value not in m["choices"]:
        raise SpecError(f"{name} must be {_either(m['choices'])}, got {quote(value)}")
    lo, hi = m["lo"], m["hi"]
    if (lo is not None and (value <= lo if m["lo_open"] else value < lo)) or \
            (hi is not None and value > hi):
        raise SpecError(f"{name} must be {_range_text(f)}, got {quote(value)}")
    return value


def always(params: BotParams) -> bool:
    """A `shown` predicate: the canonical spec always prints the field."""
    return True


def differs(params: BotParams, name: str) -> bool:
    """Whether field `name` of `params` differs from its default (for `shown` predicates)."""
    return getattr(params, name) != next(f.default for f in dataclasses.fields(params)
                                         if f.name == name)


def quote(value: Any, limit: int = 60) -> str:
    """`value` as a message quotes it (repr), cut short if long."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _either(choices: tuple) -> str:
    words = [str(c) for c in choices]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _range_text(f: dataclasses.Field) -> str:
    m = f.metadata
    lo, hi = m["lo"], m["hi"]
    if m["values"] is not None:
        return m["values"]
    if m["choices"] is not None:
        return _either(m["choices"])
    if lo is not None and hi is not None:
        return f"> {lo} and <= {hi}" if m["lo_open"] else f"from {lo} to {hi}"
    if lo is not None:
        return f"> {lo}" if m["lo_open"] else f">= {lo}"
    return f"<= {hi}" if hi is not None else "any value"


@dataclasses.dataclass(frozen=True)
class NoParams(BotParams):
    """The parameters of a bot that takes none."""


#: Registered bots by name, in the order their classes were defined.
BOTS: dict[str, type["Bot"]] = {}
#: Strength levels (`ekonos play --level`, `levelN` in specs): level -> spec text.
LEVELS: dict[int, str] = {}
#: Levels no longer offered: level -> (the spec it was, why it went).  A command that names one
#: is told what it was; a game record that names one resumes at the strongest level (cli.record).
RETIRED: dict[int, tuple[str, str]] = {}
#: Other named specs (e.g. `baseline`): name -> spec text, resolved wherever a spec is read.
NAMED: dict[str, str] = {}


def derive_seed(*parts: int) -> int:
    """A 64-bit seed from integers (splitmix64 mixing): stable across runs and machines."""
    z = 0x243F6A8885A308D3
    for p in parts:
        z = (z + (p & MASK64) + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
    return z


class Bot:
    """Base class: `choose(view) -> action`.  `seed` makes a bot's sequence of choices
    reproducible; `choose(view, seed=...)` fixes the seed of one decision.  A subclass that sets
    `name` is registered; its `Params` dataclass (default: none) holds its settings."""

    name: ClassVar[str] = ""
    Params: ClassVar[type[BotParams]] = NoParams
    #: True only for a bot that measures (never plays for a person): it is given the whole state,
    #: every hand included, instead of the seat's view.  The arena and the ladder honour it; play,
    #: hint, review and serve take levels, never specs, so they can never seat it.
    sees_all: ClassVar[bool] = False

    @classmethod
    def recorded(cls, given: dict[str, str]) -> dict[str, str]:
        """The parameters (as text) that a spec recorded by an earlier version meant, from the
        ones it gives: a bot whose parameters were taken out or whose defaults changed
        translates them here (`recorded_spec`); raise SpecError for a configuration that can no
        longer be played.  By default: as given."""
        return given

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            return
        if not re.fullmatch(r"[a-z][a-z0-9_]*", cls.name) or cls.name.startswith("level"):
            raise TypeError(f"bot name {cls.name!r}: lower-case letters, digits and _, "
                            "not starting with 'level'")
        if cls.name in BOTS:
            raise TypeError(f"two bots named {cls.name!r}: {BOTS[cls.name]} and {cls}")
        if cls.name in NAMED:
            raise TypeError(f"bot name {cls.name!r} is a named spec already")
        if not (isinstance(cls.Params, type) and issubclass(cls.Params, BotParams)
                and dataclasses.is_dataclass(cls.Params)):
            raise TypeError(f"{cls.__name__}.Params must be a BotParams dataclass")
        BOTS[cls.name] = cls

    def __init__(self, seed: int = 0, params: BotParams | None = None, **kwargs: Any):
        """`params` (an instance of `Params`), or its fields as keyword arguments."""
        if params is None:
            params = self.Params(**kwargs)
        elif kwargs or not isinstance(params, self.Params):
            raise TypeError(f"{type(self).__name__}: give a {self.Params.__name__} "
                            "or keyword parameters, not both")
        self.params = params
        self.seed = seed
        self._calls = 0

    @property
    def spec(self) -> str:
        """The canonical spec of this bot's configuration (`make_bot(bot.spec)` is the same)."""
        return format_spec(self.name, self.params)

    def _next_seed(self, seed: int | None) -> int:
        if seed is not None:
            return seed
        self._calls += 1
        return derive_seed(self.seed, self._calls)

    def choose(self, view: State, seed: int | None = None) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"


def format_spec(name: str, params: BotParams) -> str:
    """The canonical spec text: the name, then `key=value` for each field whose `shown`
    predicate holds (by default: fields that differ from their defaults), in field order."""
    items = []
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        shown = f.metadata["shown"]
        if shown(params) if shown is not None else value != f.default:
            items.append(f"{f.name}={value}")
    return name + (":" + ",".join(items) if items else "")


def _spec_text(bot: str, params: dict[str, Any]) -> str:
    """`bot` with exactly `params` (checked now), in field order."""
    cls = BOTS[bot]
    cls.Params(**params)
    order = [f.name for f in dataclasses.fields(cls.Params)]
    return bot + "".join((":" if i == 0 else ",") + f"{k}={params[k]}"
                         for i, k in enumerate(sorted(params, key=order.index)))


def define_level(level: int, bot: str, **params: Any) -> str:
    """Register strength level `level` as `bot` with `params` (checked now); its spec text lists
    exactly the given parameters, in field order."""
    LEVELS[level] = text = _spec_text(bot, params)
    return text


def retire_level(level: int, why: str, bot: str, **params: Any) -> str:
    """Record that strength level `level`, once `bot` with `params`, is offered no more, and
    `why` (a phrase: "not measurably stronger than level 4")."""
    if level in LEVELS:
        raise TypeError(f"level {level} is defined; a retired level is not")
    text = _spec_text(bot, params)
    RETIRED[level] = (text, why)
    return text


def define_named(name: str, bot: str, **params: Any) -> str:
    """Register the spec `name` (e.g. `baseline`) as `bot` with exactly `params`, written out in
    its text; a name may not be a bot's or look like a level."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name in BOTS or _LEVEL.fullmatch(name):
        raise TypeError(f"named spec {name!r}: lower-case letters, digits and _, not a bot's "
                        "name nor a level")
    NAMED[name] = text = _spec_text(bot, params)
    return text


_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(nan|inf|infinity)",
                    re.IGNORECASE)
_LEVEL = re.compile(r"level\s*[:=]?\s*([0-9]+)", re.IGNORECASE)


def _convert(kind: type, text: str) -> Any:
    """Spec text -> value of `kind` (ASCII digits only); ValueError if it does not read."""
    if kind is int:
        if not _INT.fullmatch(text) or len(text) > 30:
            raise ValueError
        return int(text)
    if kind is float:
        if not _FLOAT.fullmatch(text) or len(text) > 40:
            raise ValueError
        return float(text)
    return text


def _levels_text(sep: str = "-", prefix: str = "") -> str:
    if not LEVELS:
        return "none"
    return f"{prefix}{min(LEVELS)}{sep}{prefix}{max(LEVELS)}"




def _parse(spec: str) -> tuple[type[Bot], BotParams, list[str]]:
    """The bot class, its checked parameters and the names of those the spec gives."""
    text = spec.strip()
    spec = quote(spec)
    level = _LEVEL.fullmatch(text)
    if level:
        number = int(level.group(1)) if len(level.group(1)) < 6 else -1
        if number in RETIRED:
            was, why = RETIRED[number]
            raise SpecError(f"bot spec {spec}: level {number} was retired ({why}); it was {was}, "
                            f"which still works as a spec; levels are {_levels_text()}")
        if number not in LEVELS:
            raise SpecError(f"bot spec {spec}: levels are {_levels_text()}")
        text = LEVELS[number]
    elif text.lower() in NAMED:
        text = NAMED[text.lower()]
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise SpecError(f"bot spec {spec}: unknown bot {quote(name)} "
                        f"(bots: {', '.join([*BOTS, *NAMED])}, "
                        f"or {_levels_text(prefix='level')})")
    cls = BOTS[name]
    fields = {f.name: f for f in dataclasses.fields(cls.Params)}
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq:
            raise SpecError(f"bot spec {spec}: {quote(item)} is not key=value")
        if key not in fields:
            opts = ", ".join(fields) or "none"
            raise SpecError(f"bot spec {spec}: {name} has no parameter {quote(key)} "
                            f"(parameters: {opts})")
        if key in kwargs:
            raise SpecError(f"bot spec {spec}: {key} is given twice")
        kind = field_type(cls.Params, key)
        try:
            kwargs[key] = _convert(kind, value)
        except ValueError:
            what = ("an " if kind is int else "a ") + kind.__name__
            raise SpecError(f"bot spec {spec}: {key}={quote(value)} is not {what}") from None
    try:
        return cls, cls.Params(**kwargs), list(kwargs)
    except SpecError as e:
        raise SpecError(f"bot spec {spec}: {e}") from None


def parse_params(spec: str) -> tuple[type[Bot], BotParams]:
    """'ismcts:c=0.5' -> (ISMCTSBot, ISMCTSBot.Params(c=0.5)): the bot class and its full,
    checked parameters.  SpecError (naming the spec and the parameter) if anything is wrong."""
    cls, params, _ = _parse(spec)
    return cls, params


def names_level(spec: str) -> bool:
    """Whether `spec` is a level's name (``level4``), whose meaning depends on the commit."""
    return _LEVEL.fullmatch(spec.strip()) is not None


def spec_text(spec: str) -> str:
    """'level3' -> 'ismcts:iterations=25000,...': the canonical text of what `spec` plays as
    today (`format_spec`: a level or a name resolved, the parameters that differ from their
    defaults in field order), so two spellings of one bot compare equal.  A level means what it
    means at this commit (its spec may change later; `baseline`'s never does), so a result that
    names one records this.  SpecError if `spec` is not a spec."""
    cls, params, _ = _parse(spec)
    return format_spec(cls.name, params)


def parse_spec(spec: str) -> tuple[str, dict]:
    """'ismcts:iterations=2000,c=0.5' -> ('ismcts', {'iterations': 2000, 'c': 0.5}): the bot's
    name and the parameters the spec gives (checked; the others take their defaults)."""
    cls, params, given = _parse(spec)
    return cls.name, {k: getattr(params, k) for k in given}


def recorded_spec(text: str) -> str:
    """The canonical text today of a spec recorded in a file (a result's entrant, a ladder seat,
    a suite's judge) by this or any earlier version, so that a record keeps meaning the bot that
    played: the bot's `recorded` hook reads parameters since taken out, and defaults since
    changed, as they were (search.bots.ISMCTSBot).  Texts written today read as themselves.
    A level or named spec means what it means today.  SpecError if it is no spec, or a
    configuration that can no longer be played."""
    name, _, rest = text.strip().partition(":")
    cls = BOTS.get(name.strip().lower())
    if cls is None or not rest.strip():
        return spec_text(text)
    given: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise SpecError(f"bot spec {quote(text)}: {quote(item)} is not key=value")
        given[key.strip().lower()] = value.strip()
    given = cls.recorded(given)
    return spec_text(cls.name + ":" + ",".join(f"{k}={v}" for k, v in given.items()))


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec string, seeded."""
    cls, params = parse_params(spec)
    return cls(seed=seed, params=params)


def spec_help() -> str:
    """Every bot with its parameters (default, meaning, allowed values) and the levels, as plain
    lines without blank ones (so one click `\\b` marker keeps it as written)."""
    lines = ["Bot specs: NAME or NAME:KEY=VALUE,... (parameters not given take their defaults)."]
    rows = []
    for name, cls in BOTS.items():
        doc = (cls.__doc__ or "").strip().split("\n")[0].strip().rstrip(".")
        rows.append((f"  {name}", doc))
        for f in dataclasses.fields(cls.Params):
            default = "none" if f.default is None else f.default
            rows.append((f"    {f.name}={default}", f"{f.metadata['help']}; {_range_text(f)}"))
    rows += [(f"  level{level}", text) for level, text in sorted(LEVELS.items())]
    rows += [(f"  {name}", text) for name, text in NAMED.items()]
    width = max(len(left) for left, _ in rows) + 2
    lines += [f"{left:<{width}}{right}" for left, right in rows]
    return "\n".join(lines)
