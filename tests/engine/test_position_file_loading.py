"""Loading position files: a bad file is refused with a PositionError, never a traceback.

Both entry points are checked: `load_file` (what `show`, `apply`, `hint`, `play --load` call)
and `State.from_json`.  The size cap (MAX_FILE_BYTES, 1 MiB, docs/position-format.md) makes a
device or a huge file a refusal instead of a MemoryError; whatever `json.loads` can raise becomes
one message.
"""
from __future__ import annotations

import copy
import json
import math
import random

import pytest
from helpers import position

from ekonos import PositionError, State, load_file
from ekonos.files import MAX_FILE_BYTES


def valid() -> dict:
    return position(3, hands={0: [1, 2, 3, 4, 5], 1: [6, 7, 8, 9, 10, 11]}, discard=[36],
                    step="buy", coins=[4, 0, 9], turn={"player": 0, "card": 36, "sold": False},
                    shares={"Crown": [2, 1, 0]}, board={1: "Crown", 2: "Sunset!"})


def refuse_text(text, tmp_path, words: str = "") -> PositionError:
    """The text is refused by from_json and, written to a file, by load_file."""
    with pytest.raises(PositionError) as e1:
        State.from_json(text)
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    with pytest.raises(PositionError) as e2:
        load_file(State, path)
    assert words in str(e1.value) and words in str(e2.value), (e1.value, e2.value)
    assert "\n" not in str(e2.value)
    return e2.value


def test_valid_base_loads(tmp_path):
    assert State.from_json(json.dumps(valid())).step_name == "buy"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_before_reading(device):
    with pytest.raises(PositionError, match="a device, not a position file"):
        load_file(State, device)


def test_the_cap_is_1_mib_exactly(tmp_path):
    text = json.dumps(valid())
    path = tmp_path / "padded.json"
    path.write_text(text + " " * (MAX_FILE_BYTES - len(text)), encoding="utf-8")
    assert load_file(State, path).step_name == "buy"            # exactly 1 MiB: read
    path.write_text(text + " " * (MAX_FILE_BYTES + 1 - len(text)), encoding="utf-8")
    with pytest.raises(PositionError, match="larger than"):    # one byte more: refused
        load_file(State, path)
    with pytest.raises(PositionError, match="at most 1048576"):
        State.from_json(text + " " * (MAX_FILE_BYTES + 1 - len(text)))


def test_deep_nesting_is_refused(tmp_path):
    refuse_text("[" * 100_000, tmp_path, "nested too deeply")
    d = valid()
    d["comment"] = "x"
    text = json.dumps(d).replace('"x"', "[" * 100_000 + "]" * 100_000)
    refuse_text(text, tmp_path, "nested too deeply")


def test_nesting_python_can_read_is_refused_by_field():
    d = valid()
    nested: list = []
    for _ in range(500):
        nested = [nested]
    d["format"] = nested
    with pytest.raises(PositionError) as e:
        State.from_json(json.dumps(d))
    assert e.value.field == "format" and len(str(e.value)) < 100


def test_integer_of_5000_digits_is_refused(tmp_path):
    text = json.dumps(valid()).replace('"coins": 4', '"coins": ' + "7" * 5000)
    refuse_text(text, tmp_path, "a number is too long")


def test_board_key_superscript_two_is_refused(tmp_path):
    d = valid()
    d["board"]["\u00b2"] = "Panda"
    e = refuse_text(json.dumps(d), tmp_path)
    assert e.field == "board"


def test_a_key_given_twice_is_refused(tmp_path):
    text = json.dumps(valid()).replace('"1": "Crown"', '"1": "Crown", "1": "Hydra"')
    refuse_text(text, tmp_path, 'the key "1" appears twice')


def test_not_json_and_not_utf8(tmp_path):
    refuse_text("\x00\x01", tmp_path, "not valid JSON")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(json.dumps(valid()).replace("Anna", "Ann\u00e9").encode("latin-1"))
    with pytest.raises(PositionError, match="not UTF-8"):
        load_file(State, bad)
    with pytest.raises(PositionError, match="not UTF-8"):
        State.from_json(b"\xff{}")
    with pytest.raises(PositionError, match="JSON text"):
        State.from_json(12)                                    # type: ignore[arg-type]


def test_utf8_bom_and_bytes_are_read(tmp_path):
    text = json.dumps(valid())
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_file(State, path) == State.from_json(text.encode())


def test_path_with_a_nul_byte_is_refused():
    with pytest.raises(PositionError):
        load_file(State, "bad\0name.json")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999", "4.0", "true"])
def test_non_integer_numbers_are_refused_by_field(literal):
    text = json.dumps(valid()).replace('"coins": 4', f'"coins": {literal}')
    with pytest.raises(PositionError) as e:
        State.from_json(text)
    assert e.value.field == "players[0].coins"


def test_long_values_are_cut_in_messages():
    d = valid()
    d["variant"] = "v" * 100_000
    with pytest.raises(PositionError) as e:
        State.from_json(json.dumps(d))
    assert e.value.field == "variant" and len(str(e.value)) < 120


# ---------------------------------------------------------------------------------------------
# Damage at random: raw text damage and field-level odd values.  Property: a PositionError, or a
# state whose file loads back equal; nothing else.

ODD = [None, True, False, 0, -1, 1.5, 10**30, -(10**30), "", "x", "\ud800", "1", [], {}, [0],
       {"a": 1}, math.nan, math.inf, "Sunset!", "37", "\u00b2", "\u0661"]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _check(text: str) -> str:
    try:
        st = State.from_json(text)
    except PositionError as e:
        assert "\n" not in str(e)
        return "refused"
    assert State.from_json(st.to_json()) == st
    return "loaded"


def test_field_level_odd_values_are_refused_or_load():
    rng = random.Random(11)
    bases = [valid(), position(4, hands={0: [1, 2, 3, 4, 5, 6]}, shares={"Panda": [1, 0, 0, 2]}),
             position(3, hands={0: [7]}, discard=list(range(21, 36)), start=0,
                      board={5: "Hydra"}, growth={"Hydra": 6}, shares={"Hydra": [0, 1, 0]},
                      step="expand", to_move=1,
                      turn={"player": 2, "card": 35, "sold": False,
                            "expansion": {"company": "Hydra", "actions_left": 3, "from": [5]}})]
    outcomes = {"refused": 0, "loaded": 0}
    for base in bases:
        State.from_dict(base)                   # each base is valid
        paths = list(_paths(base))[1:]
        for _ in range(700):
            d = copy.deepcopy(base)
            path = rng.choice(paths)
            obj = d
            for k in path[:-1]:
                obj = obj[k]
            if rng.random() < 0.1 and isinstance(obj, dict):
                del obj[path[-1]]
            else:
                obj[path[-1]] = rng.choice(ODD)
            outcomes[_check(json.dumps(d))] += 1
    assert outcomes["refused"] > 1000 and outcomes["loaded"] > 20


def test_raw_text_damage_is_refused_or_loads():
    rng = random.Random(12)
    text = json.dumps(valid(), indent=1)
    outcomes = {"refused": 0, "loaded": 0}
    for _ in range(1500):
        t = list(text)
        for _ in range(rng.choice([1, 1, 2, 5])):
            i = rng.randrange(len(t))
            op = rng.random()
            if op < 0.4:
                del t[i]
            elif op < 0.8:
                t.insert(i, rng.choice('[]{}",:0123456789-.eE \\u\u00b2\ud800nulltrue'))
            else:
                t[i:] = t[i:i + rng.randrange(len(t))]
        outcomes[_check("".join(t))] += 1
    assert outcomes["refused"] > 1000 and outcomes["loaded"] > 5
