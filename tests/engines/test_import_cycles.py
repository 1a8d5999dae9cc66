"""No module of a title imports, even inside a function, a module that
imports it back: a title's modules form layers (state and data below the
rules, the rules below the engine), so each can be read and tested alone.

The engines' shared modules (``games/engines/*.py``: the protocol, the
refusal, the words and verbs, the template, the registry) form layers the
same way, below every title: none imports a title."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games.engines

ROOT = Path(games.engines.__file__).parent
PACKAGES = sorted(p.parent for p in ROOT.glob("*/__init__.py"))


def sibling_imports(path: Path) -> set[str]:
    """The modules of the same package that ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found |= {alias.name for alias in node.names}
    return found


def cycles(package: Path) -> list[str]:
    graph = {f.stem: sibling_imports(f) for f in package.glob("*.py")}

    def reached(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    return sorted(module for module in graph if module in reached(module))


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_a_titles_modules_import_no_circle(package):
    assert cycles(package) == []


def test_the_engines_shared_modules_import_no_circle():
    assert cycles(ROOT) == []


def test_no_shared_module_imports_a_title():
    """The registry finds titles by name at run time; nothing below it may
    import one, or a title would import itself through the shared parts."""
    titles = {package.name for package in PACKAGES}
    found = {path.stem: sibling_imports(path) & titles for path in ROOT.glob("*.py")}
    assert {module: names for module, names in found.items() if names} == {}


def test_a_circle_is_found(tmp_path):
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n")
    (tmp_path / "c.py").write_text("from .a import y\n")
    assert cycles(tmp_path) == ["a", "b"]
