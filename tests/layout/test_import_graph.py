"""The layout's promises, checked on the code itself: no import circles in engine/ and judge/, and
nothing in engine/ imports judge/ (data flows one way: engine is the core, judge uses it)."""
from __future__ import annotations

import ast
import os

from tests.conftest import ROOT

TOPS = ("engine", "judge")


def _modules() -> dict[str, str]:
    """Dotted module name -> file, for every module of engine/ and judge/."""
    out = {}
    for top in TOPS:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, f), ROOT)[:-3].replace(os.sep, ".")
                    out[rel.removesuffix(".__init__")] = os.path.join(folder, f)
    return out


def _package(module: str, path: str) -> str:
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


def import_graph() -> dict[str, set[str]]:
    """Edges module -> module for every import statement, at module level or inside a function
    (a lazy import still ties the two), TYPE_CHECKING imports included."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = _package(mod, path).split(".")
                    pkg = pkg[: len(pkg) - (node.level - 1)]
                    base = ".".join(pkg + ([base] if base else []))
                # `from pkg import name` names a submodule when one exists, else something of pkg
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for t in targets:
                if t in modules and t != mod:
                    graph[mod].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a path [a, b, ..., a], or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_the_graph_is_read():
    graph = import_graph()
    assert "engine.rulesets.optcg.ruleset" in graph["engine.rulesets.optcg"]
    assert "engine.store" in graph["engine.match"]


def test_no_import_circles_in_engine_or_judge():
    assert find_cycle(import_graph()) is None


def test_engine_never_imports_judge():
    bad = sorted((m, t) for m, ts in import_graph().items() if m.startswith("engine")
                 for t in ts if t.split(".")[0] == "judge")
    assert bad == []


def test_the_cycle_finder_finds_a_circle():
    # The check must be able to fail: a planted circle is found, with its path.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
