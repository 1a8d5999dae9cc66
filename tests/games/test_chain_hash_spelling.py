"""The version-2 hash is written out by hand for speed (games.stream.chain._v2_hash);
here it is held to its definition, the sha256 of the canonical JSON of
`{"prev", "event": sealed_fields(...)}`, for any event a stream can hold."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Event
from games.stream import chain
from games.stream.payloads import public_payload

json_scalars = st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(), json_values, max_size=4) | st.fixed_dictionaries(
    {"action": json_values, "public": json_values}
)
moments = st.datetimes(
    min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2100, 1, 1),
    timezones=st.sampled_from([datetime.UTC, datetime.timezone(datetime.timedelta(hours=-5))]),
)  # fmt: skip


def by_definition(event: Event) -> str:
    sealed = chain.sealed_fields(event, public_payload(event), chain.commitment(event))
    return chain.sha256({"prev": event.prev_hash, "event": sealed})


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["created", "action", "timeout", "note", 'a "quoted" kind é']),
    payload=payloads,
    seat=st.none() | st.integers(min_value=0, max_value=7),
    actor=st.none() | st.integers(min_value=1, max_value=2**62),
    source=st.sampled_from(["api", "email", "timer", "moderator"]),
    nonce=st.text(max_size=40),
    prev=st.text(max_size=70),
    moment=moments,
    game=st.integers(min_value=1, max_value=2**62),
    seq=st.integers(min_value=1, max_value=2**31),
)
def test_version_2_hash_as_written_out_equals_its_definition(
    kind, payload, seat, actor, source, nonce, prev, moment, game, seq
):
    event = Event(game_id=game, seq=seq, kind=kind, seat=seat, actor_id=actor, source=source,
                  payload=payload, created_at=moment, prev_hash=prev, nonce=nonce)  # fmt: skip
    assert chain.compute_hash(event, 2) == by_definition(event)


def test_a_changed_payload_changes_the_written_out_hash():
    moment = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    event = Event(game_id=1, seq=2, kind="action", seat=0, actor_id=3, source="api",
                  payload={"action": {"type": "pass"}}, created_at=moment,
                  prev_hash="0" * 64, nonce="ab")  # fmt: skip
    before = chain.compute_hash(event, 2)
    event.payload = {"action": {"type": "pass", "n": 1}}
    assert chain.compute_hash(event, 2) != before
