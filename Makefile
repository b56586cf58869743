# One command each sets everything up from nothing: a .venv, the package with its test extras,
# the Cython extensions built in place.  `make play` then plays; `make test` runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench build clean debug release fuzz chromium

play: build
	$(BIN)/ekonos play --ai 3

test: build chromium
	$(BIN)/python -m pytest tests

# The browser tests drive the system's Chromium; install it when missing and we are root
# (otherwise they are skipped, saying why).
chromium:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
	  { apt-get update -qq >/dev/null 2>&1 && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } || \
	  echo "note: could not install chromium; the browser tests will be skipped"

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
	$(BIN)/python -m pip install -e ".[test,openspiel]"
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/python setup.py -q build_ext --inplace

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
