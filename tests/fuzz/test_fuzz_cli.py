"""The CLI in-process (click's CliRunner on `cli.main.main`): `show`, `show --json`, `apply`,
`new`.

Property of every run: exit 0, or exit 2 with exactly one line on stderr starting `Error:`, and
no traceback.  Files: the input file and an existing `-o` target are never changed (bytes and
mtime), a refused command creates nothing, and no temporary file is left behind.  What the CLI
accepts agrees with the API: `show` loads exactly the files `State.from_json` loads, `show
--json` agrees with the engine, `apply` writes what `State.push_text` computes, and every file
the CLI writes loads again.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ekonos import State, load_file
from fuzz_checks import differences, name_problem, summary_agrees
from fuzz_docs import Raw, damaged_files, dumps, mutated_positions, name_payloads, \
    named_positions, positions
from fuzz_inputs import (INT_TEXTS, SEED_TEXTS, VALID_SEEDS, VARIANT_TEXTS, canonical_notation,
                         move_texts, mostly)
from fuzz_support import assert_no_strays, assert_unchanged, found, fuzz_settings, run_cli, \
    snapshot
from fuzz_targets import IMPOSSIBLE

FAMILIES = {
    "valid": positions().map(dumps),
    "field": mutated_positions().map(dumps),
    "names": named_positions().map(dumps),
    "impossible": st.sampled_from(sorted(IMPOSSIBLE)).flatmap(lambda k: IMPOSSIBLE[k])
                    .map(dumps),
}


def _api_loads(data: bytes) -> State | None:
    """What the API makes of a file holding `data` (`load_file`, as the commands use), or None
    when it refuses it.  Errors the API must not raise are test_fuzz_positions' business."""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "api.json"
        path.write_bytes(data)
        try:
            return load_file(State, path)
        except (ValueError, IndexError, RecursionError, MemoryError):
            return None


def _shown_name(st_: State) -> str | None:
    """The name of the seat to move when it is short, printable text (so a terminal table
    cannot wrap it): it must be printed as written, never read as markup."""
    if st_.is_over():
        return None
    name = st_.names[st_.to_move]
    if len(name) <= 20 and name.isprintable() and name == name.strip():
        return name
    return None


@pytest.mark.parametrize("family", sorted(FAMILIES) + ["damaged"])
@pytest.mark.parametrize("as_json", [False, True], ids=["show", "show-json"])
@fuzz_settings(ci=30)
@given(data=st.data())
def test_show(family, as_json, data):
    """`show FILE` / `show --json FILE` on valid, mutated, named, impossible and damaged files."""
    raw = data.draw(damaged_files() if family == "damaged" else
                    FAMILIES[family].map(lambda t: t.encode("utf-8", "surrogatepass")),
                    label="file")
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        path = folder / "in.json"
        path.write_bytes(raw)
        before = snapshot(folder)
        args = ["show", "--json", str(path)] if as_json else ["show", str(path)]
        result = run_cli(args, "cli show --json" if as_json else "cli show")
        after = snapshot(folder)
    assert_unchanged("show", before, after, ["in.json"])
    assert_no_strays("show", before, after)
    st_ = _api_loads(raw)
    if (result.exit_code == 0) != (st_ is not None):
        found("wrong result")
        raise AssertionError(f"show exits {result.exit_code} but the API "
                             f"{'loads' if st_ is not None else 'refuses'} the file")
    if result.exit_code != 0:
        return
    if as_json:
        diff = summary_agrees(json.loads(result.stdout), st_)
        if diff:
            found("wrong result")
            raise AssertionError("show --json disagrees with the engine: " + "; ".join(diff[:4]))
    else:
        name = _shown_name(st_)
        if name is not None and name not in result.stdout:
            found("wrong result")
            raise AssertionError(f"the name {name!r} is not shown as written")


OUT_MODES = ("new", "existing", "stdout", "in-place")


@fuzz_settings(ci=150)
@given(data=st.data())
def test_apply(data):
    """`apply FILE MOVE... [-o OUT]`: moves from the legal list, changed or made up; OUT new,
    existing (never overwritten without --force), stdout, or FILE itself."""
    doc = data.draw(st.one_of(positions(), positions(), named_positions(), mutated_positions()),
                    label="position")
    text = dumps(doc)
    st_ = _api_loads(text.encode("utf-8", "surrogatepass"))
    legal = st_.legal_moves.texts() if st_ is not None and not st_.is_over() else []
    count = data.draw(st.sampled_from([1, 1, 1, 2, 3]), label="count")
    moves = [data.draw(move_texts(legal), label="move") for _ in range(count)]
    mode = data.draw(st.sampled_from(OUT_MODES), label="out")
    # the API's answer, for comparison
    expect = None
    if st_ is not None:
        expect = st_.copy()
        try:
            for m in moves:
                expect.push_text(m)
        except ValueError:
            expect = None
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        path = folder / "in.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out = {"new": folder / "out.json", "existing": folder / "out.json", "stdout": None,
               "in-place": path}[mode]
        if mode == "existing":
            out.write_text('{"keep": "me"}\n', encoding="utf-8")
        before = snapshot(folder)
        args = ["apply", str(path), *moves] + (["-o", str(out)] if out is not None else [])
        result = run_cli(args, "cli apply")
        after = snapshot(folder)
        written = out.read_text(encoding="utf-8") if out is not None and out.exists() else None
    ok = result.exit_code == 0
    if mode == "existing" and ok:
        found("modified file")
        raise AssertionError("apply -o OUT succeeded although OUT exists (no --force)")
    keep = ["in.json"] if not (ok and mode == "in-place") else []
    keep += ["out.json"] if mode == "existing" or (mode == "new" and not ok) else []
    assert_unchanged("apply", before, after, keep)
    assert_no_strays("apply", before, after, ["out.json"] if ok and mode == "new" else [])
    if ok and not all(canonical_notation(m) for m in moves):
        found("wrong result")
        raise AssertionError(f"apply accepted move text that is not notation: {moves}")
    if mode != "existing" and ok != (expect is not None):
        found("wrong result")
        raise AssertionError(f"apply exits {result.exit_code} but the API "
                             f"{'accepts' if expect is not None else 'refuses'} {moves}")
    if not ok:
        return
    saved = written if mode in ("new", "in-place") else result.stdout
    try:
        again = State.from_json(saved)
    except ValueError as e:
        found("wrong result")
        raise AssertionError(f"apply {moves} wrote a position that does not load: {e}") \
            from None
    assert again == expect, "apply wrote another position than the API computes"


@st.composite
def new_options(draw) -> tuple[str, str | None]:
    """--players and --names: usually as many names as players, some of them payloads."""
    n = draw(st.integers(2, 6))
    players = draw(mostly([str(n)], INT_TEXTS))
    if draw(st.integers(0, 3)) == 0:
        return players, None
    count = draw(st.sampled_from([n, n, n, n - 1, n + 1]))
    plain = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]
    names = [draw(st.one_of(st.just(plain[i]), name_payloads(max_len=3000)))
             for i in range(count)]
    return players, ",".join(names)


@fuzz_settings(ci=60)
@given(options=new_options(),
       seed=mostly(VALID_SEEDS, SEED_TEXTS),
       variant=st.one_of(st.none(), mostly(["rulebook", "bga"], VARIANT_TEXTS)),
       existing=st.booleans())
def test_new(options, seed, variant, existing):
    """`new -p N --seed S [--names ...] [--variant V] -o OUT` with odd values and payload
    names; an existing OUT is never overwritten; a game written loads and `show` shows it.
    (Always a seed: without one the deal, so who is shown first, would change between runs.)"""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        out = folder / "new.json"
        if existing:
            out.write_text("{}\n", encoding="utf-8")
        before = snapshot(folder)
        players, names = options
        args = ["new", "-p", players, "-o", str(out)]
        for flag, value in (("--seed", seed), ("--names", names), ("--variant", variant)):
            if value is not None:
                args += [flag, value]
        result = run_cli(args, "cli new")
        after = snapshot(folder)
        if existing:
            assert_unchanged("new", before, after, ["new.json"])
        elif result.exit_code != 0:
            assert_unchanged("new", before, after, ["new.json"])
        assert_no_strays("new", before, after, ["new.json"])
        if result.exit_code != 0 or existing:
            return
        st_ = State.from_json(out.read_text(encoding="utf-8"))
        shown = run_cli(["show", str(out)], "cli show (after new)")
    if shown.exit_code != 0:
        found("wrong result")
        raise AssertionError(f"new wrote a game that show refuses: {shown.stderr.strip()}")
    problem = name_problem(st_.names)
    if problem:
        found("wrong result")
        raise AssertionError(f"new accepted {problem}")


# ---------------------------------------------------------------------------------------------
# Reproductions of inputs that once broke a command, always tried (random generation may miss
# one on a given run)

def _game(**change) -> str:
    """`ekonos new -p 3 --seed 42` with fields changed (dotted paths: "players.2.name")."""
    d = State.new(3, seed=42).to_dict()
    for path, value in change.items():
        *where, last = path.split(".")
        box = d
        for p in where:
            box = box[int(p)] if isinstance(box, list) else box[p]
        box[int(last) if isinstance(box, list) else last] = value
    return dumps(d)


REPRODUCTIONS = {
    "nested-100000": "[" * 100_000 + "]" * 100_000,
    "5000-digits": _game(**{"players.0.coins": Raw("1" * 5000)}),
    "board-key-superscript": _game(board={"²": "Crown"}),
    "board-key-aliases": _game(board={"1": "Sunset", "01": "Crown", "001": "Hydra"}),
    "board-key-arabic": _game(board={"1": "Sunset", "١": "Crown"}),
    "version-true": _game(version=True),
    "version-float": _game(version=1.0),
    "name-markup-close": _game(**{"players.0.name": "[/]"}),
    "name-markup-red": _game(**{"players.0.name": "[red]Bo"}),
    "name-surrogate": _game(**{"players.0.name": "\ud800"}),
}


@pytest.mark.parametrize("command", ["show", "show --json", "hint -i 10", "apply pass"])
@pytest.mark.parametrize("case", sorted(REPRODUCTIONS))
def test_reproduced_files(case, command):
    """Each reproduced file (huge, odd keys or names, wrong version type) gives a one-line
    refusal or a correct result."""
    text = REPRODUCTIONS[case]
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "g.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        words = command.split()
        before = snapshot(Path(tmp))
        result = run_cli([words[0], str(path), *words[1:]], f"cli {words[0]} (reproduction)")
        assert_unchanged(command, before, snapshot(Path(tmp)), ["g.json"])
    st_ = _api_loads(text.encode("utf-8", "surrogatepass"))
    assert (result.exit_code == 0) == (st_ is not None) or words[0] == "apply"
    if st_ is not None:
        assert not differences(json.loads(text), st_), "loaded, but not as the file says"
        if words[:2] == ["show", "--json"]:
            assert not summary_agrees(json.loads(result.stdout), st_)
        elif words[0] in ("show", "hint") and _shown_name(st_):
            assert _shown_name(st_) in result.stdout, "a name is shown as written"


@pytest.mark.parametrize("move", ["play １４ place ١", "play 1_4 place +1", "play ١٤ place ١",
                                  "play +14 place 1", "play 14 place ＋1"])
def test_reproduced_move_text(move):
    """Move text with non-ASCII or odd numerals is refused (exit 2)."""
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        path = Path(tmp) / "g.json"
        path.write_text(_game(), encoding="utf-8")
        result = run_cli(["apply", str(path), move], "cli apply (reproduction)")
    assert result.exit_code == 2, f"apply accepted {move!r}"
