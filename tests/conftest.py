"""Shared by every test folder: tests/ itself is on sys.path, so the helpers that live here are
imported by their plain names (`from helpers import position`, `from reference import Ref`)
from any subfolder (engine/, search/, lab/, cli/, web/; fuzz/ has its own conftest too).

The test folders are not packages (no __init__.py): pytest imports each test file by its
basename, so basenames are unique across tests/.  A folder named like a package of the project
(tests/search, tests/cli) is then only a namespace directory and never hides the real one.
"""
import sys
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with 2 CPUs for a module's tests, the project's code shipped to its workers
    (a test module using it skips first when the optional extra 'ray' is missing)."""
    import ray

    from search.lab.backends import code_dirs
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"py_modules": code_dirs()})
    yield
    ray.shutdown()
