"""The body parsers: the nesting scan never counts less than a JSON decoder
recurses, in linear time, and what no field can hold is a ParseError."""

from __future__ import annotations

import contextlib
import json
import time

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError

from ops.parsers import load_json, nesting_depth

# Strings full of what could confuse a scan: brackets, quotes, backslashes.
TRICKY = st.text(alphabet='[]{}"\\/ u0aé\x00\ud800', max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=40,
)


def depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@pytest.mark.slow
@hypothesis.settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_the_scan_finds_the_depth_of_any_json_exactly(value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert nesting_depth(text) == depth(value)


@pytest.mark.slow
@hypothesis.settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}"\\:,1 ', max_size=60), st.integers(0, 3000))
def test_no_text_gets_past_the_scan_to_a_recursion_error(prefix, levels):
    """Deep brackets behind any prefix (an open string, stray escapes): the
    body is refused, parsed, or malformed, never a RecursionError."""
    text = prefix + "[" * levels + "]" * levels
    with contextlib.suppress(ParseError):
        load_json(text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1_000_000,
        '{"a":' * 200_000,
        "[]," * 330_000,
        'a"\\"' * 250_000,  # every quote an unterminated string for a naive scan
        '"\\' * 500_000,
        '"' + "x" * 999_999,
    ],
)
def test_the_scan_is_linear_on_a_megabyte(text):
    started = time.perf_counter()
    nesting_depth(text)
    assert time.perf_counter() - started < 2.0  # a quadratic scan takes hours


def test_the_depth_limit_is_the_setting(settings):
    settings.CORREO_JSON_MAX_DEPTH = 5
    assert load_json("[[[[[1]]]]]") == [[[[[1]]]]]
    with pytest.raises(ParseError, match="nested deeper than 5 levels"):
        load_json('[[[{"a": [[1]]}]]]')
    assert load_json('["[[[[[[[[", {"a": "]]]]]]"}]') == ["[[[[[[[[", {"a": "]]]]]]"}]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (r'"\ud83d\ude00"', "\U0001f600"),  # a surrogate pair is one character
        (r'"\u00e9"', "é"),
        (r'"\\u0000"', "\\u0000"),  # an escaped backslash, then plain text
        (r'"\\ud800"', "\\ud800"),
        (str(2**63 - 1), 2**63 - 1),
        (str(-(2**63)), -(2**63)),
        ("1.5e308", 1.5e308),
        ("-0.0", -0.0),
        ('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}', {"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}),
    ],
)
def test_what_a_field_can_hold_is_parsed(text, value):
    assert load_json(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (r'{"a": "x\u0000"}', "NUL"),
        (r'{"a\u0000": 1}', "NUL"),
        (r'["\ud800"]', "lone surrogate"),
        (r'{"\udfff": 1}', "lone surrogate"),
        (r'"\ude00\ud83d"', "lone surrogate"),
        (str(2**63), "does not fit in 64 bits"),
        (str(-(2**63) - 1), "does not fit in 64 bits"),
        ("9" * 5000, "does not fit in 64 bits"),
        ("1e309", "out of range"),
        ("-1e999999", "out of range"),
        ("NaN", "not a JSON number"),
        ("[Infinity]", "not a JSON number"),
        ('{"a": 1, "a": 1}', "given twice"),
        ('[{"b": {"a": 1, "a": 2}}]', "given twice"),
    ],
)
def test_what_no_field_can_hold_is_a_parse_error(text, message):
    with pytest.raises(ParseError, match=message):
        load_json(text)
