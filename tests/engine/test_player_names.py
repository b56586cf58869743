"""Player names (the game layer's part): one validator of player names for every entry.

`ekonos.names.check_names` serves `State.new` (hence the CLI's `--name`/`--names`) and position
files.  Decision: names are *trimmed* (surrounding whitespace removed, the trimmed name kept)
at every entry; then 1-40 characters, no control / surrogate / line-break / bidirectional
control characters, not a number, and distinct after NFKC normalisation and case-folding.
"""
from __future__ import annotations

import copy
import json

import pytest
from helpers import position

from ekonos import EkonosError, PositionError, State
from ekonos.names import MAX_NAME_LENGTH, check_names, name_problem

BAD = [
    # (name, words of the reason)
    ("", "empty"),
    ("   ", "empty"),
    ("x" * 41, "41 characters"),
    ("x" * 100_000, "100000 characters"),
    ("\ud800", "U+D800"),
    ("Ann\udfff", "U+DFFF"),
    ("Ann\x00", "U+0000"),
    ("A\tnn", "U+0009"),
    ("A\nnn", "U+000A"),
    ("Ann\x1b[31m", "U+001B"),
    ("Ann\u2028Bo", "U+2028"),
    ("\u202eevil", "U+202E"),
    ("2", "number"),
    ("+1", "number"),
    ("-3", "number"),
    ("1_0", "number"),
    ("\u0661", "number"),          # Arabic-Indic digit one
    ("\uff11\uff14", "number"),    # full-width 14
    ("2.5", "number"),
    ("1e3", "number"),
    (7, "must be text"),
    (None, "must be text"),
]


@pytest.mark.parametrize("name, words", BAD, ids=[repr(b[0])[:20] for b in BAD])
def test_bad_name_refused_by_state_new_and_by_files(name, words):
    with pytest.raises(EkonosError) as e:
        State.new(3, seed=1, names=["Anna", name, "Cy"])
    assert str(e.value).startswith("names[1]: ") and words in str(e.value)
    assert len(str(e.value)) < 200 and "\n" not in str(e.value)
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]})
    d["players"][1]["name"] = name
    for load in (State.from_dict, lambda d: State.from_json(json.dumps(d))):
        with pytest.raises(PositionError) as e:
            load(copy.deepcopy(d))
        assert e.value.field == "players[1].name" and words in e.value.reason


@pytest.mark.parametrize("names, clash", [
    (["Ann", "ann", "Cy"], 1),
    (["Ann", " Ann ", "Cy"], 1),
    (["Ann", "Bo", "ANN"], 2),
    (["Stra\u00dfe", "Bo", "STRASSE"], 2),          # case-folding, not lower()
    (["\uff21nn", "Bo", "ann"], 2),                 # full-width A: NFKC
    (["Zo\u00eb", "Zoe\u0308", "Cy"], 1),           # composed and decomposed e-diaeresis
])
def test_names_equal_after_trimming_or_case_folding_are_duplicates(names, clash):
    with pytest.raises(EkonosError) as e:
        State.new(3, seed=1, names=names)
    assert str(e.value).startswith(f"names[{clash}]: ") and "same name as names[" in str(e.value)
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, names=names)
    with pytest.raises(PositionError) as e2:
        State.from_dict(d)
    assert e2.value.field == f"players[{clash}].name"


def test_names_are_trimmed_consistently_at_every_entry():
    st = State.new(3, seed=1, names=["  Ann", "Bo  ", "\tCy\n"])
    assert st.names == ["Ann", "Bo", "Cy"]
    d = position(3, hands={0: [1, 2, 3, 4, 5, 6]}, names=[" Ann ", "Bo", "Cy"])
    back = State.from_dict(d)
    assert back.names == ["Ann", "Bo", "Cy"]
    assert back.to_dict()["players"][0]["name"] == "Ann"


@pytest.mark.parametrize("name", ["x" * MAX_NAME_LENGTH, "Anna Maria", "[/]", "[red]Bo",
                                  "Nan", "Inf", "2nd", "\u00c9lodie", "\u674e\u56db",
                                  "\U0001F468\u200d\U0001F469\u200d\U0001F467", "O'Neil",
                                  "\u0645\u062d\u0645\u062f"])
def test_good_names_are_kept_as_typed(name, tmp_path):
    assert name_problem(name) is None
    st = State.new(3, seed=1, names=["Anna", name, "Cy"])
    assert st.names[1] == name
    from ekonos import load_file, save_file
    path = tmp_path / "g.json"
    save_file(st, path)
    assert load_file(State, path).names[1] == name


def test_names_must_be_a_list():
    with pytest.raises(EkonosError, match="list of names"):
        State.new(2, seed=1, names="AB")           # type: ignore[arg-type]


def test_check_names_reports_through_the_given_error():
    with pytest.raises(PositionError) as e:
        check_names(["Ann", ""], field="who[{}]".format, error=PositionError)
    assert e.value.field == "who[1]"
    assert check_names([" A ", "B"]) == ["A", "B"]
