"""Build of the Cython extensions.  Compiler directives are set here, in one place.

EKONOS_DEBUG=1 builds with bounds checks, wraparound and C assertions on, and without -O3, for
hunting memory errors; the default build is the fast one.

On an x86-64 machine whose CPU has the POPCNT instruction (every x86-64 CPU since about 2009, the
x86-64-v2 level), the build uses it (-mpopcnt): the engine counts bits in its hottest loops, and
without it gcc calls a library routine instead of one instruction.  The extension is built for the
machine it is installed on (`pip install .`); EKONOS_PORTABLE=1 leaves the flag out, for a build
meant to run on other machines (a wheel).
"""
import os
import platform

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

MODULES = ["ekonos._core", "search._ismcts", "search._flat"]

extensions = [
    Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=CFLAGS,
              define_macros=MACROS)
    for name in MODULES
    if os.path.exists(name.replace(".", "/") + ".pyx")
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."], annotate=False))
