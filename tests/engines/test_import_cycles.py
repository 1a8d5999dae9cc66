"""No module of the engines imports, even inside a function, a module that
imports it back: a title's modules form layers (state and data below the
rules, the rules below the steps and rounds, those below the engine), so each
can be read and tested alone.

The graph holds every module under games/engines by its dotted name: the
shared ones (the protocol, the refusal, the words and verbs, the template,
the registry: none imports a title), each title's, and the modules of a title's
folders (18Cuba's data/, map/, rules/, steps/, rounds/, words/, play/), with
relative and absolute imports alike. A title's folders form layers too: no
folder imports one that imports it back (its top-level modules, which hold
both the leaf refusals and the engine over everything, are not a folder).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games.engines

ROOT = Path(games.engines.__file__).parent
PREFIX = "games.engines"
TITLES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
TITLE_PACKAGES = {f"{PREFIX}.{title}" for title in TITLES}


def modules(root: Path, prefix: str) -> dict[str, Path]:
    """Every module under `root` by its dotted name (a package by its own)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((prefix, *parts))] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules among `known` that the module `name` imports, anywhere in
    it: `from pkg import mod` imports the module pkg.mod, `from mod import x`
    the module mod."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                parts = package.split(".")
                source = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [source])])
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                for alias in node.names
            ]
        else:
            continue
        found |= {target for target in targets if target in known and target != name}
    return found


def graph(root: Path, prefix: str) -> dict[str, set[str]]:
    found = modules(root, prefix)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[str]:
    """The nodes that reach themselves."""

    def reached(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    return sorted(node for node in edges if node in reached(node))


def folders(edges: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """The import graph between the folders (subpackages) of `package`."""
    depth = len(package.split("."))
    subpackages = {
        name
        for name in edges
        if name.startswith(package + ".") and any(other.startswith(name + ".") for other in edges)
    }

    def folder(module: str) -> str | None:
        parts = module.split(".")
        top = ".".join(parts[: depth + 1])
        return top if top in subpackages else None

    out: dict[str, set[str]] = {name: set() for name in subpackages}
    for module, targets in edges.items():
        mine = folder(module)
        if mine is None:
            continue
        out[mine] |= {f for f in map(folder, targets) if f is not None and f != mine}
    return out


EDGES = graph(ROOT, PREFIX)


@pytest.mark.parametrize("title", TITLES)
def test_a_titles_modules_import_no_circle(title):
    package = f"{PREFIX}.{title}"
    assert [m for m in cycles(EDGES) if m == package or m.startswith(package + ".")] == []


def test_no_module_of_the_engines_imports_one_that_imports_it_back():
    assert cycles(EDGES) == []


def test_no_shared_module_imports_a_title():
    """The registry finds titles by name at run time; nothing below it may
    import one, or a title would import itself through the shared parts."""
    shared = {name for name in EDGES if name.count(".") == 2 and name not in TITLE_PACKAGES}
    found = {
        name: {t for t in EDGES[name] if any(t.startswith(p) for p in TITLE_PACKAGES)}
        for name in shared
    }
    assert {name: titles for name, titles in found.items() if titles} == {}


@pytest.mark.parametrize("title", TITLES)
def test_a_titles_folders_import_no_circle(title):
    assert cycles(folders(EDGES, f"{PREFIX}.{title}")) == []


def test_the_graph_sees_a_titles_folders_and_the_shared_modules():
    offer = EDGES["games.engines.cuba.steps.offer"]
    assert {"games.engines.cuba.rules.turn", "games.engines.base"} <= offer
    assert "games.engines.cuba.steps.offer" in EDGES["games.engines.cuba.rounds.operating"]
    assert set(folders(EDGES, "games.engines.cuba")) >= {
        f"games.engines.cuba.{name}" for name in ("data", "map", "rules", "steps", "rounds")
    }


def test_a_circle_is_found(tmp_path):
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n")
    (tmp_path / "c.py").write_text("from .a import y\n")
    assert cycles(graph(tmp_path, "pkg")) == ["pkg.a", "pkg.b"]


def test_a_circle_through_folders_and_absolute_imports_is_found(tmp_path):
    for folder in ("low", "high"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "low" / "x.py").write_text("def f():\n    from ..high import y\n")
    (tmp_path / "high" / "y.py").write_text("import pkg.low.x\n")
    (tmp_path / "high" / "z.py").write_text("from ..low.x import f\n")
    edges = graph(tmp_path, "pkg")
    assert cycles(edges) == ["pkg.high.y", "pkg.low.x"]
    assert cycles(folders(edges, "pkg")) == ["pkg.high", "pkg.low"]


def test_folders_that_import_one_way_are_layers(tmp_path):
    for folder in ("low", "high"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "low" / "x.py").write_text("from .. import top\n")
    (tmp_path / "high" / "y.py").write_text("from ..low import x\n")
    (tmp_path / "top.py").write_text("def f():\n    from .high import y\n")
    edges = graph(tmp_path, "pkg")
    assert cycles(folders(edges, "pkg")) == []
    assert cycles(edges) == ["pkg.high.y", "pkg.low.x", "pkg.top"]
