"""`--backend ray` against a local Ray started here with 2 CPUs: the same
JSON as the local backend on a fixed seed, an SPRT that stops the same way and cancels what is
outstanding, and the code shipped to the workers.  Small budgets: a few tiny games."""
import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray", reason="the optional extra 'ray' is not installed")

from cli.main import main  # noqa: E402
from search.lab import arena  # noqa: E402
from search.lab.backends import Ordered, RayBackend, make_backend, origin  # noqa: E402


def cli_json(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("players, bots, games", [
    (2, ["greedy", "ismcts:iterations=40"], 4),
    (3, ["ismcts:iterations=30,workers=2", "random", "greedy"], 3),
])
def test_ray_and_local_print_the_same_json(local_ray, players, bots, games):
    args = ["arena", "-p", players, *[a for b in bots for a in ("--bot", b)], "-n", games,
            "--seed", 5, "--json", "--quiet"]
    assert arena.untimed(cli_json(*args, "--backend", "ray")) == arena.untimed(cli_json(*args))


def test_an_sprt_on_ray_decides_as_locally_and_cancels_the_rest(local_ray):
    backend = RayBackend()
    on_ray = arena.run_arena(["greedy", "random"], 2, None, seed=4, sprt=(0, 200),
                             backend=backend)
    local = arena.run_arena(["greedy", "random"], 2, None, seed=4, sprt=(0, 200))
    assert arena.untimed(on_ray) == arena.untimed(local) and on_ray["sprt"]["state"] == "H1"
    assert not backend._refs                      # nothing of ours is left on the cluster


def test_cancel_stops_tasks_still_running(local_ray):
    backend = RayBackend()
    for k in range(3):
        backend.submit(k, time.sleep, (60,))
    refs = list(backend._refs)
    backend.cancel()
    assert backend.cancelled == 3
    for ref in refs:
        with pytest.raises(ray.exceptions.TaskCancelledError):
            ray.get(ref)


def test_the_workers_get_the_shipped_packages(local_ray):
    """The packages reach the workers as py_modules (a copy on the worker's import path).  On
    a local Ray the driver's own import path comes first, so a worker imports the same files as
    the driver; on a cluster, where those paths do not exist, it imports the shipped copy."""
    backend = make_backend("ray")
    backend.submit(0, origin, ("search.lab.arena",))
    ((key, (where, path)),) = backend.wait()
    assert key == 0 and Path(where).name == "arena.py"
    shipped = [p for p in path if "_ray_pkg_" in p]
    assert len(shipped) >= 2                       # ekonos and search
    (k, (core, _)), = Ordered(backend, [(0, origin, ("ekonos._core",))])
    assert core.endswith(".so")                    # the compiled engine imports on the worker
