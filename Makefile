# One command each sets everything up from nothing: a .venv, the package with its test extras,
# the Cython extensions built in place.  `make play` then plays; `make test` runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench build clean debug

play: build
	$(BIN)/ekonos play --ai 3

test: build
	$(BIN)/python -m pytest tests

bench: build
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-columns=median,mean,rounds

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip setuptools wheel "Cython>=3.0"

# Cython goes into the venv too: the editable install builds in an isolated environment, but
# `build_ext --inplace` below runs with the venv's own Python and needs it there.
# Editable install builds the extensions; `build_ext --inplace` rebuilds them when a .pyx/.pxd
# changes so the tests always run the code in the tree.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install -e ".[test,openspiel,ray,plot]"
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/python setup.py -q build_ext --inplace

debug: $(STAMP)
	EKONOS_DEBUG=1 $(BIN)/python setup.py -q build_ext --inplace --force

clean:
	rm -rf build $(VENV) ekonos/*.so ekonos/*.c search/*.so search/*.c *.egg-info
