"""Hypothesis strategies for position files: valid positions from the pool, field-level
mutations at any depth, odd values and keys, name payloads, targeted impossible states, and raw
damage to the JSON text (truncation, byte flips, deep nesting, non-UTF-8, 5,000-digit literals).

A document is the decoded JSON (dicts, lists, str, int, float, bool, None) plus `Raw` values:
literal JSON text written as is by `dumps` (a 5,000-digit integer cannot be made by
`json.dumps`, whose int-to-text conversion has a digit limit).
"""
from __future__ import annotations

import functools
import json
import math
from typing import Any

from hypothesis import strategies as st

from ekonos.rules import COMPANIES
from fuzz_positions import fresh, pool, pool_texts


class Raw(str):
    """Literal JSON text that replaces a value when the document is written."""


def dumps(doc: Any, ensure_ascii: bool = True) -> str:
    """The document as JSON text, `Raw` values written literally, NaN/Infinity as Python does."""
    raws: list[str] = []

    def walk(v):
        if isinstance(v, Raw):
            raws.append(str(v))
            return f"\x01RAW{len(raws) - 1}\x01"
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    text = json.dumps(walk(doc), ensure_ascii=ensure_ascii)
    for i, raw in enumerate(raws):
        token = json.dumps(f"\x01RAW{i}\x01", ensure_ascii=ensure_ascii)
        text = text.replace(token, raw)
    return text


# ---------------------------------------------------------------------------------------------
# Odd values and keys

ODD_INTS = [0, 1, -1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 17, 18, 19, 35, 36, 37, 63, 64, 127, 128,
            255, 256, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30,
            -2**31, -2**63, -10**9, 10**6, 10**6 + 1]
ODD_FLOATS = [1.0, 0.0, -0.0, 0.5, 2.0, 6.0, 1e308, 1e-300, math.inf, -math.inf, math.nan]
ODD_STRINGS = ["", " ", "1", "01", "001", "٣", "١", "²", "+1", "-1", "1_0", "１", " 1", "1 ",
               "0x1", "1e1", "1.0", "Sunset", "sunset", "SUNSET", "Sun", "Sunset!", "Sunset!!",
               "!", "Crown", "Crown ", "card", "over", "expand", "expand-choice", "sell", "buy",
               "successor", "CARD", "null", "true", "ekonos-position", "rulebook", "bga",
               "Anna", "ANNA", "\x00", "\ud800", "é", "[/]", "0000000000000000", "ffffffff"]
BIG_LITERALS = [Raw("1" * 5000), Raw("-" + "9" * 5000), Raw("1" + "0" * 4400), Raw("1e400"),
                Raw("-1e400"), Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1" * 300),
                Raw("0." + "1" * 5000), Raw("1E+9999")]
ODD_KEYS = ["01", "001", "١", "٣", "²", "+1", " 1", "1 ", "0", "37", "-1", "1.0", "0x1", "1_0",
            "１", "", " ", "sunset", "SUNSET", "Sun", "Sunset ", "Sunset!", "Nobody", "name",
            "hand", "turn", "__proto__", "\ud800", "\x00"]

odd_ints = st.one_of(st.sampled_from(ODD_INTS), st.integers(-40, 40))
odd_scalars = st.one_of(
    odd_ints, st.booleans(), st.none(), st.sampled_from(ODD_FLOATS),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(ODD_STRINGS),
    st.sampled_from(BIG_LITERALS), st.text(max_size=8))
odd_values = st.one_of(
    odd_scalars,
    st.lists(odd_scalars, max_size=4),
    st.dictionaries(st.sampled_from(ODD_KEYS + list(COMPANIES)), odd_scalars, max_size=3))


def odd_key_variants(key: str) -> list[str]:
    """Keys that look like `key` (other spellings of a number, other case, spaces)."""
    out = [key.upper(), key.lower(), key.capitalize(), f" {key}", f"{key} ", key + "!",
           key[:3], key * 2]
    if key.isdecimal() and len(key) < 20:      # (a 5,000-digit literal has no small variants)
        n = int(key)
        out += ["0" + key, "00" + key, "+" + key, key + ".0", "_".join(key) if len(key) > 1
                else key + "_0", to_digits(key, 0x660), to_digits(key, 0xFF10),
                to_digits(key, 0x966), superscript(key), str(n + 36), str(-n), hex(n)]
    return [k for k in out if k != key]


def to_digits(text: str, zero: int) -> str:
    """ASCII digits -> the same number in another script (Arabic-Indic 0x660, full-width 0xFF10,
    Devanagari 0x966): `int()` reads them all; `str.isdigit()` says True."""
    return "".join(chr(zero + int(c)) if c.isdecimal() else c for c in text)


def superscript(text: str) -> str:
    """Digits -> superscripts: `isdigit()` is True, `int()` refuses them."""
    sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
    return "".join(sup[int(c)] if c.isdecimal() else c for c in text)


# ---------------------------------------------------------------------------------------------
# Name payloads

def name_payloads(max_len: int = 3000) -> st.SearchStrategy[str]:
    """Names that are markup, surrogates, control characters, very long, or number-like."""
    fixed = ["[/]", "[red]x", "[bold]Ann[/bold]", "[link=http://x]a[/link]", "\\[x]", "[",
             "]", "[/red]", "[red", "x[/]y", "\ud800", "\udfff", "a\ud83d", "\x00", "\x07",
             "\x1b[31mred", "a\nb", "\r", "\t", "a\x7f", "\u0085", "\u202eevil", "\u200b",
             "\ufeffAnn", "１", "٣", "²", "12", " 7 ", "Ann ", " Ann", "ANN", "ann", "Straße",
             "STRASSE", "ǅ", "\u00a0", "e\u0301", "\u00e9", "🂡", "Anna", "Bruno"]
    lengths = [41, 100, 1000, max_len]
    return st.one_of(
        st.sampled_from(fixed),
        st.sampled_from(lengths).map(lambda n: "x" * n),
        st.sampled_from(lengths).map(lambda n: "[b]" * (n // 3)),
        st.text(max_size=12),
        st.text(st.characters(codec=None, categories=["Cc", "Cs", "Cf", "Zs", "Sm", "Ps"]),
                min_size=1, max_size=6))


@st.composite
def named_positions(draw, max_len: int = 3000) -> dict:
    """A valid position whose players' names are payloads (or another player's name in another
    spelling: duplicates after trimming or case-folding)."""
    doc = draw(positions())
    players = doc["players"]
    for _ in range(draw(st.integers(1, 2))):
        q = draw(st.integers(0, len(players) - 1))
        if draw(st.booleans()) and len(players) > 1:
            other = players[(q + 1) % len(players)]["name"]
            players[q]["name"] = draw(st.sampled_from(
                [other.upper(), other.lower(), f" {other}", f"{other} ", other.casefold(),
                 other + "\u200b", other.swapcase()]))
        else:
            players[q]["name"] = draw(name_payloads(max_len))
    return doc


# ---------------------------------------------------------------------------------------------
# Valid positions and field-level mutations

@functools.lru_cache(maxsize=None)
def positions(step: str | None = None) -> st.SearchStrategy[dict]:
    """A valid position from the pool (a fresh copy: change it at will)."""
    return st.sampled_from(pool(step)).map(fresh)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _containers(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if isinstance(doc, (dict, list)) else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _containers(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _containers(v, prefix + (i,))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def retyped(draw, value: Any) -> Any:
    """The same information in another JSON type (1 -> "1", 1.0, true, [1], {"1": 1}, null)."""
    options: list[Any] = [None, [value], {"value": value}]
    if isinstance(value, bool):
        options += [int(value), str(value).lower(), float(value)]
    elif isinstance(value, int):
        options += [str(value), float(value), bool(value), Raw(str(value) + ".0"),
                    to_digits(str(value), 0x660)]
    elif isinstance(value, str):
        options += [int(value) if value.isdecimal() and len(value) < 100 else len(value),
                    value.encode("utf-8", "surrogatepass")[:20].hex(), [c for c in value[:6]]]
    elif isinstance(value, list):
        options += [{str(i): v for i, v in enumerate(value)}, value[0] if value else 0,
                    json.dumps(value)[:100], len(value)]
    elif isinstance(value, dict):
        options += [list(value.values()), list(value), json.dumps(value)[:100], len(value)]
    return draw(st.sampled_from(options))


def nudged(draw, value: Any) -> Any:
    """A value near `value`: an integer moved a little, a name in another case, a flag flipped."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([1, -1, 2, -2, 3, 8, -8, 18, 36]))
    if isinstance(value, str):
        return draw(st.sampled_from(odd_key_variants(value) or [value + "x"]))
    if value is None:
        return draw(st.sampled_from([0, 1, 2, [], {}, ""]))
    return draw(odd_values)


OPS = ("change", "nudge", "nudge", "delete", "retype", "odd-key", "duplicate", "resize",
       "copy", "swap")


@st.composite
def mutated_positions(draw, step: str | None = None) -> dict:
    """A valid position with 1-3 field-level mutations anywhere in the document."""
    doc = draw(positions(step))
    for _ in range(draw(st.integers(1, 3))):
        mutate(draw, doc)
    return doc


def mutate(draw, doc: dict) -> None:
    """One mutation, in place: change, nudge, delete or retype a field at any depth, add an
    odd key, duplicate or resize a list, copy one field's value into another, swap two."""
    op = draw(st.sampled_from(OPS))
    if op in ("odd-key", "duplicate", "resize", "swap"):
        where = draw(st.sampled_from(_containers(doc)))
        box = _get(doc, where)
        if isinstance(box, dict):
            if op == "odd-key" or not box:
                keys = list(box)
                variants = [v for k in keys for v in odd_key_variants(k)] if keys else []
                key = draw(st.sampled_from(ODD_KEYS + variants[:60]))
                box[key] = draw(st.sampled_from(list(box.values()))) if box and \
                    draw(st.booleans()) else draw(odd_values)
            else:
                a, b = draw(st.sampled_from(list(box))), draw(st.sampled_from(list(box)))
                box[a], box[b] = box[b], box[a]
            return
        if op == "duplicate" and box:
            box.insert(draw(st.integers(0, len(box))), draw(st.sampled_from(box)))
        elif op == "resize":
            k = draw(st.integers(0, len(box) + 3))
            if k <= len(box):
                del box[k:]
            else:
                box += [draw(st.sampled_from(box)) if box else 0 for _ in range(k - len(box))]
        elif op == "swap" and len(box) > 1:
            i, j = draw(st.integers(0, len(box) - 1)), draw(st.integers(0, len(box) - 1))
            box[i], box[j] = box[j], box[i]
        else:
            box.append(draw(odd_values))
        return
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    parent, key = _get(doc, path[:-1]), path[-1]
    if op == "delete":
        del parent[key]
    elif op == "change":
        parent[key] = draw(odd_values)
    elif op == "nudge":
        parent[key] = nudged(draw, parent[key])
    elif op == "retype":
        parent[key] = retyped(draw, parent[key])
    else:   # copy: another field's value here (a card of one hand into another, ...)
        parent[key] = json.loads(json.dumps(_get(doc, draw(st.sampled_from(paths)))))


# ---------------------------------------------------------------------------------------------
# Raw damage to the text

def _text_of(draw) -> bytes:
    return draw(st.sampled_from(pool_texts())).encode("utf-8")


@st.composite
def damaged_files(draw) -> bytes:
    """The bytes of a position file, damaged: truncated, flipped, padded, nested deeply, not
    UTF-8, with a BOM, a 5,000-digit number, a duplicated key, or nothing at all."""
    kind = draw(st.sampled_from(
        ("truncate", "flip", "insert", "cut", "nest", "nest-unbalanced", "bom", "utf16",
         "literal", "dup-key", "junk", "whole", "pad")))
    data = _text_of(draw)
    at = draw(st.integers(0, len(data)))
    if kind == "truncate":
        return data[:at]
    if kind == "flip":
        b = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(b) - 1))
            b[i] ^= draw(st.integers(1, 255))
        return bytes(b)
    if kind == "insert":
        junk = draw(st.sampled_from([b"\xff", b"\xfe\xff", b"\xc3", b"\x00", b"\xed\xa0\x80",
                                     b"\xf4\x90\x80\x80", b"\\", b'"', b"\\ud800", b"}", b"]",
                                     b",", b"\x1b[31m", b"\r\n"]))
        return data[:at] + junk + data[at:]
    if kind == "cut":
        end = draw(st.integers(at, min(len(data), at + 200)))
        return data[:at] + data[end:]
    if kind in ("nest", "nest-unbalanced"):
        depth = draw(st.sampled_from([100, 1000, 5000, 100_000]))
        opener = draw(st.sampled_from([b"[", b'{"a":']))
        closer = b"]" if opener == b"[" else b"}"
        inner = opener * depth + (closer * depth if kind == "nest" else b"")
        where = draw(st.sampled_from([b'"board": ', b'"turn": ', b'"players": ', b'"seed": ']))
        i = data.find(where)
        if i < 0 or draw(st.booleans()):
            return inner
        i += len(where)
        return data[:i] + inner + b"," + b'"x": ' + data[i:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "utf16":
        return data.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "utf-32",
                                                                  "latin-1"])))
    if kind == "literal":
        lit = draw(st.sampled_from([str(v).encode() for v in BIG_LITERALS]))
        for key in (b'"coins": ', b'"round": ', b'"seed": ', b'"version": ', b'"to_move": '):
            i = data.find(key)
            if i >= 0 and draw(st.booleans()):
                i += len(key)
                j = i
                while j < len(data) and data[j:j + 1] not in (b",", b"}"):
                    j += 1
                return data[:i] + lit + data[j:]
        return lit
    if kind == "dup-key":
        extra = draw(st.sampled_from([b'"step": "over", ', b'"board": {"1": "Crown"}, ',
                                      b'"players": [], ', b'"version": 1, ']))
        return b"{" + extra + data[1:] if draw(st.booleans()) else data[:-1] + b", " + \
            extra.rstrip(b", ") + b"}"
    if kind == "junk":
        return draw(st.sampled_from([b"", b" ", b"null", b"[]", b"{}", b"0", b'"x"', b"true",
                                     b"\x00" * 64, b"\n" * 10, b"{" * 3, b"NaN", b"-",
                                     b"\xff" * 16]))
    if kind == "pad":
        return b" " * draw(st.sampled_from([1, 10_000, 1_000_000])) + data
    return data + draw(st.sampled_from([b"x", b"{}", b"\x00", b"\n\n", b",", b" "]))
