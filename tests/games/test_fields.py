"""games.fields reads stored JSON through orjson where that gives exactly
what json gives, and through json where it would not."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.fields import as_text, from_text

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False)
    | st.text()
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)


def same(a, b) -> bool:
    """Equal, type for type all the way down (1 is not 1.0, -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(map(same, a, b))
    if type(a) is float:
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or (a != a and b != b))
    return a == b


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(documents)
def test_stored_text_reads_back_as_json_reads_it(value):
    text = as_text(value)
    assert same(from_text(text), json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        "123456789012345678901234567890",  # beyond 64 bits: orjson would give a float
        "-9223372036854775809",
        '{"big": [1, 18446744073709551616]}',
        "1E400",  # json: inf; orjson refuses
        '{"a": NaN, "b": -Infinity}',
        '"\\ud800"',  # a lone surrogate
        '{"a": 1, "a": 2}',  # the last one wins in both
        " [1, 2.5, -0.0] ",
    ],
)
def test_what_orjson_would_read_otherwise_is_read_by_json(text):
    assert same(from_text(text), json.loads(text))


def test_text_that_is_not_json_is_refused_as_json_refuses_it():
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):
        from_text('{"a": ')
