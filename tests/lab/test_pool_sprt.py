"""search/lab/pool_sprt.py (`ekonos lab pool-sprt`): one SPRT over several shards of the same
arena test, and one clear error for runs that are not one test."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab import pool_sprt

CMD = ["lab", "pool-sprt"]               # the command under test
from search.lab.sprt import Sprt

# two shards' pentanomial units (a pair's points / 2), as the arena would have fed them
SHARD_A = [1.0, 0.5, 0.75, 1.0, 0.0, 0.5, 1.0, 0.5, 1.0, 0.25]
SHARD_B = [0.5, 1.0, 1.0, 0.75, 0.5, 1.0, 0.0, 1.0, 1.0, 1.0, 0.5, 1.0]


def run(units: list[float], test: str = "a", elo1: float = 40.0) -> dict:
    """An arena --sprt --json result holding these units, made by the arena's own Sprt."""
    s = Sprt(0, elo1)
    for u in units:
        s.add(u, 2)
    return {"players": 2, "sprt": {"test": test, "base": "b", **s.result()}}


def test_pooled_shards_are_the_test_fed_every_unit():
    steps = pool_sprt.pool([run(SHARD_A), run(SHARD_B)])
    whole = Sprt(0, 40)
    for u in SHARD_A + SHARD_B:
        whole.add(u, 2)
    first = Sprt(0, 40)
    for u in SHARD_A:
        first.add(u, 2)
    assert [s.units for s in steps] == [10, 22] and [s.games for s in steps] == [20, 44]
    assert steps[0].llr == pytest.approx(first.llr) and steps[1].llr == pytest.approx(whole.llr)
    est = whole.elo()
    assert steps[1].elo == pytest.approx(est.elo)
    assert steps[1].elo_ci == pytest.approx((est.low, est.high))
    assert steps[1].state == whole.state
    assert steps[1].llr > steps[0].llr > 0           # the second shard adds evidence for H1


def test_a_pooled_test_can_accept():
    steps = pool_sprt.pool([run([1.0] * 20), run([1.0] * 20)])
    assert steps[1].llr >= steps[1].upper and steps[1].state == "H1"


def test_a_run_after_the_pooled_test_was_decided_is_refused_with_the_order_to_give():
    decided = run([1.0] * 20)
    decided["sprt"]["outcomes"] = [[1.0, 60]]     # a shard whose own test stopped at H1
    with pytest.raises(ValueError, match=r"run 2 cannot be added: the pooled test already "
                       r"accepted H1 after run 1 .*put a run whose own test stopped at a bound"):
        pool_sprt.pool([decided, run(SHARD_A)])
    assert pool_sprt.pool([run(SHARD_A), decided])[-1].state == "H1"


def test_the_command_says_to_give_a_decided_run_last(tmp_path):
    first, second = tmp_path / "decided.json", tmp_path / "later.json"
    decided = run([1.0] * 20)
    decided["sprt"]["outcomes"] = [[1.0, 60]]
    first.write_text(json.dumps(decided))
    second.write_text(json.dumps(run(SHARD_A)))
    out = CliRunner().invoke(main, [*CMD, str(first), str(second)])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert "Error: run 2 cannot be added" in out.output and "stopped at a bound last" in out.output
    assert CliRunner().invoke(main, [*CMD, str(second), str(first)]).exit_code == 0


@pytest.mark.parametrize("other, words", [
    (run(SHARD_B, test="c"), "test 'c' against 'a'"),
    (run(SHARD_B, elo1=50.0), "elo1 50.0 against 40.0"),
    ({"players": 2, "bots": []}, "run 2 has no SPRT"),
])
def test_runs_of_another_test_are_refused(other, words):
    with pytest.raises(ValueError, match=words):
        pool_sprt.pool([run(SHARD_A), other])


def test_the_command_prints_each_step_and_refuses_bad_input(tmp_path):
    a, b, bad = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "bad.json"
    a.write_text(json.dumps(run(SHARD_A)))
    b.write_text(json.dumps(run(SHARD_B)))
    bad.write_text("{not json")
    out = CliRunner().invoke(main, [*CMD, str(a), str(b)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("a against b: SPRT(0, 40)")
    assert "a.json: 20 games" in lines[1] and "b.json: 44 games" in lines[2]
    for args in ([str(a), str(bad)], [str(a), str(tmp_path / "missing.json")], []):
        out = CliRunner().invoke(main, [*CMD, *args])
        assert out.exit_code == 2 and "Traceback" not in out.output, args


LEVEL5 = "ismcts:iterations=300000,horizon=1,plain=1,c=0.3,root=halving"


def test_bots_are_compared_by_full_spec_and_a_bare_level_must_be_named():
    spelled = run(SHARD_A, test=LEVEL5)
    reordered = run(SHARD_B, test="ismcts:root=halving,c=0.3,plain=1,horizon=1,iterations=300000")
    assert pool_sprt.pool([spelled, reordered])[1].games == 44     # same spec, other order
    bare = run(SHARD_B, test="level5")
    with pytest.raises(ValueError, match="names 'level5' without its spec.*--spec level5="):
        pool_sprt.pool([spelled, bare])
    assert pool_sprt.pool([spelled, bare], {"level5": LEVEL5})[1].games == 44
    recorded = dict(bare, specs={"level5": LEVEL5})                 # what the arena writes now
    assert pool_sprt.pool([spelled, recorded])[1].games == 44
    for junk in ([LEVEL5], {"level5": 5}):                           # a hostile record
        with pytest.raises(ValueError, match="without its spec"):
            pool_sprt.pool([spelled, dict(bare, specs=junk)])
    other = dict(bare, specs={"level5": LEVEL5.replace("300000", "75000")})
    with pytest.raises(ValueError, match="is not the same test"):
        pool_sprt.pool([spelled, other])


def test_the_spec_option_is_checked(tmp_path):
    a = tmp_path / "a.json"
    a.write_text(json.dumps(run(SHARD_A)))
    out = CliRunner().invoke(main, [*CMD, str(a), "--spec", "level5"])
    assert out.exit_code == 2 and "give LABEL=SPEC" in out.output


def test_a_label_that_is_itself_a_spec_can_be_named(tmp_path):
    """`--spec LABEL=SPEC` where LABEL is a spec with parameters (it holds '=' itself): the text
    is split where a bot spec begins, and the two runs pool as one test."""
    old, new = (f"ismcts:iterations=100,c={c},horizon=1,plain=1,root=halving" for c in (0.5, 0.6))
    assert pool_sprt.parse_given([f"{old}={new}"]) == {old: new}
    assert pool_sprt.parse_given([f"level5={LEVEL5}"]) == {"level5": LEVEL5}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(run(SHARD_A, test=old)))
    b.write_text(json.dumps(run(SHARD_B, test=new)))
    out = CliRunner().invoke(main, [*CMD, str(a), str(b)])
    assert out.exit_code == 2 and "is not the same test" in out.output
    out = CliRunner().invoke(main, [*CMD, str(a), str(b), "--spec", f"{old}={new}"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[2].startswith(f"{b}: 44 games")     # the pooled step


def test_a_model_compares_by_its_content_not_the_path_it_was_given_by(tmp_path, monkeypatch):
    """A shard run here with `model=/abs/…/eval-X.json` and one run elsewhere with
    `model=rel/…/eval-X.json` are one test; so are two copies of one unnamed file; a file of
    other content is another test."""
    shipped = pool_sprt.evaluation.model_path()
    named = f"{LEVEL5},model={shipped}"
    relative = f"{LEVEL5},model=elsewhere/{shipped.name}"
    assert pool_sprt.pool([run(SHARD_A, test=named), run(SHARD_B, test=relative)])[1].games == 44
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "m.json").write_bytes(shipped.read_bytes())
    (two / "m.json").write_bytes(shipped.read_bytes())
    monkeypatch.chdir(tmp_path)
    first, second = (run(s, test=f"{LEVEL5},model={d}/m.json") for s, d in
                     ((SHARD_A, "one"), (SHARD_B, "two")))
    assert pool_sprt.pool([first, second])[1].games == 44
    assert pool_sprt.pool([first, run(SHARD_B, test=named)])[1].games == 44   # by its name too
    (two / "m.json").write_bytes(shipped.read_bytes().replace(b'"beta"', b'"beta" '))
    with pytest.raises(ValueError, match="is not the same test"):
        pool_sprt.pool([first, second])


def test_a_spec_given_for_an_older_run_reads_its_model_as_of_then():
    """`--spec LABEL=SPEC` describes a run made before specs named their model: a text without
    one means the model shipped then, however the shipped default has moved since; a text
    naming one keeps it."""
    from search import evaluation
    then = pool_sprt.as_of_then(LEVEL5)
    assert then.endswith(f"model={pool_sprt.ISMCTSBot.FORMER_MODEL}")
    assert then == pool_sprt.recorded_spec(LEVEL5)                    # as a record reads it
    named = pool_sprt.as_of_then(f"{LEVEL5},model={evaluation.SHIPPED}")
    assert named.endswith(f"model={evaluation.SHIPPED}")
    assert pool_sprt.as_of_then("level2") == pool_sprt.resolved("level2")   # no model: as today


def tallied(units: list[float], test: str = "a") -> dict:
    """An arena --json result without --sprt: its units' tally, no bounds."""
    r = run(units, test=test)["sprt"]
    keep = ("test", "base", "model", "games", "units", "outcomes")
    return {"players": 2, "tally": {k: r[k] for k in keep}}


def test_a_run_without_a_test_pools_by_its_tally():
    whole = Sprt(0, 40)
    for u in SHARD_A + SHARD_B:
        whole.add(u, 2)
    for runs in ([run(SHARD_A), tallied(SHARD_B)], [tallied(SHARD_A), run(SHARD_B)]):
        steps = pool_sprt.pool(runs)
        assert steps[1].games == 44 and steps[1].llr == pytest.approx(whole.llr)
    with pytest.raises(ValueError, match="test 'c' against 'a'"):
        pool_sprt.pool([run(SHARD_A), tallied(SHARD_B, test="c")])


def test_bounds_given_pool_tallies_and_override_the_runs_own():
    with pytest.raises(ValueError, match="no run ran an SPRT.*--sprt ELO0,ELO1"):
        pool_sprt.pool([tallied(SHARD_A), tallied(SHARD_B)])
    steps = pool_sprt.pool([tallied(SHARD_A), tallied(SHARD_B)], bounds=(0, 40))
    assert steps == pool_sprt.pool([run(SHARD_A), run(SHARD_B)])
    other = pool_sprt.pool([run(SHARD_A), run(SHARD_B, elo1=50.0)], bounds=(0, 20))
    narrow = Sprt(0, 20)
    for u in SHARD_A + SHARD_B:
        narrow.add(u, 2)
    assert other[1].llr == pytest.approx(narrow.llr) and other[1].games == 44


def test_the_command_takes_bounds_for_runs_without_a_test(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(tallied(SHARD_A)))
    b.write_text(json.dumps(tallied(SHARD_B)))
    out = CliRunner().invoke(main, [*CMD, str(a), str(b)])
    assert out.exit_code == 2 and "--sprt ELO0,ELO1" in out.output
    out = CliRunner().invoke(main, [*CMD, str(a), str(b), "--sprt", "0,40"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("a against b: SPRT(0, 40), pentanomial")
    assert "b.json: 44 games" in out.output
    out = CliRunner().invoke(main, [*CMD, str(a), "--sprt", "40,0"])
    assert out.exit_code == 2 and "ELO0 < ELO1" in out.output and "Traceback" not in out.output


def test_win_shares_pool_over_every_shards_blocks():
    """Two real arena shards (4 players, one seat against three): the pooled win share and its
    interval are what one run of all their blocks gives, and one shard alone gives its own
    result back."""
    from search.lab import arena
    lineup = ["greedy", "random", "random", "random"]
    a, b = (arena.run_arena(lineup, 4, 8, seed=s) for s in (5, 6))
    one = pool_sprt.shares([a])
    mine = next(x for x in a["bots"] if x["bot"] == "greedy")
    assert one[0][:3] == ("greedy", pytest.approx(mine["win_share"]), 8)
    assert one[0][3:] == pytest.approx(tuple(mine["ci95"]))
    both = pool_sprt.shares([a, b])
    blocks = [blk for r in (a, b) for x in r["bots"] if x["bot"] == "greedy"
              for blk in x["blocks"]]
    wins, counts = [w for w, _ in blocks], [c for _, c in blocks]
    assert len(blocks) == 4 and sum(counts) == 16
    assert both[0][1] == pytest.approx(sum(wins) / 16)
    assert both[0][3:] == pytest.approx(arena.clustered_interval(wins, counts))
    assert both[1][0] == "random" and both[1][2] == 48
    lines = pool_sprt.report(["a", "b"], [a, b], bounds=(0, 30))
    assert lines[-2].startswith("win share of greedy: ") and "(parity 25.0%)" in lines[-2]
    with pytest.raises(ValueError, match=r"run 2 plays run 1's deals again \(seed 5\)"):
        pool_sprt.report(["a", "a"], [a, a], bounds=(0, 30))
    old = dict(b, bots=[{k: v for k, v in x.items() if k != "blocks"} for x in b["bots"]])
    assert pool_sprt.report(["a", "old"], [a, old], bounds=(0, 30))[-1].startswith(
        "win shares: not pooled")


@pytest.mark.parametrize("blocks", [[[5, 4]], [[1]], [["1", 4]], [[float("nan"), 4]], "x",
                                    [[1, 99]], [[True, 4]]])
def test_malformed_blocks_are_refused_by_name(blocks):
    from search.lab import arena
    a = arena.run_arena(["greedy", "random", "random", "random"], 4, 4, seed=5)
    bad = dict(a, seed=7, bots=[dict(x, blocks=blocks) for x in a["bots"]])
    with pytest.raises(ValueError, match="'greedy''s blocks must be"):
        pool_sprt.shares([a, bad])


def test_runs_of_another_player_count_are_not_one_test():
    with pytest.raises(ValueError, match="players 3 against 2"):
        pool_sprt.pool([run(SHARD_A), dict(run(SHARD_B), players=3)])


def test_pococks_constants_keep_five_percent_over_their_looks():
    """Each constant, checked by simulation rather than copied: the chance that a normal
    statistic read after each of K equal steps of games ever leaves ±c_K is 5% (200 000
    paths: a standard error of 0.05 points; the constants are given to 0.001, which moves the
    chance by about 0.01 points)."""
    import numpy as np
    rng = np.random.default_rng(34)
    paths = rng.standard_normal((200_000, max(pool_sprt.POCOCK))).cumsum(axis=1)
    z = np.abs(paths) / np.sqrt(np.arange(1, paths.shape[1] + 1))
    for k, c in pool_sprt.POCOCK.items():
        crossed = (z[:, :k] > c).any(axis=1).mean()
        assert crossed == pytest.approx(0.05, abs=0.0025), (k, c, crossed)
    assert list(pool_sprt.POCOCK.values()) == sorted(pool_sprt.POCOCK.values())


def test_looks_widen_the_win_share_interval(tmp_path):
    """`--looks 2`: the win shares' lines also give the interval at Pocock's two-look z, which
    holds the 95% one inside it; a number of looks outside the table is refused."""
    from search.lab import arena
    lineup = ["greedy", "random", "random", "random"]
    a, b = (arena.run_arena(lineup, 4, 8, seed=s) for s in (5, 6))
    wide = pool_sprt.shares([a, b], pool_sprt.POCOCK[2])
    plain = pool_sprt.shares([a, b])
    for w, p in zip(wide, plain):
        assert w[:3] == p[:3] and w[3] <= p[3] and w[4] >= p[4] and w[4] - w[3] > p[4] - p[3]
    lines = pool_sprt.report(["a", "b"], [a, b], bounds=(0, 30), looks=2)
    assert lines[-2].endswith(f"; over 2 looks [{100 * wide[0][3]:.1f}, {100 * wide[0][4]:.1f}]")
    assert "looks" not in pool_sprt.report(["a", "b"], [a, b], bounds=(0, 30))[-2]
    with pytest.raises(ValueError, match="looks must be 1 to 10"):
        pool_sprt.report(["a", "b"], [a, b], bounds=(0, 30), looks=11)
    fa, fb = tmp_path / "a.json", tmp_path / "b.json"
    fa.write_text(json.dumps(a))
    fb.write_text(json.dumps(b))
    out = CliRunner().invoke(main, [*CMD, str(fa), str(fb), "--sprt", "0,30", "--looks", "2"])
    assert out.exit_code == 0 and "over 2 looks [" in out.output, out.output
    for bad in ("0", "11", "two"):
        out = CliRunner().invoke(main, [*CMD, str(fa), str(fb), "--sprt", "0,30", "--looks", bad])
        assert out.exit_code == 2 and "Traceback" not in out.output, bad
