"""The architecture, checked: layers in one direction, no import cycle, private state read only
where it is owned, steps and moves as values, modules of one job.

These read the source as text/AST (nothing is imported), so a violation fails here with the file
and line, before it spreads.  docs/architecture.md explains the layout they protect.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("ekonos", "search", "cli")          # each may import only the layers before it
MAX_LINES = 500
# Modules allowed past MAX_LINES, with the reason (keep this list short).
LONG_OK = {
    "ekonos/_core.pyx": "the C engine: one struct and the functions that move it, kept together",
}


def sources(*patterns: str) -> list[Path]:
    out: list[Path] = []
    for layer in LAYERS:
        for pattern in patterns:
            out += sorted((ROOT / layer).rglob(pattern))
    return [p for p in out if "__pycache__" not in p.parts]


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def module_name(p: Path) -> str:
    parts = list(p.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(p: Path) -> set[str]:
    """Every module a file imports, at any depth of the file (lazy imports included)."""
    text = p.read_text(encoding="utf-8")
    if p.suffix in (".pyx", ".pxd"):          # Cython: (c)import statements by pattern
        names = re.findall(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", text, re.M)
        return {a or b for a, b in names}
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_layers_import_only_downwards():
    """ekonos imports neither search nor cli; search does not import cli."""
    bad = []
    for p in sources("*.py", "*.pyx", "*.pxd"):
        layer = LAYERS.index(p.relative_to(ROOT).parts[0])
        for name in imports_of(p):
            top = name.split(".")[0]
            if top in LAYERS and LAYERS.index(top) > layer:
                bad.append(f"{rel(p)} imports {name}")
    assert not bad, "\n".join(bad)


#: Rooms of search/ that measure or learn: they may import the playing part, never the reverse.
ROOMS = ("search.lab", "search.learn")


def test_what_plays_never_imports_the_lab_or_learning():
    """search/* (the searcher, bots, evaluation at play time, hint, review) imports neither
    search.lab nor search.learn; those two may import each other and the playing part."""
    bad = []
    for p in sources("*.py", "*.pyx", "*.pxd"):
        name = module_name(p)
        if not name.startswith("search") or any(name == r or name.startswith(r + ".")
                                                 for r in ROOMS):
            continue
        for imp in imports_of(p):
            if any(imp == r or imp.startswith(r + ".") for r in ROOMS):
                bad.append(f"{rel(p)} imports {imp}")
    assert not bad, "\n".join(bad)


#: The modules that may import JAX (the extra `train`), the two trainers: nothing that plays,
#: nothing a command imports before it needs to train.
JAX_OK = {"search/learn/net_train.py", "search/learn/policy_train.py"}


def test_only_the_network_trainers_import_jax():
    bad = [f"{rel(p)} imports {name}" for p in sources("*.py", "*.pyx", "*.pxd")
           if rel(p) not in JAX_OK for name in imports_of(p)
           if name.split(".")[0] in ("jax", "jaxlib", "optax")]
    assert not bad, "\n".join(bad)


#: The one module that may import scipy (the extra `calibrate`): the fit of the calibration map.
#: Playing applies the map with numpy alone (search/calibration_map.py).
SCIPY_OK = {"search/learn/calibration_fit.py"}


def test_only_the_calibration_fit_imports_scipy():
    bad = [f"{rel(p)} imports {name}" for p in sources("*.py", "*.pyx", "*.pxd")
           if rel(p) not in SCIPY_OK for name in imports_of(p) if name.split(".")[0] == "scipy"]
    assert not bad, "\n".join(bad)


def test_the_web_board_and_the_terminal_share_only_the_presentation():
    """cli/web and cli/render are two faces of one game: what both show (colours, the map grid,
    mark signs) lives in cli/presentation.py, and neither imports the other."""
    faces = {"cli.web": "cli.render", "cli.render": "cli.web"}
    bad = [f"{rel(p)} imports {name}" for p in sources("*.py")
           for face, other in faces.items() if module_name(p).startswith(face)
           for name in imports_of(p) if name == other or name.startswith(other + ".")]
    assert not bad, "\n".join(bad)

def test_no_import_cycle_between_project_modules():
    modules = {module_name(p): p for p in sources("*.py")}
    graph: dict[str, set[str]] = {}
    for name, p in modules.items():
        deps = set()
        for imp in imports_of(p):
            while imp and imp not in modules:        # `from a.b import c`: c may be a name
                imp = imp.rpartition(".")[0]
            if imp and imp != name and not name.startswith(imp + "."):  # a package's own init
                deps.add(imp)
        graph[name] = deps
    cycles = []
    state: dict[str, int] = {}                       # 1 on the stack, 2 done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append(" -> ".join(path[path.index(dep):] + [dep]))
            elif dep not in state:
                visit(dep, path + [dep])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def grep(pattern: str, files: list[Path], allowed: set[str] = frozenset()) -> list[str]:
    rx = re.compile(pattern)
    hits = []
    for p in files:
        if rel(p) in allowed:
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if rx.search(line) and not line.lstrip().startswith("#"):
                hits.append(f"{rel(p)}:{i}: {line.strip()}")
    return hits


def everything() -> list[Path]:
    files = sources("*.py", "*.pyx")
    for extra in ("tests", "benchmarks"):
        files += sorted((ROOT / extra).rglob("*.py"))
    return [p for p in files if p != Path(__file__).resolve()]


def test_private_fields_are_read_only_where_they_are_owned():
    """The read API replaces `_fields()`: only the state and the position file may use it."""
    hits = grep(r"\._fields\(", everything(),
                {"ekonos/state.py", "ekonos/position.py", "ekonos/_core.pyx",
                 # the one test of the private loader itself: it must refuse a damaged struct
                 "tests/engine/test_api_argument_checks.py"})
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("pattern", [
    r"step(_name)?\s*(==|!=|\bin\b|\bnot in\b)\s*[(\[{]?\s*['\"]",     # st.step_name == "sell"
    r"['\"](card|expand-choice|expand|sell|buy|successor|over)['\"]\s*(==|!=)\s*\w*step",
])
def test_steps_are_never_compared_as_strings(pattern):
    hits = grep(pattern, sources("*.py", "*.pyx"))
    assert not hits, "compare with ekonos.rules.Step instead:\n" + "\n".join(hits)


def test_notation_text_is_split_only_in_notation():
    verbs = "play|place|protect|grow|sell|buy|pass|successor|expand|stop|wait"
    hits = grep(r"(action_text|move_text)\([^)]*\)\.split|"
                rf"\.startswith\(\(?\s*['\"]({verbs})\b",
                sources("*.py"), {"ekonos/notation.py"})
    assert not hits, "read Move fields instead of notation text:\n" + "\n".join(hits)


def test_modules_stay_small():
    long = []
    for p in sources("*.py", "*.pyx"):
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES and rel(p) not in LONG_OK:
            long.append(f"{rel(p)}: {n} lines")
    assert not long, f"over {MAX_LINES} lines (one job per module?):\n" + "\n".join(long)
