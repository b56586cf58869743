"""`ekonos learn selfplay --backend ray` against a local Ray started here with 2 CPUs: the same
shards, byte for byte, as this process makes alone (the code shipped to the workers as the
arena's is).  Tiny budgets: 2 players, 30 iterations, 4 games."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray", reason="the optional extra 'ray' is not installed")

from cli.main import main  # noqa: E402
from search.learn.selfplay import load_dataset  # noqa: E402


def test_ray_makes_the_shards_this_process_makes(local_ray, tmp_path):
    args = ["learn", "selfplay", "-p", "2", "-n", "4", "--spec", "ismcts:iterations=30",
            "--seed", "5", "--games-per-shard", "2", "-q"]
    for where, extra in (("ray", ["--backend", "ray"]), ("here", [])):
        r = CliRunner().invoke(main, [*args, "-o", str(tmp_path / where), *extra])
        assert r.exit_code == 0, r.output
    ray_m, here_m = (json.loads((tmp_path / w / "manifest.json").read_text())
                     for w in ("ray", "here"))
    assert [(e["file"], e["sha256"]) for e in ray_m["shards"]] == \
        [(e["file"], e["sha256"]) for e in here_m["shards"]]
    assert all(e["cpu_seconds"] > 0 for e in ray_m["shards"])
    a, b = load_dataset(tmp_path / "ray"), load_dataset(tmp_path / "here")
    assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)
