"""search/lab/suite_pairs.py (`ekonos lab suite-pairs`): paired loss differences of two bots on
the same suite positions, and one clear error for a file or a bot that is not there."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import main
from search.lab import suite_pairs

CMD = ["lab", "suite-pairs"]               # the command under test


def result(losses: dict[str, list[float]], moves: dict[str, list[str]]) -> dict:
    return {"bots": [{"bot": name, "decisions": [{"id": i, "loss": x, "move": m}
                                                 for i, (x, m) in enumerate(zip(ls, moves[name]))]}
                     for name, ls in losses.items()]}


def test_a_paired_difference_and_ratio():
    a = [0.0, 2.0, 12.0, 1.0]
    b = [1.0, 4.0, 14.0, 1.0]                 # b loses one or two more on every position but one
    data = result({"a": a, "b": b}, {"a": ["x", "y", "z", "w"], "b": ["x", "q", "r", "w"]})
    p = suite_pairs.paired(data, "a", "b")
    assert p.diff == pytest.approx(-1.25) and p.diff_ci[0] < -1.25 < p.diff_ci[1] < 0
    assert p.ratio == pytest.approx(15 / 20)
    assert p.ratio_ci[0] < 0.75 < p.ratio_ci[1]
    assert p.gifts == (1, 1) and p.same == 2 and p.positions == 4
    same = suite_pairs.paired(data, "a", "a")
    assert same.diff == 0 and same.diff_ci == (0, 0) and same.ratio == 1


def test_the_command_prints_each_pair_and_refuses_bad_input(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result({"level3": [0.0, 3.0], "base line,x": [1.0, 3.0]},
                                      {"level3": ["a", "b"], "base line,x": ["c", "b"]})))
    out = CliRunner().invoke(main, [*CMD, str(path), "--pair", "level3", "base line,x"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("level3 - base line,x: -0.50 [")
    assert "gifts 0 against 0, the same move in 1 of 2" in out.output
    bad = CliRunner().invoke(main, [*CMD, str(path), "--pair", "level3", "level9"])
    assert bad.exit_code == 2 and "level9" in bad.output and "Traceback" not in bad.output
    text = tmp_path / "notes.txt"
    text.write_text("no json")
    bad = CliRunner().invoke(main, [*CMD, str(text), "--pair", "a", "b"])
    assert bad.exit_code == 2 and "not a `suite run --json` result" in bad.output
    text.write_text("[1, 2]")
    bad = CliRunner().invoke(main, [*CMD, str(text), "--pair", "a", "b"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_several_results_pool_their_positions(tmp_path):
    one = result({"a": [0.0, 2.0], "b": [1.0, 4.0]}, {"a": ["x", "y"], "b": ["x", "q"]})
    two = result({"a": [12.0, 1.0], "b": [14.0, 1.0]}, {"a": ["z", "w"], "b": ["r", "w"]})
    # the same ids (0, 1) in both files are different positions: four pairs, not two
    p = suite_pairs.paired([one, two], "a", "b")
    whole = suite_pairs.paired(result({"a": [0.0, 2.0, 12.0, 1.0], "b": [1.0, 4.0, 14.0, 1.0]},
                                      {"a": ["x", "y", "z", "w"], "b": ["x", "q", "r", "w"]}),
                               "a", "b")
    assert p == whole and p.positions == 4
    paths = []
    for k, data in enumerate((one, two)):
        paths.append(tmp_path / f"r{k}.json")
        paths[-1].write_text(json.dumps(data))
    out = CliRunner().invoke(main, [*CMD, *map(str, paths), "--pair", "a", "b"])
    assert out.exit_code == 0 and "of 4" in out.output, out.output
    two["bots"].pop()                                   # b missing from the second file
    paths[1].write_text(json.dumps(two))
    bad = CliRunner().invoke(main, [*CMD, *map(str, paths), "--pair", "a", "b"])
    assert bad.exit_code == 2 and "no bot 'b' in the result 2" in bad.output
