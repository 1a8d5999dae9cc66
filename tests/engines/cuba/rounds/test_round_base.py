"""The one rule that drives every round: the first active step that accepts
the move processes it; a blocking step refuses the rest."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.rounds.base import Round
from games.engines.verbs import Verb, line


def step(name, actions, *, active=True, blocking=False):
    """A step module made of functions and its verbs, as the real ones are."""

    def apply(state, seat, action):
        state["log"].append((name, action["type"]))

    return SimpleNamespace(
        NAME=name,
        VERBS=tuple(
            Verb(type=a, fields={}, lines=line(a), says="{who} " + a, gloss=None, group=None)
            for a in sorted(actions)
        ),
        ACTIONS=frozenset(actions),
        active=lambda state: active,
        blocking=lambda state: blocking,
        legal=lambda state, seat: [{"type": a} for a in sorted(actions)],
        apply=apply,
    )


def play(round_, kind):
    state = {"log": []}
    round_.process(state, 0, {"type": kind})
    return state["log"]


def test_the_first_active_step_that_accepts_the_move_processes_it():
    r = Round("test round", (step("a", {"x"}), step("b", {"x", "y"})))
    assert play(r, "x") == [("a", "x")]
    assert play(r, "y") == [("b", "y")]


def test_an_inactive_step_is_passed_over():
    r = Round("test round", (step("a", {"x"}, active=False), step("b", {"x"})))
    assert play(r, "x") == [("b", "x")]


def test_a_non_blocking_step_may_be_skipped():
    r = Round("test round", (step("optional", {"buy"}), step("next", {"run"})))
    assert play(r, "run") == [("next", "run")]


def test_a_blocking_step_refuses_the_moves_of_later_steps():
    dividend = step("pay out or retain", {"payout"}, blocking=True)
    r = Round("test round", (dividend, step("b", {"buy"})))
    with pytest.raises(IllegalAction, match="'buy' is not possible now: first pay out or retain"):
        play(r, "buy")


def test_a_move_no_active_step_takes_is_refused():
    r = Round("test round", (step("a", {"x"}), step("b", {"y"}, active=False)))
    with pytest.raises(IllegalAction, match="not possible in the test round"):
        play(r, "y")


def test_legal_moves_stop_at_the_first_blocking_step():
    r = Round(
        "test round",
        (step("a", {"x"}), step("b", {"y"}, blocking=True), step("c", {"z"})),
    )
    assert r.legal({}, 0) == [{"type": "x"}, {"type": "y"}]


def test_text_and_parse_go_to_the_step_that_owns_the_move():
    r = Round("test round", (step("a", {"x"}), step("b", {"y"}, blocking=True), step("c", {"z"})))
    assert r.text({"type": "z"}) == "z"
    assert r.parse("y", {}, 0) == {"type": "y"}
    with pytest.raises(IllegalAction, match="'z' is not a move of the test round now"):
        r.parse("z", {}, 0)  # behind a blocking step: not a move now
    with pytest.raises(IllegalAction):
        r.text({"type": "w"})


def test_a_line_is_read_by_the_first_reachable_step_whose_verb_it_is():
    """Two steps may share a verb (the pass); an inactive step reads nothing."""
    r = Round("test round", (step("a", {"x"}, active=False), step("b", {"x", "y"})))
    assert r.parse("x", {}, 0) == {"type": "x"}
    r = Round("test round", (step("a", {"x"}, active=False), step("b", {"y"})))
    with pytest.raises(IllegalAction, match="not a move"):
        r.parse("x", {}, 0)
