"""canonical_json keeps one encoder for every call; it must write exactly
what json.dumps with the same options writes, for any JSON document."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import canonical_json

documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=25,
)


def by_definition(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(documents)
def test_canonical_json_writes_what_json_dumps_writes(value):
    assert canonical_json(value) == by_definition(value)


def test_what_is_not_json_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError, match="not JSON serializable"):
        canonical_json({"a": {1, 2}})
    with pytest.raises(TypeError, match="not supported between"):
        canonical_json({1: "a", "b": 2})
