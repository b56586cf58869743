"""The search's Cython boundary: a full tree (node limit) ends the search with what it holds,
the search has one set of parameter defaults (the bot's), its C code names the engine's
constants, and search/ reads positions through the public API."""
import re
from pathlib import Path

import pytest
from helpers import mid_game

from ekonos import State
from search.bots import ISMCTSBot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("budget", [dict(iterations=5000), dict(seconds=30.0)])
def test_a_full_tree_ends_the_search_with_what_it_holds(budget):
    st = mid_game()
    s = ISMCTSBot().searcher()
    s.node_limit = 300
    s.run(st.view(st.to_move), st.to_move, seed=1, **budget)     # no MemoryError, no 30 s
    assert s.full and s.node_count == 300
    assert 0 < s.iterations_done < 5000
    moves = s.root_moves()          # what was searched stays readable
    assert moves and sum(m["visits"] for m in moves) <= s.iterations_done
    s.run(st.view(st.to_move), st.to_move, seed=1, iterations=10)
    assert not s.full               # a new search starts with a new tree


def test_the_node_limit_does_not_change_a_search_that_fits():
    st = mid_game()
    view = st.view(st.to_move)
    a, b = ISMCTSBot().searcher(), ISMCTSBot().searcher()
    b.node_limit = 2001
    a.run(view, st.to_move, iterations=2000, seed=4)
    b.run(view, st.to_move, iterations=2000, seed=4)
    assert a.root_moves() == b.root_moves() and a.node_count == b.node_count


def test_searcher_parameters_have_no_second_set_of_defaults():
    from search._ismcts import Searcher
    with pytest.raises(TypeError):
        Searcher()
    with pytest.raises(TypeError):
        Searcher(horizon=1)


# -- the Cython boundary names the engine's constants -------------------------------------------

def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, code) of `path`, comments, docstrings and the `cdef enum` block (where the
    named constants are defined) removed."""
    out, in_enum, in_doc = [], False, False
    for no, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("#", 1)[0]
        if code.count('"""') == 1:
            in_doc = not in_doc
            continue
        if in_doc or '"""' in code:
            continue
        if code.startswith("cdef enum"):
            in_enum = True
            continue
        if in_enum and code and not code.startswith(" "):
            in_enum = False
        if not in_enum:
            out.append((no, code))
    return out


@pytest.mark.parametrize("name", ["_ismcts.pyx", "_playout.pxd", "_net.pxd"])
def test_no_literal_stands_for_an_engine_constant_in_the_search(name):
    lines = _code_lines(ROOT / "search" / name)
    assert len(lines) > 100
    literal = re.compile(r"(?<![\w.])(4|6|10|36|48|72|74|288)(?![\w.])")
    found = [(no, code.strip()) for no, code in lines
             if literal.search(re.sub(r"'[^']*'|\"[^\"]*\"", "", code))]
    assert found == []


def test_the_search_reads_positions_through_the_public_api():
    for path in sorted((ROOT / "search").glob("*.py")):
        text = path.read_text()
        assert "_fields(" not in text, path
        assert not re.search(r"step_name\s*(==|!=|in\b|not in\b)", text), path
        assert not re.search(r"[\"'](card|expand-choice|expand|sell|buy|successor|over)[\"']\s*"
                             r"(==|!=)|(==|!=)\s*[\"'](card|expand|sell|buy)", text), path
