"""EngineBase.apply, the one template every title's apply is: its checks in
order, the exact match, and the copy it plays on."""

from __future__ import annotations

import pytest

from games.engines.base import EngineBase, IllegalAction, same_json


class Counter(EngineBase):
    """Seat 0 adds 1 or 2 to a total until it reaches 5."""

    NAME = "counter"
    NOT_YOUR_TURN = "wait"

    def __init__(self) -> None:
        self.played: list[dict] = []

    def to_act(self, state):
        return set() if state["total"] >= 5 else {0}

    def legal_actions(self, state, seat):
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def result(self, state):
        return {"total": state["total"]} if state["total"] >= 5 else None

    def play(self, state, seat, action):
        self.played.append(action)
        state["total"] += action["n"]
        state["log"].append(action["n"])

    def why_not(self, state, seat, action):
        return f"no {action['type']}"


def refusal(engine, state, seat, action) -> str:
    with pytest.raises(IllegalAction) as caught:
        engine.apply(state, seat, action)
    return caught.value.message


def test_a_legal_action_is_played_on_a_copy_with_the_engines_own_action():
    engine = Counter()
    state = {"total": 0, "log": []}
    posted = {"type": "add", "n": 2}
    after = engine.apply(state, 0, posted)
    assert after == {"total": 2, "log": [2]}
    assert state == {"total": 0, "log": []}
    assert engine.played[0] == posted and engine.played[0] is not posted


def test_the_checks_come_in_order_with_the_titles_words():
    engine = Counter()
    over = {"total": 5, "log": []}
    state = {"total": 0, "log": []}
    assert refusal(engine, over, 0, "junk") == "the game is over"
    assert refusal(engine, state, 1, "junk") == "wait"
    assert refusal(engine, state, True, {"type": "add", "n": 1}) == "wait"
    assert refusal(engine, state, 0, {"n": 1}) == 'an action is an object with a "type"'
    assert refusal(engine, state, 0, {"type": "add", "n": object()}) == (
        "an action must be plain JSON data"
    )
    assert refusal(engine, state, 0, {"type": "add", "n": 3}) == "no add"


@pytest.mark.parametrize("n", [True, 1.0, "1", [1], None])
def test_an_equal_value_of_another_type_is_refused(n):
    assert refusal(Counter(), {"total": 0, "log": []}, 0, {"type": "add", "n": n}) == "no add"


def test_same_json_is_equality_type_for_type():
    assert same_json({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not same_json({"a": 1}, {"a": True})
    assert not same_json([1.0], [1])
    assert not same_json({"a": 1}, {"a": 1, "b": 2})
    assert not same_json([1, 2], [1])
