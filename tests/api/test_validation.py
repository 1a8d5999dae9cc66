"""Request validation reuses one serializer per thread and class: it must
answer exactly as a fresh serializer would, call after call."""

from __future__ import annotations

from rest_framework import serializers

from games.api import serializers as s

BODIES = [
    (s.SubmitIn, {"seq": 3, "action": {"type": "take", "card": 2}}),
    (s.SubmitIn, {"seq": "x", "action": {}}),
    (s.SubmitIn, {"seq": 4, "text": "  take 2  "}),
    (s.SubmitIn, {"seq": -1}),
    (s.SubmitIn, {"seq": 5, "action": {"type": "pass"}, "text": "pass"}),
    (s.SubmitIn, {"seq": 6, "action": ["not", "a", "dict"]}),
    (s.SubmitIn, {"seq": 7, "text": "x" * 501}),
    (s.SubmitIn, {"seq": 8, "action": {"type": "pass"}}),
    (s.SubmitIn, {}),
    (s.ClockIn, {"action": "extend", "reason": "ill"}),
    (s.ClockIn, {"action": "extend", "reason": "ill", "by": "24h"}),
    (s.CreateGameIn, {"title": "havana", "players": ["alice", "bob"]}),
    (s.CreateGameIn, {"title": "havana", "players": []}),
    (s.EventsQuery, {"after": "2"}),
    (s.EventsQuery, {"limit": 501}),
]


def fresh(serializer_class, data):
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return "valid", serializer.validated_data
    return "invalid", serializer.errors


def reused(serializer_class, data):
    try:
        return "valid", s.validated(serializer_class, data)
    except serializers.ValidationError as error:
        return "invalid", error.detail


def test_validation_answers_as_a_fresh_serializer_call_after_call():
    for _ in range(2):  # the second round meets serializers that were used
        for serializer_class, data in BODIES:
            assert reused(serializer_class, data) == fresh(serializer_class, data), data


def test_what_validation_returns_is_not_shared_between_calls():
    first = s.validated(s.CreateGameIn, {"title": "havana", "players": ["alice", "bob"]})
    first["options"]["rounds"] = 3
    first["players"].append("eve")
    second = s.validated(s.CreateGameIn, {"title": "havana", "players": ["carol", "dan"]})
    assert second["options"] == {} and second["players"] == ["carol", "dan"]
