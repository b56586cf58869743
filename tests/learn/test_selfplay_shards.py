"""`ekonos learn selfplay`: a folder of self-play shards and its manifest (search/learn/shards.py),
read back by `load_dataset` (search/learn/selfplay.py).  Every game is replayed here from its
deal with the recorded moves, so the inputs, seats, legal counts and final scores are checked
against the engine, not against the code that wrote them.  Tiny budgets: 2 players, 30
iterations, a few games."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from ekonos import State
from search._net import NET_FEATURES_HASH, NET_INPUT_COUNT, net_inputs_of
from search.bots import derive_seed, spec_text
from search.learn.selfplay import (ARRAYS, DatasetError, concat_games, game_arrays, game_seed,
                                   load_dataset, record_game)

ROOT = Path(__file__).resolve().parents[2]
SPEC = "ismcts:iterations=30"
ARGS = ["learn", "selfplay", "-p", "2", "-n", "4", "--spec", SPEC, "--seed", "7",
        "--games-per-shard", "2", "-q"]


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def make(folder: Path, *extra) -> None:
    r = cli(*ARGS, "-o", folder, *extra)
    assert r.exit_code == 0, (r.output, r.exception)


def one_error_line(r) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    return lines[0]


def stamps(folder: Path) -> dict:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


def same_arrays(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("selfplay") / "a"
    make(folder)
    return folder


@pytest.fixture
def copy(made, tmp_path) -> Path:
    """A copy of the module's folder, to damage (its files' mtimes kept)."""
    return Path(shutil.copytree(made, tmp_path / "copy"))


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# -- what the folder holds ----------------------------------------------------------------------

def test_the_manifest_says_what_made_the_folder(made):
    m = manifest(made)
    assert {k: m[k] for k in ("format", "kind", "features", "inputs", "spec", "players", "seed",
                              "games_per_shard", "explore")} == {
        "format": 1, "kind": "selfplay", "features": NET_FEATURES_HASH,
        "inputs": NET_INPUT_COUNT, "spec": spec_text(SPEC), "players": 2, "seed": 7,
        "games_per_shard": 2, "explore": 4}
    assert [(e["file"], e["first_game"], e["games"]) for e in m["shards"]] == [
        ("shard-00000.npz", 0, 2), ("shard-00001.npz", 2, 2)]
    assert sorted(p.name for p in made.iterdir()) == ["manifest.json", "shard-00000.npz",
                                                      "shard-00001.npz"]   # no lock, no temp
    for e in m["shards"]:
        raw = (made / e["file"]).read_bytes()
        assert e["sha256"] == hashlib.sha256(raw).hexdigest() and e["bytes"] == len(raw)
        with np.load(made / e["file"]) as z:
            assert e["positions"] == len(z["x"]) > 100
        assert e["seconds"] > 0 and e["cpu_seconds"] > 0
    positions = sum(e["positions"] for e in m["shards"])
    assert m["positions"] == positions
    assert m["positions_per_second_per_core"] == pytest.approx(
        positions / sum(e["cpu_seconds"] for e in m["shards"]), rel=1e-3)


def test_the_manifest_command_makes_the_same_folder(made, tmp_path):
    words = shlex.split(manifest(made)["command"])
    assert words[:3] == ["ekonos", "learn", "selfplay"]
    elsewhere = tmp_path / "again"
    words[words.index("-o") + 1] = str(elsewhere)
    r = cli(*words[1:], "-q")
    assert r.exit_code == 0, r.output
    for name in ("shard-00000.npz", "shard-00001.npz"):
        assert (elsewhere / name).read_bytes() == (made / name).read_bytes()


def test_the_arrays_have_their_types_and_consistent_lengths(made):
    d = load_dataset(made)
    assert set(d) == set(ARRAYS)
    assert all(d[k].dtype == np.dtype(t) for k, t in ARRAYS.items())
    n = len(d["x"])
    assert d["x"].shape == (n, NET_INPUT_COUNT) and d["win"].shape == (n, 6)
    assert all(len(d[k]) == n for k in ("players", "seat", "game", "ply", "action", "q", "legal"))
    assert d["pol_start"].shape == (n + 1,) and d["pol_start"][0] == 0
    assert d["pol_start"][-1] == len(d["pol_action"]) == len(d["pol_visits"])
    assert (np.diff(d["pol_start"]) > 0).all()          # every decision searched
    assert sorted(set(d["game"].tolist())) == [0, 1, 2, 3] and (d["players"] == 2).all()
    for g in range(4):
        assert (d["ply"][d["game"] == g] == np.arange((d["game"] == g).sum())).all()
    assert np.allclose(d["win"][:, :2].sum(axis=1), 1) and not d["win"][:, 2:].any()
    assert not d["score"][:, 2:].any() and not d["rank"][:, 2:].any()
    assert ((d["q"] >= 0) & (d["q"] <= 1)).all()
    for i in range(n):
        moves = d["pol_action"][d["pol_start"][i]:d["pol_start"][i + 1]]
        assert d["action"][i] in moves and len(moves) <= d["legal"][i]


def replay(d: dict, players: int, seed: int, game: int) -> None:
    """Game `game` played again from its deal with the recorded moves: every recorded row is
    the seat to move, its legal count and its view's inputs; the end rows are the engine's."""
    rows = np.flatnonzero(d["game"] == game)
    state = State.new(players, seed=derive_seed(game_seed(seed, players, game), 0))
    i = 0
    while not state.is_over():
        seat = state.to_move
        view = state.view(seat)
        if view.count_legal() == 1:
            state.push(view.nth_legal(0))
            continue
        r = rows[i]
        assert d["seat"][r] == seat and d["legal"][r] == view.count_legal()
        assert np.array_equal(d["x"][r], net_inputs_of(view, seat))
        state.push(int(d["action"][r]))
        i += 1
    assert i == len(rows)
    scores, winners = state.scores(), state.winners()
    for r in rows:
        p = int(d["seat"][r])
        for j in range(players):
            q = (p + j) % players
            assert d["score"][r, j] == scores[q]
            assert d["win"][r, j] == (1 / len(winners) if q in winners else 0)
            better = sum(s > scores[q] for s in scores)
            ties = sum(s == scores[q] for s in scores)
            assert d["rank"][r, j] == better + (ties + 1) / 2


def test_every_game_replays_to_its_recorded_inputs_and_scores(made):
    d = load_dataset(made)
    for g in range(4):
        replay(d, 2, 7, g)


def test_a_shard_is_what_record_game_makes(made):
    """A folder's shard is the per-game unit's arrays, so data recorded with record_game
    directly (the same arguments) is what the command makes again."""
    with np.load(made / "shard-00001.npz") as z:
        shard = {k: z[k] for k in z.files}
    direct = concat_games([record_game(2, SPEC, 7, g, explore=4) for g in (2, 3)])
    assert same_arrays(shard, direct)
    assert same_arrays(game_arrays(shard, 3), record_game(2, SPEC, 7, 3, explore=4))


def test_folders_load_concatenated_with_their_policies_in_place(made, copy):
    one, two = load_dataset(made), load_dataset([made, copy])
    n = len(one["x"])
    assert len(two["x"]) == 2 * n and len(two["pol_action"]) == 2 * len(one["pol_action"])
    for i in (0, n // 2, n - 1):
        s, t = two["pol_start"], one["pol_start"]
        assert np.array_equal(two["pol_action"][s[n + i]:s[n + i + 1]],
                              one["pol_action"][t[i]:t[i + 1]])
        assert np.array_equal(two["x"][n + i], one["x"][i])


# -- again: skip, remake, refuse ----------------------------------------------------------------

def test_a_second_run_rewrites_nothing(copy):
    before = stamps(copy)
    r = cli(*ARGS, "-o", copy)
    assert r.exit_code == 0 and "nothing to play" in r.stderr
    assert stamps(copy) == before


def test_a_deleted_or_damaged_shard_is_made_again_the_same(made, copy):
    (copy / "shard-00000.npz").unlink()
    raw = bytearray((copy / "shard-00001.npz").read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (copy / "shard-00001.npz").write_bytes(bytes(raw))
    with pytest.raises(DatasetError, match=r"shard-00000.npz: no such file"):
        load_dataset(copy)
    r = cli(*ARGS, "-o", copy)
    assert r.exit_code == 0 and ": 2 shards (4 games" in r.stderr
    assert same_arrays(load_dataset(copy), load_dataset(made))
    assert manifest(copy)["shards"][0]["sha256"] == manifest(made)["shards"][0]["sha256"]


def test_load_dataset_refuses_a_damaged_shard(copy):
    raw = bytearray((copy / "shard-00001.npz").read_bytes())
    raw[100] ^= 0x01
    (copy / "shard-00001.npz").write_bytes(bytes(raw))
    with pytest.raises(DatasetError, match=r"shard-00001.npz: damaged or changed"):
        load_dataset(copy)


def test_load_dataset_refuses_other_network_inputs(copy):
    m = (copy / "manifest.json").read_text().replace(NET_FEATURES_HASH, "0123456789abcdef")
    (copy / "manifest.json").write_text(m)
    with pytest.raises(DatasetError, match="recorded for other network inputs"):
        load_dataset(copy)
    before = stamps(copy)
    assert "other network inputs" in one_error_line(cli(*ARGS, "-o", copy))
    assert stamps(copy) == before


@pytest.mark.parametrize("change", [("--seed", "8"), ("--explore", "3"), ("--spec", "greedy"),
                                    ("--games-per-shard", "3"), ("-p", "3")])
def test_a_run_of_other_settings_is_refused_and_touches_nothing(copy, change):
    args = list(ARGS)
    if change[0] in args:
        args[args.index(change[0]) + 1] = change[1]
    else:
        args += change
    before = stamps(copy)
    line = one_error_line(cli(*args, "-o", copy))
    assert "holds the self-play of another run" in line
    assert stamps(copy) == before


def test_two_workers_make_the_same_shards_as_one(made, tmp_path):
    make(tmp_path / "w2", "-w", "2")
    for e, f in zip(manifest(made)["shards"], manifest(tmp_path / "w2")["shards"]):
        assert (e["file"], e["sha256"]) == (f["file"], f["sha256"])
    assert same_arrays(load_dataset(tmp_path / "w2"), load_dataset(made))


def test_more_games_extend_the_folder_and_fewer_keep_it(copy):
    before = stamps(copy)
    r = cli(*[a if a != "4" else "5" for a in ARGS], "-o", copy)
    assert r.exit_code == 0, r.output
    m = manifest(copy)
    assert [(e["first_game"], e["games"]) for e in m["shards"]] == [(0, 2), (2, 2), (4, 1)]
    assert " -n 5 " in m["command"]
    assert all(stamps(copy)[k] == v for k, v in before.items() if k.startswith("shard"))
    r = cli(*[a if a != "4" else "1" for a in ARGS], "-o", copy)
    assert r.exit_code == 0 and "nothing to play" in r.stderr


# -- shard files of another program ------------------------------------------------------------

def driver_shard(folder: Path, k: int, seed: int = 7) -> Path:
    """A shard as a temporary driver writes one: record_game's games, np.savez_compressed."""
    folder.mkdir(exist_ok=True)
    path = folder / f"shard-{k:05d}.npz"
    np.savez_compressed(path, **concat_games([record_game(2, SPEC, seed, g, 4)
                                              for g in (2 * k, 2 * k + 1)]))
    return path


def test_shards_without_a_manifest_are_adopted_only_when_asked(made, tmp_path):
    folder = tmp_path / "driver"
    path = driver_shard(folder, 1)
    os.utime(path, ns=(1, 1))
    (folder / "shard-00000.tmp.npz").write_bytes(b"half written")   # the driver's temp file
    line = one_error_line(cli(*ARGS, "-o", folder))
    assert "--adopt" in line and "no manifest.json" in line
    assert sorted(p.name for p in folder.iterdir()) == ["shard-00000.tmp.npz", "shard-00001.npz"]
    r = cli(*ARGS, "-o", folder, "--adopt")
    assert r.exit_code == 0, r.output
    m = manifest(folder)
    adopted = m["shards"][1]
    assert adopted["adopted"] is True and adopted["cpu_seconds"] is None
    assert adopted["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert path.stat().st_mtime_ns == 1                     # listed, not rewritten
    assert m["shards"][0]["cpu_seconds"] > 0                # shard 0 played
    assert m["positions_per_second_per_core"] == pytest.approx(
        m["shards"][0]["positions"] / m["shards"][0]["cpu_seconds"], rel=1e-3)
    assert same_arrays(load_dataset(folder), load_dataset(made))


def test_shards_of_another_seed_are_not_adopted(tmp_path):
    folder = tmp_path / "driver"
    driver_shard(folder, 0, seed=8)
    line = one_error_line(cli(*ARGS, "-o", folder, "--adopt"))
    assert "game 0 is not what this run plays" in line
    assert not (folder / "manifest.json").exists()


def test_a_damaged_shard_file_is_not_adopted_but_played(made, tmp_path):
    folder = tmp_path / "driver"
    driver_shard(folder, 0)
    (folder / "shard-00001.npz").write_bytes(b"PK\x03\x04 not a zip")
    r = cli(*ARGS, "-o", folder, "--adopt")
    assert r.exit_code == 0, r.output
    assert [e.get("adopted", False) for e in manifest(folder)["shards"]] == [True, False]
    assert same_arrays(load_dataset(folder), load_dataset(made))


# -- bad input ---------------------------------------------------------------------------------

def test_bad_folders_and_options_are_one_error_line(tmp_path):
    (tmp_path / "file").write_text("x")
    assert "not a folder" in one_error_line(cli(*ARGS, "-o", tmp_path / "file"))
    assert "cannot make the folder" in one_error_line(cli(*ARGS, "-o", tmp_path / "file" / "d"))
    no_seed = [a for a in ARGS if a not in ("--seed", "7")]
    assert "--seed" in one_error_line(cli(*no_seed, "-o", tmp_path / "d"))
    bad_spec = [a if a != SPEC else "levle3" for a in ARGS]
    assert "levle3" in one_error_line(cli(*bad_spec, "-o", tmp_path / "d"))
    assert "--address" in one_error_line(cli(*ARGS, "-o", tmp_path / "d", "--address", "auto"))
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "manifest.json").write_text('{"kind": "selfplay", "format": 1}')
    assert "not a manifest" in one_error_line(cli(*ARGS, "-o", tmp_path / "m"))
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("kind", ["fifo", "directory", "dangling symlink"])
def test_a_manifest_that_is_no_regular_file_is_refused_at_once(tmp_path, kind):
    folder = tmp_path / "f"
    folder.mkdir()
    path = folder / "manifest.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to(tmp_path / "nowhere")
    assert "manifest.json" in one_error_line(cli(*ARGS, "-o", folder))
    assert sorted(os.listdir(folder)) == ["manifest.json"]


def test_an_output_that_is_a_fifo_or_a_device_is_no_folder(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    for where in (tmp_path / "pipe", Path("/dev/null")):
        assert "not a folder" in one_error_line(cli(*ARGS, "-o", where))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_an_unwritable_folder_is_one_error_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert "cannot" in one_error_line(cli(*ARGS, "-o", folder))
    finally:
        folder.chmod(0o755)


# -- real processes: Ctrl-C, two runs into one folder ------------------------------------------

def start(folder: Path, games: int, *extra) -> subprocess.Popen:
    args = ["learn", "selfplay", "-p", "2", "-n", str(games), "--spec", SPEC, "--seed", "7",
            "--games-per-shard", "1", "-o", str(folder), "-q", *extra]
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def listed(folder: Path) -> list[dict]:
    try:
        return manifest(folder)["shards"]
    except (OSError, ValueError):
        return []


def test_ctrl_c_keeps_the_shards_finished(tmp_path):
    folder = tmp_path / "c"
    p = start(folder, 400)
    deadline = time.monotonic() + 60
    while len(listed(folder)) < 2 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    if len(listed(folder)) < 2:                    # say which way it failed (CI saw a flake)
        p.kill()
        pytest.fail(f"2 shards not listed within 60 s; exit {p.wait()}: {p.communicate()[1]}")
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert err.splitlines()[-1].startswith("Interrupted: ") and "Traceback" not in err, err
    shards = listed(folder)
    assert 2 <= len(shards) < 400
    for e in shards:
        assert hashlib.sha256((folder / e["file"]).read_bytes()).hexdigest() == e["sha256"]
    assert not [n for n in os.listdir(folder) if n.startswith(".")]   # no lock, no temp left
    r = cli("learn", "selfplay", "-p", "2", "-n", len(shards), "--spec", SPEC, "--seed", "7",
            "--games-per-shard", "1", "-o", folder)
    assert r.exit_code == 0 and "nothing to play" in r.stderr


def test_two_runs_filling_one_folder_share_the_shards_and_lose_none(tmp_path):
    folder = tmp_path / "two"
    games = 24
    runs = [start(folder, games), start(folder, games)]
    made = 0
    for p in runs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        found = re.search(r": (\d+) shards? \(", err)
        made += int(found.group(1)) if found else 0
    shards = listed(folder)
    assert [e["first_game"] for e in shards] == list(range(games))
    assert made == games                                     # each shard made once
    assert len(load_dataset(folder)["x"]) == sum(e["positions"] for e in shards)
