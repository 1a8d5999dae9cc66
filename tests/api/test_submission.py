"""A move's body: `submission` answers as DRF's SubmitIn does, for every
shape of body, and takes the bodies players send without the serializer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api import serializers
from games.api.serializers import SubmitIn, submission, validated

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False), st.text(max_size=8),
)  # fmt: skip
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4),
                                                                        inner, max_size=3),
    max_leaves=6,
)  # fmt: skip
texts = st.one_of(
    st.text(max_size=12), st.text(alphabet=" \t\n\r\x00\x0b\u00a0\ud800é a", max_size=8),
    st.integers(min_value=500, max_value=502).map(lambda n: " " + "x" * n + " "),
)  # fmt: skip
fields = {
    "seq": st.one_of(st.integers(min_value=-3, max_value=2**65), values),
    "action": st.one_of(st.dictionaries(st.text(max_size=6), values, max_size=3), values),
    "text": st.one_of(texts, values),
    "other": values,
}
bodies = st.one_of(values, st.fixed_dictionaries({}, optional=fields))


def answer(check, body):
    try:
        return "taken", check(body)
    except ValidationError as refused:
        return "refused", refused.detail


@settings(max_examples=400, deadline=None)
@given(bodies)
def test_every_body_gets_the_serializers_answer(body):
    assert answer(submission, body) == answer(lambda b: validated(SubmitIn, b), body)


@pytest.mark.parametrize(
    "body",
    [{"seq": 4, "action": {"type": "pass"}}, {"seq": 0, "text": "  buy 2 PRR  "},
     {"seq": 7, "action": {"type": "bid", "amount": 25, "x": [1, None]}, "note": "ignored"}],
)  # fmt: skip
def test_a_players_body_is_taken_without_the_serializer(body, monkeypatch):
    def refused(self, *args, **kwargs):
        raise AssertionError("the serializer was asked")

    monkeypatch.setattr(serializers.SubmitIn, "is_valid", refused)
    taken = submission(body)
    assert taken == {k: (v.strip() if k == "text" else v) for k, v in body.items() if k != "note"}
