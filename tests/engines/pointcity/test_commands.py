"""Email text commands: text(action) lines and the parser reading them back."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.pointcity import ENGINE

from .helpers import ALICE, act, empty_stock, give, new_game, set_space
from .test_payment import COMMUNITY, COMMUNITY_DOUBLE, ENERGY, INGENUITY, MINI_GOLF


@pytest.mark.parametrize(
    ("action", "line"),
    [
        ({"type": "flip", "space": "b3"}, "flip b3"),
        ({"type": "draw"}, "draw"),
        ({"type": "take", "spaces": ["a1", "b1"], "pay": []}, "take a1 b1"),
        (
            {"type": "take", "spaces": ["a2", "a3"], "pay": ["energy2", "ingenuity"]},
            "take a2 a3 pay energy2 ingenuity",
        ),
        ({"type": "civic", "token": 8}, "civic 8"),
        ({"type": "pass"}, "pass"),
    ],
)
def test_each_action_is_one_email_line_and_reads_back(action, line):
    assert ENGINE.text(action) == line
    assert ENGINE.parse(line, new_game(2, seed=1), ALICE) == action


def test_parsing_forgives_case_commas_and_order():
    state = new_game(2, seed=1)
    assert ENGINE.parse("  TAKE b1, a1 ", state, ALICE) == {
        "type": "take",
        "spaces": ["a1", "b1"],
        "pay": [],
    }
    parsed = ENGINE.parse("take a1 b1 pay ingenuity, community2", state, ALICE)
    assert parsed["pay"] == ["community2", "ingenuity"]


def payable_two_ways():
    state = new_game(2, seed=4)
    set_space(state, "a1", MINI_GOLF, "building")
    set_space(state, "b1", ENERGY[0], "resource")
    empty_stock(state, ALICE)
    return state


def test_take_without_pay_uses_the_only_way_to_pay():
    state = payable_two_ways()
    give(state, ALICE, COMMUNITY[:2])
    assert ENGINE.parse("take a1 b1", state, ALICE)["pay"] == ["community", "community"]
    assert act(state, ALICE, "take a1 b1")["seats"][ALICE]["city"] == [MINI_GOLF]


def test_take_without_pay_asks_when_there_are_several_ways():
    state = payable_two_ways()
    give(state, ALICE, [*COMMUNITY[:2], COMMUNITY_DOUBLE[0], INGENUITY[0]])
    with pytest.raises(IllegalAction, match="take a1 b1 pay community2"):
        ENGINE.parse("take a1 b1", state, ALICE)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "fly",
        "flip",
        "flip z9",
        "flip b3 c3",
        "take a1",
        "take a1 b1 c1",
        "take a1 b1 pay gold",
        "civic",
        "civic eight",
        "draw 2",
        "pass now",
        "take a1 q7",
    ],
)
def test_garbage_lines_are_refused_with_a_message(line):
    with pytest.raises(IllegalAction) as info:
        ENGINE.parse(line, new_game(2, seed=1), ALICE)
    assert info.value.message


def test_a_non_text_line_is_refused():
    with pytest.raises(IllegalAction):
        ENGINE.parse(None, new_game(2, seed=1), ALICE)  # type: ignore[arg-type]
