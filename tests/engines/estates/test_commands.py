"""Email text commands: the canonical lines, looser spellings, garbage."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.estates import ENGINE

from .helpers import ALICE, new_game

STATE = new_game()


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("auction cube row2-left", {"type": "auction", "piece": "cube", "at": "row2-left"}),
        ("auction roof", {"type": "auction", "piece": "roof"}),
        ("auction permit2", {"type": "auction", "piece": "permit2"}),
        ("auction cancel", {"type": "auction", "piece": "cancel"}),
        ("auction mayor", {"type": "auction", "piece": "mayor"}),
        (
            "stash, auction cube row3-right",
            {"type": "auction", "piece": "cube", "at": "row3-right", "stash": True},
        ),
        ("bid 3", {"type": "bid", "amount": 3}),
        ("pass", {"type": "pass"}),
        ("give", {"type": "give"}),
        ("keep", {"type": "keep"}),
        ("place lot b3", {"type": "place", "lot": "b3"}),
        ("place lot a10", {"type": "place", "lot": "a10"}),
        ("cancel permit 2", {"type": "cancel", "permit": 2}),
        ("mayor row a", {"type": "mayor", "row": "a"}),
        ("discard", {"type": "discard"}),
    ],
)
def test_each_command_reads_back_to_its_action(line, action):
    assert ENGINE.text(action) == line
    assert ENGINE.parse(line, STATE, ALICE) == action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("  Auction Cube Row 2 Left. ", {"type": "auction", "piece": "cube", "at": "row2-left"}),
        ("auction row1 right", {"type": "auction", "piece": "cube", "at": "row1-right"}),
        ("auction permit II", {"type": "auction", "piece": "permit2"}),
        ("auction permit 3", {"type": "auction", "piece": "permit3"}),
        ("auction cancel cube", {"type": "auction", "piece": "cancel"}),
        ("stash and auction roof", {"type": "auction", "piece": "roof", "stash": True}),
        ("STASH; auction mayor", {"type": "auction", "piece": "mayor", "stash": True}),
        ("place b3", {"type": "place", "lot": "b3"}),
        ("mayor row 1", {"type": "mayor", "row": "a"}),
        ("mayor row 3", {"type": "mayor", "row": "c"}),
        ("cancel permit iii", {"type": "cancel", "permit": 3}),
        ("cancel 1", {"type": "cancel", "permit": 1}),
    ],
)
def test_looser_spellings_are_understood(line, action):
    assert ENGINE.parse(line, STATE, ALICE) == action


@pytest.mark.parametrize(
    "line",
    [
        "",
        "hello",
        "bid",
        "bid -3",
        "bid three",
        "bid 1.5",
        "auction cube row4-left",
        "auction cube row1-middle",
        "place lot d1",
        "place lot a11",
        "place lot a0",
        "mayor row 4",
        "cancel permit 4",
        "auction permit4",
        "stash",
        "stash, bid 3",
    ],
)
def test_garbage_is_refused_with_a_message(line):
    with pytest.raises(IllegalAction) as caught:
        ENGINE.parse(line, STATE, ALICE)
    assert caught.value.message


def test_a_lone_stash_explains_it_goes_with_the_choice():
    with pytest.raises(IllegalAction, match="same line"):
        ENGINE.parse("stash", STATE, ALICE)


@pytest.mark.parametrize("bad", [None, 3, ["pass"], {"type": "pass"}])
def test_parse_of_a_non_string_is_refused(bad):
    with pytest.raises(IllegalAction):
        ENGINE.parse(bad, STATE, ALICE)


@pytest.mark.parametrize("bad", [{}, {"type": "fly"}, {"type": "bid"}, {"type": "auction"}])
def test_text_of_a_malformed_action_is_refused(bad):
    with pytest.raises(IllegalAction):
        ENGINE.text(bad)
