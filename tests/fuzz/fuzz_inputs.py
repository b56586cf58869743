"""Hypothesis strategies for what a person types: move text, bot specs, CLI option values.

Bot specs come in two kinds.  `bot_specs()` is anything at all (only `make_bot` may see it:
a valid spec may ask for hours of search).  `runnable_specs()` may also be searched with,
because every budget in it is either small or invalid by any reading (NaN, infinite, zero,
negative, beyond 2**63, not a number): a correct program refuses it or answers at once.
"""
from __future__ import annotations

import math
import re

from hypothesis import strategies as st

from ekonos.rules import COMPANIES
from fuzz_docs import superscript, to_digits

# ---------------------------------------------------------------------------------------------
# Move text

VERBS = ["play", "place", "protect", "grow", "expand", "wait", "stop", "sell", "buy", "pass",
         "successor"]
NUMBER_FORMS = ("fullwidth", "arabic", "devanagari", "superscript", "underscore", "plus",
                "zeros", "float", "minus-zero", "hex")


def odd_numeral(n: str, form: str) -> str:
    """The number `n` written another way (most of which `int()` would read)."""
    if form == "fullwidth":
        return to_digits(n, 0xFF10)
    if form == "arabic":
        return to_digits(n, 0x660)
    if form == "devanagari":
        return to_digits(n, 0x966)
    if form == "superscript":
        return superscript(n)
    if form == "underscore":
        return "_".join(n) if len(n) > 1 else n + "_0"
    if form == "plus":
        return "+" + n
    if form == "zeros":
        return "00" + n
    if form == "float":
        return n + ".0"
    if form == "minus-zero":
        return "-0" if n == "0" else "-" + n
    return hex(int(n))


@st.composite
def move_texts(draw, legal: list[str]) -> str:
    """A legal text changed (numbers in another script, case, prefixes, spacing, extra words),
    or words of the notation put together, or any text."""
    kind = draw(st.sampled_from(("legal", "numeral", "numeral", "case", "words", "text", "long",
                                 "space")
                                if legal else ("words", "text", "long")))
    base = draw(st.sampled_from(legal)) if legal else ""
    if kind == "legal":
        return base
    if kind == "numeral":
        form = draw(st.sampled_from(NUMBER_FORMS))
        return re.sub(r"\d+", lambda m: odd_numeral(m.group(), form), base, count=draw(
            st.integers(0, 2)))
    if kind == "case":
        words = base.split()
        return " ".join(w.upper() if draw(st.booleans()) else w[:3] if len(w) > 3 and
                        w.capitalize() in COMPANIES else w for w in words)
    if kind == "space":
        sep = draw(st.sampled_from(["  ", "\t", "\u00a0", "\u3000", "\n", " , ", "\u200b"]))
        return sep.join(base.split()) + draw(st.sampled_from(["", " ", "\x00", "!", " extra"]))
    if kind == "long":
        return draw(st.sampled_from([base * 500, "play " * 2000, "9" * 5000, "x" * 100_000,
                                     "play 1 place " + "1" * 5000]))
    if kind == "words":
        vocab = VERBS + list(COMPANIES) + ["1", "7", "14", "36", "37", "0", "-1", "Crown",
                                           "cro", "cr", "anna", "0", "5", "١٤", "１", "²"]
        return " ".join(draw(st.lists(st.sampled_from(vocab), max_size=5)))
    return draw(st.text(max_size=30))


def canonical_notation(text: str) -> bool:
    """Text the notation may accept: ASCII only, and every word that reads as a number written
    with ASCII digits only (no `+1`, `1_4`, `１４`, `١`)."""
    if not text.isascii():
        return False
    for word in text.split():
        try:
            int(word)
        except ValueError:
            continue
        if not word.isdigit():
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Bot specs

NUMBERS = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e309", "0", "-0", "-3", "1", "2",
           "8", "99999999999999999999", "2147483648", "9223372036854775808", "1_000", "１０",
           "٣", " 5 ", "0x10", "1.5", "1e3", "", "true", "None", "1e-300", "0.01", "-1e308"]
KEYS = ["iterations", "time", "c", "workers", "reward", "blend", "group", "policy", "iters",
        "ITERATIONS", "seed", "", " c ", "level"]
WORDS = ["win", "score", "blend", "light", "random", "heavy", "", "WIN", "nan"]
NAMES = ["random", "greedy", "flat", "ismcts", "level1", "level2", "level3", "level4", "level5",
         "LEVEL3", "level 3", "level:3", "level=9", "level0", "level99999999999999999999",
         "Ismcts", " ismcts ", "", ":", "unknown", "levelx", "level-1"]
SEPARATORS = [",", ", ", ";", " ", ",,", ":"]


@st.composite
def bot_specs(draw) -> str:
    """Any spec: names, parameters with odd values, unknown keys, odd separators."""
    name = draw(st.sampled_from(NAMES))
    if draw(st.integers(0, 4)) == 0:
        return name
    items = draw(st.lists(st.tuples(st.sampled_from(KEYS),
                                    st.sampled_from(NUMBERS + WORDS)), max_size=4))
    sep = draw(st.sampled_from(SEPARATORS))
    eq = draw(st.sampled_from(["=", "=", "=", "==", ":", ""]))
    return name + ":" + sep.join(f"{k}{eq}{v}" for k, v in items)


# Values that no correct program runs a long search with.
BAD_BUDGETS = ["0", "-3", "-1", "nan", "NaN", "inf", "-inf", "Infinity", "1e309",
               "99999999999999999999", "9223372036854775808", "18446744073709551616", "1.5",
               "x", "", "true", "0x10"]
BAD_TIMES = ["nan", "NaN", "inf", "-inf", "Infinity", "1e309", "-1", "-0.5", "x", "", "0",
             "-0"]
ANY_FLOAT = ["nan", "inf", "-inf", "0", "-1", "0.7", "1e308", "-1e308", "1e-300", "2", "x", ""]


@st.composite
def runnable_specs(draw) -> str:
    """A spec that is refused, or that searches briefly: iterations 1-40 (with 1-8 workers:
    more workers than iterations), time at most 0.02 s, any c / blend / group / reward."""
    name = draw(st.sampled_from(["ismcts", "ismcts", "ismcts", "flat", "random", "greedy",
                                 "level1"]))
    if name in ("random", "greedy", "level1"):
        return name
    params: dict[str, str] = {}
    it = draw(st.one_of(st.integers(1, 40).map(str), st.sampled_from(BAD_BUDGETS)))
    params["iterations"] = it
    if name == "ismcts":
        if draw(st.booleans()):
            params["workers"] = draw(st.one_of(st.integers(1, 8).map(str),
                                               st.sampled_from(["0", "-1", "64", "x", "1e3",
                                                                "99999999999999999999"])))
        if draw(st.integers(0, 3)) == 0:
            params["time"] = draw(st.one_of(st.sampled_from(BAD_TIMES),
                                            st.sampled_from(["0.001", "0.01", "1e-300"])))
        for key in ("c", "blend"):
            if draw(st.booleans()):
                params[key] = draw(st.sampled_from(ANY_FLOAT))
        if draw(st.integers(0, 3)) == 0:
            params["group"] = draw(st.sampled_from(["0", "1", "2", "-1", "99999999999999999999",
                                                    "x"]))
        if draw(st.integers(0, 3)) == 0:
            params["reward"] = draw(st.sampled_from(WORDS))
    if draw(st.integers(0, 3)) == 0:
        params["policy"] = draw(st.sampled_from(WORDS))
    keys = draw(st.permutations(list(params)))
    return f"{name}:" + ",".join(f"{k}={params[k]}" for k in keys)


# ---------------------------------------------------------------------------------------------
# CLI option values

INT_TEXTS = ["0", "1", "-1", "2", "3", "6", "7", "nan", "inf", "1e3", "", " 3", "３", "٣",
             "0x10", "1_0", "+2", "99999999999999999999999", "1.5", "--json", "-", "x"]
SEED_TEXTS = ["0", "1", "-1", "18446744073709551615", "18446744073709551616", "1e3", "x", "",
              "٣", "1_0", "+5", "99999999999999999999999999999"]
VARIANT_TEXTS = ["rulebook", "bga", "RULEBOOK", "", "x", "rule", "bga "]
#: -i values in-process: small (the search must not take long) or refused by click.
SMALL_ITERATIONS = [str(i) for i in range(1, 21)]
ODD_ITERATIONS = ["0", "-1", "x", "", "1.5", "nan", "1e3", "٣", "1_0", "+5"]
VALID_SEEDS = ["0", "1", "42", "18446744073709551615"]
#: -t values that no correct program runs long with (hangs are caught in a subprocess).
BAD_SECONDS = ["nan", "NaN", "inf", "-inf", "Infinity", "0", "-0", "-1", "x", "", "1e-300",
               "1e309", "-1e309"]


def mostly(valid: list[str], odd: list[str]) -> st.SearchStrategy[str]:
    """An option value: usually a valid one (so the command runs), sometimes an odd one."""
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), st.sampled_from(valid),
                     st.sampled_from(odd))


def spec_demands_refusal(spec: str) -> str | None:
    """Why a correct `make_bot` must refuse `spec`, read with the documented grammar
    (`name:key=value,key=value`, keys in any case), or None when the spec may be valid.  Only
    values no reading can accept: a non-finite number, a negative or absurd budget, a search
    without any budget, a number beyond what C integers hold."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    values: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key in values:
            return None                 # refused for its syntax anyway, or ambiguous
        values[key] = value.strip()
    if name not in ("flat", "ismcts"):
        return None

    def number(key: str) -> float | None:
        try:
            return float(values[key]) if key in values else None
        except ValueError:
            return None

    for key in ("c", "blend", "time"):
        x = number(key)
        if x is not None and not math.isfinite(x):
            return f"{key}={values[key]} is not finite"
    it, time = number("iterations"), number("time") or 0.0
    if it is not None and (it < 0 or it >= 2**63 or (name == "flat" and it == 0)):
        return f"iterations={values['iterations']}"
    if time < 0:
        return f"time={values['time']}"
    if name == "ismcts" and it == 0 and time <= 0:
        return "no positive iteration or time budget"
    for key, low in (("workers", 1), ("group", -2**31)):
        x = number(key)
        if x is not None and (x < low or x >= 2**63):
            return f"{key}={values[key]}"
    return None
