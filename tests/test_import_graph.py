"""The project's import graph, read from the source (ast): no circle and no upward import.

Every import counts: the lazy ones inside functions, and those under
``if TYPE_CHECKING:`` (a dependency of the design even where it never runs). The layers are
ARCHITECTURE.md's: a package imports only from those to its left. The one
upward import allowed is listed here, with its reason; no circle is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("dictionaries", "cpmodel", "generators", "benchmarks", "mobius")

# Upward imports allowed, (importer, imported). The CLI fuzzer's subject is the CLI itself: it
# runs `mobius.cli.app` in-process (fast enough for thousands of cases), so it must import it.
ALLOWED_UPWARD = {("mobius.benchmarks.fuzz_cli", "mobius.cli")}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for package in LAYERS for path in (ROOT / package).rglob("*.py")}


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports: `from P import M` names module P.M where it is one, else P."""
    return {m for m in imported_names(name, path, modules) if m in modules and m != name}


def imported_names(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module name `name` imports, the project's or not."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
    return found


def import_graph() -> nx.DiGraph:
    modules = project_modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        graph.add_edges_from((name, imported) for imported in imports_of(name, path, modules))
    return graph


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_the_import_graph_has_no_circle() -> None:
    circles = [set(c) for c in nx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert circles == []


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    upward = {(a, b) for a, b in import_graph().edges if layer(b) > layer(a)}
    assert upward - ALLOWED_UPWARD == set()


FAMILIES = ("crossword", "slider")


def family(module: str) -> str | None:
    """The family folder a `generators` module lives in, if any."""
    parts = module.split(".")
    return parts[1] if parts[0] == "generators" and len(parts) > 2 and parts[1] in FAMILIES else None


def test_generators_families_import_only_the_shared_top_and_never_each_other() -> None:
    """ARCHITECTURE.md's folders by family: the top of `generators` needs no family, and no
    family needs another."""
    crossing = {(a, b) for a, b in import_graph().edges
                if a.startswith("generators.") and b.startswith("generators.")
                and family(b) is not None and family(a) != family(b)}
    assert crossing == set()


def test_every_import_of_a_project_module_names_one_that_exists() -> None:
    """A module moved or removed leaves no import of it behind (a script's, run rarely, included)."""
    modules = project_modules()
    missing = {(name, imported) for name, path in modules.items()
               for imported in imported_names(name, path, modules)
               if imported.split(".")[0] in LAYERS and imported not in modules}
    assert missing == set()


def test_the_graph_sees_lazy_imports_and_would_find_a_circle() -> None:
    """The reader finds an import inside a function, and a circle made of such edges."""
    graph = import_graph()
    assert graph.has_edge("mobius.cpmodel.slider.heuristics", "mobius.cpmodel.slider.pdb_build")  # a lazy import
    graph.add_edge("mobius.cpmodel.slider.pdb_build", "mobius.cpmodel.slider.heuristics")
    assert any(len(c) > 1 for c in nx.strongly_connected_components(graph))
