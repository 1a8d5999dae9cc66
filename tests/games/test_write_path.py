"""The one write path, held by reading the source: only games.services
appends to a stream, its acts follow one naming rule, and the doors (API,
mail, commands) call only the permission-checking entry points."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "notifications", "accounts", "config", "ratings", "tournaments")
SERVICES = ROOT / "games" / "services"
STORE = ROOT / "games" / "store.py"
# Doors take requests from people: they must go through a check_*.
DOORS = [ROOT / "games" / "api", ROOT / "notifications", *ROOT.glob("*/management/commands")]
# Sets up games for a benchmark, as the tests do: nobody's request.
NOT_DOORS = {ROOT / "notifications" / "benchmark.py"}


def sources(*folders: Path) -> list[Path]:
    return sorted(path for folder in folders for path in folder.rglob("*.py"))


def appends(tree: ast.AST) -> list[int]:
    """Lines that call store.append, or import it to call it by another name."""
    lines = []
    for node in ast.walk(tree):
        called = isinstance(node, ast.Attribute) and node.attr == "append"
        if called and isinstance(node.value, ast.Name) and node.value.id == "store":
            lines.append(node.lineno)
        imported = isinstance(node, ast.ImportFrom) and node.module == "games.stream.store"
        if imported and any(alias.name == "append" for alias in node.names):
            lines.append(node.lineno)
    return lines


def raw_acts(tree: ast.AST) -> list[str]:
    """The do_* names a module takes from games.services."""
    return [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.services")
        for alias in node.names
        if alias.name.startswith("do_")
    ]


def test_the_checks_find_what_they_look_for():
    caught = ast.parse(
        "from games.stream import store\nstore.append(game)\n"
        "from games.stream.store import append\n"
        "from games.services.moves import do_submit_action, check_submit_action\n"
    )
    assert sorted(appends(caught)) == [2, 3]
    assert raw_acts(caught) == ["do_submit_action"]
    assert appends(ast.parse("events.append(1)\nstore.load(game)")) == []


def test_only_the_service_appends_to_a_stream():
    found = []
    for path in sources(*(ROOT / package for package in PACKAGES)):
        if path == STORE or SERVICES in path.parents:
            continue
        lines = appends(ast.parse(path.read_text()))
        found += [f"{path.relative_to(ROOT)}:{line}" for line in lines]
    assert found == [], "append through games.services instead"
    assert any(appends(ast.parse(path.read_text())) for path in sources(SERVICES))


def test_the_doors_call_only_the_check_entry_points():
    found = {}
    for path in sources(*DOORS):
        if path not in NOT_DOORS and (names := raw_acts(ast.parse(path.read_text()))):
            found[str(path.relative_to(ROOT))] = names
    assert found == {}


@pytest.mark.parametrize("path", sources(SERVICES), ids=lambda p: p.name)
def test_every_service_act_is_named_check_or_do(path):
    if path.name in ("__init__.py", "common.py"):
        return
    tree = ast.parse(path.read_text())
    public = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    ]
    assert public
    assert [name for name in public if not name.startswith(("check_", "do_"))] == []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("check_"):
            called = {
                call.func.id
                for call in ast.walk(node)
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            }
            assert any(name.startswith("do_") for name in called), node.name
