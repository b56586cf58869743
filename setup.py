"""Build of the Cython extensions.  Compiler directives are set here, in one place.

EKONOS_DEBUG=1 builds with bounds checks, wraparound and C assertions on, and without -O3, for
hunting memory errors; the default build is the fast one.

On an x86-64 machine whose CPU has the POPCNT instruction (every x86-64 CPU since about 2009, the
x86-64-v2 level), the build uses it (-mpopcnt): the engine counts bits in its hottest loops, and
without it gcc calls a library routine instead of one instruction.  The extension is built for the
machine it is installed on (`pip install .`); EKONOS_PORTABLE=1 leaves the flag out, for a build
meant to run on other machines (a wheel).

The search extensions get EK_FEATURES_HASH, a hash of the learned evaluation's feature code (the
text between the marker lines of search/_eval.pxd): model files record the hash they were fitted
for, and a model fitted for other features is refused at load instead of read silently.
Likewise EK_NET_FEATURES_HASH for the value network's inputs (the `net features` markers of
search/_net.pxd, and the evaluation's features, which the network reads too).
"""
import hashlib
import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("EKONOS_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "nonecheck": False,           # needs the GIL: not allowed in the search's nogil methods
    "embedsignature": True,
}
CFLAGS = ["-O0", "-g"] if DEBUG else ["-O3"]


def cpu_has_popcnt() -> bool:
    """True on x86-64 Linux when /proc/cpuinfo lists the popcnt flag."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return any(line.startswith("flags") and " popcnt" in line for line in f)
    except OSError:
        return False


if not DEBUG and os.environ.get("EKONOS_PORTABLE") != "1" and cpu_has_popcnt():
    CFLAGS.append("-mpopcnt")
MACROS = [] if DEBUG else [("NDEBUG", "1")]


def features_hash(path: str = "search/_eval.pxd", marker: str = "features") -> str:
    """The first 16 hex digits of the sha256 of the lines strictly between `# -- MARKER: begin`
    and `# -- MARKER: end` in `path` (line endings normalised to \\n)."""
    lines = Path(path).read_text(encoding="utf-8").replace("\r\n", "\n").split("\n")
    begin = [i for i, line in enumerate(lines) if line.startswith(f"# -- {marker}: begin")]
    end = [i for i, line in enumerate(lines) if line.startswith(f"# -- {marker}: end")]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise SystemExit(f"{path}: needs one '# -- {marker}: begin' line and one "
                         f"'# -- {marker}: end' line after it")
    text = "\n".join(lines[begin[0] + 1:end[0]]) + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


MODULES = ["ekonos._core", "search._net", "search._ismcts", "search._flat", "search._exact"]
SEARCH_MACROS = [("EK_FEATURES_HASH", f'"{features_hash()}"'),
                 ("EK_NET_FEATURES_HASH", '"%s"' % hashlib.sha256(
                     (features_hash() + features_hash("search/_net.pxd", "net features"))
                     .encode("ascii")).hexdigest()[:16])]

extensions = [
    Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=CFLAGS,
              define_macros=MACROS + (SEARCH_MACROS if name.startswith("search.") else []))
    for name in MODULES
    if os.path.exists(name.replace(".", "/") + ".pyx")
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."], annotate=False))
