"""Each title's state is declared once (a TypedDict in <title>/state.py) and
its copy is derived from that declaration.

Every key of every state met in the golden games must be declared, with the
declared type: an undeclared key would be shared by the copy instead of
copied, and an ``apply`` could then change the state it was given.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

import pytest

from games.audit import golden
from games.engines import base, typed
from tests.golden import record

FIXTURES = sorted(record.HERE.glob("*/*.json"))


def titles() -> dict[str, base.Engine]:
    found = {}
    for name in base.KNOWN_TITLES:
        try:
            found[name] = base.get(name)
        except KeyError:
            continue  # no ENGINE yet
    return found


def test_every_title_declares_its_state():
    for name, engine in titles().items():
        assert engine.STATE_TYPE is not None, name
        assert typed.problems({}, engine.STATE_TYPE), name  # a TypedDict, with keys


@pytest.mark.slow
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_state_of_a_golden_game_is_as_declared(path):
    recording = record.load(path)
    engine = base.get(recording.title)
    state = recording.setup
    assert typed.problems(state, engine.STATE_TYPE) == []
    for number, step in enumerate(recording.steps, 1):
        state = golden.apply_step(engine, state, step)
        assert typed.problems(state, engine.STATE_TYPE) == [], f"after step {number}"


# -- the derived copy and the check, on a small declaration -------------------


class Inner(TypedDict):
    items: list[int]
    name: str


class Sample(TypedDict):
    count: int
    tags: list[str]
    grid: list[list[int]]
    inner: Inner
    maybe: Inner | None
    later: NotRequired[list[int]]
    table: Annotated[dict[str, Any], typed.SHARED]
    blob: dict[str, Any]


def sample() -> dict[str, Any]:
    return {
        "count": 1,
        "tags": ["a"],
        "grid": [[1, 2], [3]],
        "inner": {"items": [1], "name": "x"},
        "maybe": {"items": [2], "name": "y"},
        "table": {"k": [1]},
        "blob": {"deep": [[1]]},
    }


def test_the_copy_shares_only_scalars_and_shared_parts():
    copy = typed.copier(Sample)
    original = sample()
    new = copy(original)
    assert new == original
    assert new["tags"] is not original["tags"]
    assert new["grid"][0] is not original["grid"][0]
    assert new["inner"]["items"] is not original["inner"]["items"]
    assert new["maybe"]["items"] is not original["maybe"]["items"]
    assert new["blob"]["deep"][0] is not original["blob"]["deep"][0]  # Any: copied whole
    assert new["table"] is original["table"]
    assert "later" not in new
    with_later = {**original, "later": [5], "maybe": None}
    copied = copy(with_later)
    assert copied["later"] == [5] and copied["later"] is not with_later["later"]
    assert copied["maybe"] is None


def test_the_check_finds_an_undeclared_key_a_missing_one_and_a_wrong_type():
    state = sample()
    assert typed.problems(state, Sample) == []
    state["extra"] = []
    state["inner"]["items"] = [1, "2"]
    del state["tags"]
    state["maybe"] = {"items": [], "name": 3}
    found = typed.problems(state, Sample)
    assert "state.extra is not declared in Sample" in found
    assert "state.tags is missing" in found
    assert "state.inner.items[1] is '2', not int" in found
    assert "state.maybe.name is 3, not str" in found
    assert len(found) == 4, found


def test_a_bool_is_not_an_int_here_as_in_json():
    assert typed.problems(True, int) == ["state is True, not int"]
