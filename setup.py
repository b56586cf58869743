"""Build of the Cython extensions.  Compiler directives are set here, in one place.

EKONOS_DEBUG=1 builds with bounds checks, wraparound and C assertions on, and without -O3, for
hunting memory errors; the default build is the fast one.
"""
import os

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
MACROS = [] if DEBUG else [("NDEBUG", "1")]

MODULES = ["ekonos._core", "search._ismcts"]

extensions = [
    Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=CFLAGS,
              define_macros=MACROS)
    for name in MODULES
    if os.path.exists(name.replace(".", "/") + ".pyx")
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."], annotate=False))
