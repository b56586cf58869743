"""Benchmarks run with `make bench` (pytest-benchmark).  Report medians: the machine is shared."""
