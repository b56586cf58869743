"""Search parameters by player count: what lets one spec search differently with 3 players and
with 4 (`epsfor` and `cfor` name counts by their digits; `iterfor`, `pnet` and `pweight` give
groups COUNTS:VALUE), read and checked here, each a SpecError saying what is wrong."""
from __future__ import annotations

import functools
import math

from ekonos.rules import MAX_PLAYERS, MIN_PLAYERS
from search.registry import MAX_ITERATIONS, SpecError, quote

#: The player counts as the digits a parameter such as `epsfor` lists them by.
PLAYER_DIGITS = "".join(map(str, range(MIN_PLAYERS, MAX_PLAYERS + 1)))
PLAYER_DIGITS_TEXT = f"player counts as digits from {MIN_PLAYERS} to {MAX_PLAYERS}, each once"
#: The largest `pweight`.
MAX_WEIGHT = 1000.0


def player_mask(digits: str) -> int:
    """Player counts given as digits (`epsfor`) as the search's bit mask: bit n set for games
    of n players."""
    return sum(1 << int(n) for n in digits)


def check_digits(name: str, counts: str) -> None:
    """SpecError unless `counts` (the parameter `name`'s text) is player counts as digits,
    each once."""
    if any(n not in PLAYER_DIGITS for n in counts) or len(set(counts)) < len(counts):
        raise SpecError(f"{name} must be {PLAYER_DIGITS_TEXT} (e.g. 4 or 56), got {counts!r}")


def _every(value):
    """{player count: value} for every count: one value given alone serves them all."""
    return {n: value for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def _groups(text: str, sep: str, name: str, form: str, example: str) -> dict[int, str]:
    """Groups COUNTS:VALUE joined by `sep` as {player count: VALUE's text}; `form` and
    `example` say how the parameter is written, for the error."""
    out: dict[int, str] = {}
    for counts, colon, value in (g.partition(":") for g in text.split(sep)):
        if not colon or not counts or not value or any(n not in PLAYER_DIGITS for n in counts):
            raise SpecError(f"{name} must be {form} (e.g. {example}; {PLAYER_DIGITS_TEXT}), "
                            f"got {quote(text)}")
        for n in map(int, counts):
            if n in out:
                raise SpecError(f"{name} names {n} players twice, in {quote(text)}")
            out[n] = value
    return out


@functools.lru_cache(maxsize=32)
def budgets_by_count(text: str) -> dict[int, int]:
    """`iterfor`'s text ('3:500/456:2000') as {player count: iterations}; {} for ''."""
    out = {}
    groups = _groups(text, "/", "iterfor", "groups COUNTS:N joined by '/'", "3:500/456:2000") \
        if text else {}
    for n, number in groups.items():
        if not (number.isascii() and number.isdigit() and len(number) <= 12) \
                or not 1 <= int(number) <= MAX_ITERATIONS:
            raise SpecError(f"iterfor: {quote(number)} is not a budget from 1 to "
                            f"{MAX_ITERATIONS} iterations")
        out[n] = int(number)
    return out


@functools.lru_cache(maxsize=32)
def priors_by_count(text: str) -> dict[int, str]:
    """`pnet`'s text as {player count: policy network}: one file or name alone serves every
    count; groups COUNTS:FILE joined by '+' ('3:pol3.json+4:pol4.json') serve the counts they
    name and no other; {} for ''.  (The files themselves are checked by the bot.)"""
    if not text:
        return {}
    counts, colon, _ = text.partition(":")
    if "+" not in text and not (colon and counts.isdigit()):
        return _every(text)
    return _groups(text, "+", "pnet", "one network, or groups COUNTS:NETWORK joined by '+'",
                   "3:net-aaa+4:net-bbb")


@functools.lru_cache(maxsize=32)
def weights_by_count(text: str) -> dict[int, float]:
    """`pweight`'s text as {player count: weight}: one number alone serves every count; groups
    COUNTS:W joined by '/' ('3:0.3/4:1') serve the counts they name (the others weigh 0);
    {} for '' (no weight anywhere)."""
    if not text:
        return {}
    groups = _every(text) if ":" not in text else \
        _groups(text, "/", "pweight", "a number, or groups COUNTS:W joined by '/'", "3:0.3/4:1")
    out = {}
    for n, value in groups.items():
        try:
            w = float(value)
        except ValueError:
            w = math.nan
        if not 0 <= w <= MAX_WEIGHT:
            raise SpecError(f"pweight: {quote(value)} is not a weight from 0 to {MAX_WEIGHT:g}")
        if w:
            out[n] = w
    return out
