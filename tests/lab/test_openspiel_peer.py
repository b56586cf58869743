"""benchmarks/openspiel_peer.py (our ISMCTS against OpenSpiel's): a tiny run of every item.

Skipped when the optional OpenSpiel extra is not installed.  The figures of a tiny run mean
nothing; this only checks that the script runs end to end and prints its table.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel extra not installed: pip install '.[openspiel]'")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "openspiel_peer.py"


def load_script():
    spec = importlib.util.spec_from_file_location("openspiel_peer", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tiny_run_prints_the_table(capsys):
    peer = load_script()
    assert peer.main(["--games", "1", "--think", "0.003", "--iterations", "5",
                      "--cpp-iterations", "50", "--repeats", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    items = [r.split("|")[1].strip() for r in rows if r.split("|")[1].strip().isdigit()]
    assert items == ["1", "1", "2", "3"]
    assert "Machine:" in out and "Command: .venv/bin/python benchmarks/openspiel_peer.py" in out


def test_wilson_interval():
    peer = load_script()
    lo, hi = peer.wilson(1.0, 20)
    assert hi == 1.0 and 0.83 < lo < 0.84
    lo, hi = peer.wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
