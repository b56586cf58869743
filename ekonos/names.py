"""Player names: the one validator, used at every entry (`State.new`, hence the CLI's `--name`
and `--names`; position files; game records).  Names are text, never markup: printing them
safely is the CLI's business, refusing what no display can show is this module's.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence

from ekonos.errors import EkonosError

MAX_NAME_LENGTH = 40
#: Characters a name may not hold: control characters, surrogates, line and paragraph
#: separators (categories Cc, Cs, Zl, Zp) and the bidirectional controls, which reorder text.
_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")


def name_problem(name: object) -> str | None:
    """Why `name` (already trimmed) cannot be a player's name, or None.  A name is text of 1-40
    characters, without control, surrogate, line-break or bidirectional-control characters, that
    does not read as a number (moves name seats by number: `successor 2`)."""
    if not isinstance(name, str):
        return f"must be text, got {type(name).__name__}"
    if not name:
        return "must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"has {len(name)} characters (at most {MAX_NAME_LENGTH})"
    for ch in name:
        if unicodedata.category(ch) in _NAME_CATEGORIES or ch in _BIDI_CONTROLS:
            return (f"contains the character U+{ord(ch):04X}; control, surrogate, line-break "
                    "and bidirectional-control characters are not allowed")
    if _reads_as_number(name):
        return "can't be a number (moves name seats by number)"
    return None


def _reads_as_number(text: str) -> bool:
    try:
        int(text)               # also "+1", "1_0", Arabic-Indic digits
        return True
    except ValueError:
        pass
    try:
        float(text)
    except ValueError:
        return False
    return any(ch.isdigit() for ch in text)     # "1e3", "2.5"; but "Nan" and "Inf" are names


def _name_key(name: str) -> str:
    """What two names must not share: compatibility-normalised, case-folded text."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_names(names: Sequence[object], field: Callable[[int], str] = "names[{}]".format,
                error: Callable[[str, str], Exception] = lambda f, r: EkonosError(f"{f}: {r}"),
                ) -> list[str]:
    """The one validator of player names, for every entry (`State.new`, hence `--name` and
    `--names`, and position files).  Names are trimmed (surrounding whitespace removed, the
    trimmed name is kept), then each must pass `name_problem`, and no two may be equal after
    trimming, NFKC normalisation and case-folding.  Returns the trimmed names; otherwise raises
    `error(field(i), reason)` for the first bad name."""
    out: list[str] = []
    keys: dict[str, int] = {}
    for i, raw in enumerate(names):
        name = raw.strip() if isinstance(raw, str) else raw
        problem = name_problem(name)
        if problem is not None:
            raise error(field(i), problem)
        other = keys.setdefault(_name_key(name), i)
        if other != i:
            raise error(field(i), f"{_quoted(name)} is the same name as {field(other)} "
                        f"{_quoted(out[other])} (names are compared ignoring case and "
                        "surrounding spaces)")
        out.append(name)
    return out


def _quoted(name: str) -> str:
    """A valid name, quoted for a message (a name has no control characters by now)."""
    return json.dumps(name, ensure_ascii=False)
