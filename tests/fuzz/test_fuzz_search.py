"""In-process fuzzing of the commands and calls that search or play, with budgets that cannot
hang (`hint -i` at most 20, one worker; `arena` with instant bots and one or two games; `play
--load` at level 1 with `quit` typed at once), plus the API's `parse_move` and `make_bot`.

Runs that could segfault or hang on a bad value (more workers than iterations, NaN or infinite
budgets, bot specs that reach the C search) are in test_fuzz_subprocess.py.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from ekonos import State
from fuzz_docs import dumps, mutated_positions, named_positions, positions
from fuzz_positions import fresh, pool
from fuzz_inputs import (INT_TEXTS, ODD_ITERATIONS, SEED_TEXTS, SMALL_ITERATIONS, VALID_SEEDS,
                         VARIANT_TEXTS, bot_specs, canonical_notation, move_texts, mostly,
                         spec_demands_refusal)
from fuzz_support import (api_call, assert_no_strays, assert_unchanged, found,
                          fuzz_settings, run_cli, snapshot)
from search.bots import Bot, make_bot


#: A card step whose hand is known: `hint` must advise a card even after a single iteration.
_CARD_STEP = next(d for d in pool("card") if d["players"][d["to_move"]]["hand"] is not None)


def _short_name(st_: State) -> str | None:
    name = st_.names[st_.to_move]
    return name if len(name) <= 20 and name.isprintable() and name == name.strip() else None


@fuzz_settings(ci=40)
@given(doc=st.one_of(positions(), named_positions(), mutated_positions()),
       iterations=mostly(SMALL_ITERATIONS, ODD_ITERATIONS),
       top=mostly(["1", "3", "100", "99999999999999999999"], INT_TEXTS),
       workers=mostly(["1"], ["0", "-1", "x", ""]), as_json=st.booleans(),
       seed=mostly(VALID_SEEDS, SEED_TEXTS))
@example(doc=fresh(_CARD_STEP), iterations="1", top="3", workers="1", as_json=True, seed="0")
@example(doc=fresh(_CARD_STEP), iterations="3", top="1", workers="1", as_json=True, seed="7")
def test_hint(doc, iterations, top, workers, as_json, seed):
    """`hint FILE -i N -k K [-w 1] [--seed S] [--json]`: the advice is one or more legal
    decisions of the seat to move, and a player's name is shown as written (never as markup)."""
    text = dumps(doc)
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp)
        path = folder / "in.json"
        path.write_text(text, encoding="utf-8")
        before = snapshot(folder)
        args = ["hint", str(path), "-i", iterations, "-k", top, "-w", workers, "--seed", seed]
        result = run_cli(args + (["--json"] if as_json else []), "cli hint")
        after = snapshot(folder)
    assert_unchanged("hint", before, after, ["in.json"])
    assert_no_strays("hint", before, after)
    if result.exit_code != 0:
        return
    st_ = State.from_json(text)
    if as_json:
        advice = json.loads(result.stdout)
        legal = set(st_.legal_moves.texts())
        assert advice["to_move"] == st_.to_move
        bad = [m["move"] for m in advice["moves"] if m["move"] not in legal]
        if bad or not advice["moves"]:
            found("wrong result")
            raise AssertionError(f"hint advises {bad or 'nothing'}; legal: {sorted(legal)[:8]}")
    else:
        name = _short_name(st_)
        if name is not None and name not in result.stdout:
            found("wrong result")
            raise AssertionError(f"hint does not show the name {name!r} as written")


SAFE_SPECS = ["RANDOM", " random ", "flat:iterations=3", "random:",
              "foo", "", ":", "random:x=1", "level0", "level6", "greedy:iterations=5",
              "flat:iterations=0", "flat:iterations=-3", "flat:iterations=x", "ismcts:c=",
              "ismcts:iterations=0", "ismcts:workers=0,iterations=5", "flat:policy=heavy",
              "ismcts:reward=x,iterations=5", "level:3:x"]


@fuzz_settings(ci=20)
@given(players=mostly(["2", "3", "4", "6"], INT_TEXTS),
       bots=st.lists(mostly(["random", "greedy", "flat:iterations=3"], SAFE_SPECS),
                     min_size=1, max_size=7),
       games=mostly(["1", "2"], ["0", "-1", "x", "", "1.5", "nan"]),
       workers=mostly(["1"], ["0", "-1", "x"]), seed=mostly(VALID_SEEDS, SEED_TEXTS),
       variant=mostly(["rulebook", "bga"], VARIANT_TEXTS), as_json=st.booleans())
def test_arena(players, bots, games, workers, seed, variant, as_json):
    """`arena` with instant bots (or specs refused before any game), odd counts and seeds."""
    args = ["arena", "-p", players, "-n", games, "-w", workers, "--seed", seed,
            "--variant", variant]
    for b in bots:
        args += ["--bot", b]
    result = run_cli(args + (["--json"] if as_json else []), "cli arena")
    if result.exit_code == 0 and as_json:
        out = json.loads(result.stdout)
        total = sum(b["games"] for b in out["bots"])
        assert total == out["games"] * out["players"], "every seat of every game is counted"


@fuzz_settings(ci=20)
@given(doc=st.one_of(positions(), named_positions(), mutated_positions()),
       seat=st.one_of(st.none(), st.sampled_from(["0", "1", "5", "-1", "x", "99999999999"])),
       typed=st.sampled_from(["quit\n", "", "list\nquit\n", "help\nq\n", "undo\nquit\n",
                              "\x00\nquit\n", "play １ place ٣\nquit\n", "save\nquit\n",
                              "save {in}\nquit\n", "save {in}\nn\nquit\n",
                              "save {tmp}/nowhere/deeper/x.json\nquit\n",
                              "save {in}/x.json\nquit\n", "save {tmp}/in\nquit\n"]))
@example(doc=fresh(_CARD_STEP), seat=None, typed="save {in}\nquit\n")
@example(doc=fresh(_CARD_STEP), seat=None, typed="save {tmp}/nowhere/deeper/x.json\nquit\n")
@example(doc=fresh(_CARD_STEP), seat=None, typed="save {in}/x.json\nquit\n")
def test_play_load(doc, seat, typed):
    """`play --load FILE --level 1 [--seat K]` then a few commands, `save` among them: the
    loaded file is never replaced without a yes, no folder is created; the
    game is saved in the data folder only."""
    text = dumps(doc)
    try:
        to_move = State.from_json(text).to_move
    except ValueError:
        to_move = None
    with tempfile.TemporaryDirectory(prefix="ekonos-fuzz-") as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        path = folder / "in.json"
        path.write_text(text, encoding="utf-8")
        before = snapshot(folder)
        args = ["play", "--load", str(path), "--level", "1"]
        if seat is None and to_move is not None:
            seat = str(to_move)        # the person decides first: no AI search before `quit`
        if seat is not None:
            args += ["--seat", seat]
        typed = typed.format(tmp=tmp, **{"in": path})
        run_cli(args, "cli play --load", input=typed,
                env={"EKONOS_DATA_DIR": str(Path(tmp) / "data")})
        after = snapshot(folder)
        made = sorted(p.name for p in Path(tmp).iterdir())
    if made != ["data", "in"] and made != ["in"]:
        found("modified file")
        raise AssertionError(f"play created {sorted(set(made) - {'data', 'in'})} in {tmp}")
    assert_unchanged("play --load", before, after, ["in.json"])
    assert_no_strays("play --load", before, after)


@fuzz_settings(ci=200)
@given(data=st.data())
@example(data=None)
def test_parse_move(data):
    """`State.parse_move(text)`: a Move that is legal here, from notation text only (no `１４`,
    `١`, `1_4`, `+1`), or a MoveError."""
    if data is None:             # texts that were once accepted, always tried
        st_ = State.new(3, seed=42)
        texts = ["play １４ place ١", "play 1_4 place +1", "play 14 place 1"]
    else:
        doc = data.draw(positions(), label="position")
        st_ = State.from_dict(doc)
        legal = st_.legal_moves.texts() if not st_.is_over() else []
        texts = [data.draw(move_texts(legal), label="text")]
    for text in texts:
        ok, move = api_call("api State.parse_move", st_.parse_move, text)
        if not ok:
            continue
        if not canonical_notation(text):
            found("wrong result")
            raise AssertionError(f"parse_move accepted {text!r} (not notation) as {move}")
        if move not in st_.legal_moves:
            found("wrong result")
            raise AssertionError(f"parse_move({text!r}) gave {move}, which is not legal")
        after = st_.copy()
        ok, _ = api_call("api State.push", after.push, move)
        assert ok, f"push({move}) refused a move parse_move returned"


@fuzz_settings(ci=300)
@given(spec=bot_specs(), seed=st.sampled_from([0, 1, 2**64 - 1, 2**64, -1, 10**30]))
@example(spec="ismcts:c=nan,iterations=100", seed=0)
@example(spec="ismcts:iterations=99999999999999999999", seed=0)
@example(spec="ismcts:time=inf", seed=0)
@example(spec="ismcts:time=nan", seed=0)
@example(spec="flat:iterations=0", seed=0)
@example(spec="flat:iterations=-3", seed=0)
@example(spec="ismcts:group=99999999999999999999", seed=0)
def test_make_bot(spec, seed):
    """`make_bot(spec, seed)`: a Bot, or SpecError/ValueError naming the spec; a spec with a
    non-finite, negative or absurd value is refused."""
    ok, bot = api_call("api make_bot", make_bot, spec, seed)
    if not ok:
        return
    assert isinstance(bot, Bot)
    why = spec_demands_refusal(spec)
    if why:
        found("wrong result")
        raise AssertionError(f"make_bot({spec!r}) accepted it: {why}")
