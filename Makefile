# One command each sets everything up from nothing, quietly (a line per stage):
#   make play   a .venv with ekonos and what playing needs (click, rich, numpy), the C extensions
#               built in place, then a game against 3 AI opponents;
#   make test   the same plus the test tools, OpenSpiel, Ray, matplotlib, JAX and optax (extras
#               test, openspiel, ray, plot, train), then the tests.
# `pip install .` (or `pip install -e .`) anywhere gives the `ekonos` command too.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PIP := $(BIN)/python -m pip -q --disable-pip-version-check --no-input
LOG := build/setup.log
TEST_EXTRAS := .[test,openspiel,ray,plot,train]
# a stage: one line said, the command's output kept in $(LOG) and shown only if it fails
stage = @echo "ekonos: $(1)"; mkdir -p build; $(2) > $(LOG) 2>&1 || { cat $(LOG); exit 1; }

.PHONY: play resume test bench build clean debug release fuzz chromium

play: build
	@echo "ekonos: ready (source $(VENV)/bin/activate puts ekonos on your PATH); starting a game"
	@$(BIN)/ekonos play --ai 3

# continue the game saved in the autosave (the path `ekonos play` prints when you quit)
resume: build
	@$(BIN)/ekonos play --load "$$($(BIN)/python -c 'from cli.storage import autosave_path; print(autosave_path())')"

test: build $(TEST_STAMP) chromium
	$(BIN)/python -m pytest tests

# The browser tests drive the system's Chromium; install it when missing and we are root
# (otherwise they are skipped, saying why).
chromium:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
	  { apt-get update -qq >/dev/null 2>&1 && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } || \
	  echo "note: could not install chromium; the browser tests will be skipped"

bench: build $(TEST_STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-columns=median,mean,rounds

$(BIN)/python:
	$(call stage,creating $(VENV) with $(PY),$(PY) -m venv $(VENV))
	$(call stage,installing the build tools (setuptools Cython),$(PIP) install "setuptools>=70.1" "Cython>=3.0")

# The package, editable, built with the venv's own build tools (no isolated build
# environment to download); its C extensions are (re)built in place by `build` below, so the
# tests and the game always run the code in the tree.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(call stage,installing ekonos and what playing needs,$(PIP) install --no-build-isolation -e .)
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(call stage,installing the test tools and the extras test openspiel ray plot train,$(PIP) install --no-build-isolation -e "$(TEST_EXTRAS)")
	@touch $(TEST_STAMP)

# Compiler warnings and errors are shown (stderr); Cython's progress lines are not.
build: $(STAMP)
	@echo "ekonos: building the C extensions (only what changed)"
	@$(BIN)/python setup.py -q build_ext --inplace > /dev/null

# The fuzz suite alone with many more examples and a fresh random stream each run (minutes), for
# before a release.  It ends with the cases tried per entry point and what was found (signals,
# tracebacks, hangs, modified files).  `make test` runs the same tests with few examples.
fuzz: build
	EKONOS_FUZZ=fuzz $(BIN)/python -m pytest tests/fuzz -p no:cacheprovider

# A checked build for hunting memory errors: EKONOS_DEBUG=1 (setup.py: Cython bounds checks,
# wraparound, C assertions, -O0 -g) and, where the compiler has it, -fsanitize=bounds, which
# stops the process with a message on an out-of-range index into a C array.  The generated C
# is deleted first: cythonize regenerates it only when a .pyx is newer, so the checks would
# otherwise silently stay off.  `make release` returns to the fast build (`make build` alone
# keeps whichever build is there).
SANITIZE = $(shell echo 'int main(void){return 0;}' | $${CC:-cc} -x c -fsanitize=bounds - \
	-o /dev/null 2>/dev/null && echo -fsanitize=bounds -fno-sanitize-recover=bounds)

debug: $(STAMP)
	rm -f ekonos/*.c search/*.c
	EKONOS_DEBUG=1 CFLAGS="$(SANITIZE)" LDFLAGS="$(SANITIZE)" \
		$(BIN)/python setup.py -q build_ext --inplace --force

release: $(STAMP)
	rm -f ekonos/*.c search/*.c
	$(BIN)/python setup.py -q build_ext --inplace --force

clean:
	rm -rf build $(VENV) ekonos/*.so ekonos/*.c search/*.so search/*.c *.egg-info
