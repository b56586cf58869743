"""The fuzz suite's pytest glue: the profile line in the header and, at the end, how many cases
each entry point ran and what was found (signals, tracebacks, hangs, modified files).

The counts are printed with the `fuzz` and `debug` profiles (`make fuzz`, `.ci/run`), or with
EKONOS_FUZZ_REPORT=1; a normal `make test` stays quiet.
"""
from __future__ import annotations

import os

import fuzz_support

FINDING_KINDS = ("signal", "traceback", "hang", "modified file", "lost write")


def pytest_report_header(config) -> str:
    return (f"ekonos fuzz profile: {fuzz_support.PROFILE} "
            f"(examples x{fuzz_support.SCALE:g}; EKONOS_FUZZ=ci|fuzz|debug)")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    cases = fuzz_support.CASES
    if not cases:
        return
    if fuzz_support.PROFILE == "ci" and os.environ.get("EKONOS_FUZZ_REPORT") != "1":
        return
    tr = terminalreporter
    tr.section(f"fuzz cases per entry point (profile {fuzz_support.PROFILE})")
    width = max(len(k) for k in cases)
    for entry in sorted(cases):
        tr.write_line(f"  {entry:<{width}}  {cases[entry]:>8}")
    tr.write_line(f"  {'total':<{width}}  {sum(cases.values()):>8}")
    found = fuzz_support.FINDINGS
    kinds = list(FINDING_KINDS) + sorted(k for k in found if k not in FINDING_KINDS)
    tr.write_line("  findings: " + ", ".join(f"{found[k]} {k}s" for k in kinds))
