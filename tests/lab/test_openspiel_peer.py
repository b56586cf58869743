"""benchmarks/openspiel_peer.py (our ISMCTS against OpenSpiel's): a tiny run of every item.

Skipped when the optional OpenSpiel extra is not installed.  The figures of a tiny run mean
nothing; this only checks that the script runs end to end (as a benchmark is run: a process
of its own) and prints its table.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel extra not installed: pip install '.[openspiel]'")

ROOT = Path(__file__).resolve().parents[2]


def test_tiny_run_prints_the_table():
    done = subprocess.run([sys.executable, "benchmarks/openspiel_peer.py", "--games", "1",
                           "--think", "0.003", "--iterations", "5", "--cpp-iterations", "50",
                           "--repeats", "1", "--quiet"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    items = [r.split("|")[1].strip() for r in rows if r.split("|")[1].strip().isdigit()]
    assert items == ["1", "1", "2", "3"]
    assert "Machine:" in out and "Command: .venv/bin/python benchmarks/openspiel_peer.py" in out


def test_wilson_interval():
    from search.lab.arena import wilson
    lo, hi = wilson(1.0, 20)
    assert hi == 1.0 and 0.83 < lo < 0.84
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
