"""Position files through the API (`State.from_dict`, `State.from_json`, `load_file`).

Properties: loading raises only EkonosError / ValueError / IndexError; a position that loads
is possible (fuzz_targets.check_possible), round-trips, says what the file said, and continues
into positions that load again.  Inputs: every pool position, field-level mutations, name
payloads, impossible states built on purpose, damaged JSON text.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ekonos import State, load_file
from fuzz_checks import continue_with, differences, name_problem, round_trip
from fuzz_docs import damaged_files, dumps, mutated_positions, named_positions
from fuzz_positions import pool
from fuzz_support import API_ERRORS, api_call, found, fuzz_settings, tried
from fuzz_targets import IMPOSSIBLE, buy_keeps_token_limit, check_possible, near_token_limit


def check_loaded(doc: dict, st_: State, index: int) -> None:
    """Everything a position that loaded must satisfy."""
    diff = differences(doc, st_)
    if diff:
        found("wrong result")
        raise AssertionError("loaded, but not as the file says: " + "; ".join(diff[:4]))
    try:
        check_possible(st_)
    except AssertionError as e:
        found("wrong result")
        raise AssertionError(f"an impossible position loaded: {e}") from None
    round_trip(st_)
    if not st_.is_over() and st_.count_legal():
        continue_with(st_, index)


def test_every_pool_position_loads_and_is_possible():
    """The generator's positions (random games, every step, 2-6 players) are valid: the
    mutations below start from positions the loader accepts."""
    docs = pool()
    for i, doc in enumerate(docs):
        ok, st_ = api_call("api State.from_dict", State.from_dict, doc)
        assert ok, f"pool position {i} ({doc['step']}) refused: {st_}"
        check_loaded(doc, st_, i)
    assert {d["step"] for d in docs} == {"card", "expand-choice", "expand", "sell", "buy",
                                         "successor", "over"}


@fuzz_settings(ci=500)
@given(doc=mutated_positions(), index=st.integers(0, 500))
def test_field_mutations(doc, index):
    """Change, delete or retype any field at any depth; odd keys, numbers, duplicates, sizes."""
    text = dumps(doc)
    ok, st_ = api_call("api State.from_json", State.from_json, text)
    if ok:
        check_loaded(json.loads(text), st_, index)


@fuzz_settings(ci=120)
@given(doc=named_positions(), index=st.integers(0, 500))
def test_name_payloads(doc, index):
    """Markup, surrogates, control characters, long names, duplicates after case-folding: a
    name that loads is text a terminal can show and tell apart from the others."""
    ok, st_ = api_call("api State.from_dict", State.from_dict, doc)
    if not ok:
        return
    problem = name_problem(st_.names)
    if problem:
        found("wrong result")
        raise AssertionError(f"loaded {problem}")
    check_loaded(doc, st_, index)


@pytest.mark.parametrize("family", sorted(IMPOSSIBLE))
@fuzz_settings(ci=40)
@given(data=st.data())
def test_impossible_positions(family, data):
    """Positions that pass every field check yet cannot arise: each family
    must be refused, or load as a possible position that says what the file said."""
    doc = data.draw(IMPOSSIBLE[family], label=family)
    text = dumps(doc)
    ok, st_ = api_call("api State.from_json", State.from_json, text)
    if ok:
        check_loaded(json.loads(text), st_, data.draw(st.integers(0, 500), label="move"))


@fuzz_settings(ci=40)
@given(doc=near_token_limit())
def test_token_limit_on_buy(doc):
    """R17: with 4-6 players no legal buy takes the buyer past 18 tokens,
    including a buy that makes the buyer president (share and marker)."""
    tried("api State.push (buy)")
    st_ = State.from_dict(doc)      # built valid: a refusal here is a bug of the generator
    bad = buy_keeps_token_limit(st_)
    if bad:
        found("wrong result")
        raise AssertionError(f"seat {st_.to_move} with {st_.tokens(st_.to_move)} tokens may "
                             f"buy past the limit: {bad[:3]}")


@fuzz_settings(ci=150)
@given(data=damaged_files())
def test_damaged_text(tmp_path_factory, data):
    """Truncated, flipped, nested, non-UTF-8 and oversized text: `load_file` and `from_json`
    refuse it with an EkonosError/ValueError, or load a possible position."""
    path = tmp_path_factory.mktemp("damaged") / "x.json"
    path.write_bytes(data)
    ok, st_ = api_call("api load_file", load_file, State, path)
    text = data.decode("utf-8", "replace")
    ok2, st2 = api_call("api State.from_json", State.from_json, text)
    for good, state in ((ok, st_), (ok2, st2)):
        if good:
            check_possible(state)
            round_trip(state)
    assert path.read_bytes() == data


def test_api_errors_are_value_errors():
    """The property's premise: EkonosError is a ValueError (callers catch one class)."""
    assert all(issubclass(e, (ValueError, IndexError)) for e in API_ERRORS)
