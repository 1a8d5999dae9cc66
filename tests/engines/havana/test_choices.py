"""Phases 0 and 3: simultaneous face-down choices, reveal, discard, hand refill."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.havana import ENGINE

from .helpers import SARAH, TOBIAS, VANESSA


def choose_all(state, pairs):
    for seat, cards in pairs.items():
        state = ENGINE.apply(state, seat, {"type": "choose", "cards": cards})
    return state


def test_phase_zero_offers_every_pair_of_the_thirteen_cards_low_left():
    state = ENGINE.setup(3, {}, seed=2)
    options = ENGINE.legal_actions(state, VANESSA)
    assert len(options) == 13 * 12 // 2
    assert {"type": "choose", "cards": ["0", "7"]} in options
    assert {"type": "choose", "cards": ["7", "0"]} not in options


def test_a_seat_that_has_chosen_waits_for_the_others():
    state = ENGINE.setup(3, {}, seed=2)
    state = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "7"]})
    assert ENGINE.to_act(state) == {SARAH, TOBIAS}
    assert ENGINE.legal_actions(state, VANESSA) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["1", "8"]})
    # Nothing is revealed yet: her hand is still whole and no card lies face up.
    assert len(state["seats"][VANESSA]["hand"]) == 13
    assert state["seats"][VANESSA]["cards"] == []


def test_reveal_orders_the_cards_low_left_and_takes_them_from_the_hand():
    state = ENGINE.setup(3, {}, seed=2)
    state = choose_all(
        state,
        {VANESSA: ["0", "7"], SARAH: ["3t", "9"], TOBIAS: ["1", "5"]},
    )
    assert state["phase"] == "actions"
    assert state["seats"][VANESSA]["cards"] == ["0", "7"]
    assert "7" not in state["seats"][VANESSA]["hand"]
    assert len(state["seats"][SARAH]["hand"]) == 11
    assert state["order"] == [VANESSA, TOBIAS, SARAH]  # 07, 15, 39


def finish_round(state):
    """Everyone ends their turn doing the first listed thing (no purchases)."""
    while state["phase"] == "actions":
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
    return state


def test_phase_three_covers_one_card_and_discards_it():
    state = ENGINE.setup(2, {}, seed=4)
    state = choose_all(state, {VANESSA: ["0", "1"], SARAH: ["0", "1"]})
    state = finish_round(state)
    assert state["phase"] == "replace"
    assert ENGINE.to_act(state) == {VANESSA, SARAH}
    options = ENGINE.legal_actions(state, VANESSA)
    assert len(options) == 11 * 2
    state = ENGINE.apply(state, VANESSA, {"type": "replace", "card": "9", "cover": "0"})
    assert state["seats"][VANESSA]["cards"] == ["0", "1"]  # not revealed yet
    state = ENGINE.apply(state, SARAH, {"type": "replace", "card": "2p", "cover": "1"})
    assert state["seats"][VANESSA]["cards"] == ["1", "9"]
    assert state["seats"][VANESSA]["discard"] == ["0"]
    assert state["seats"][SARAH]["cards"] == ["0", "2p"]
    assert state["seats"][SARAH]["discard"] == ["1"]
    assert state["round"] == 2
    assert state["order"] == [SARAH, VANESSA]  # 02 before 19


def test_hand_is_refilled_with_the_discards_when_two_or_fewer_cards_remain():
    state = ENGINE.setup(2, {}, seed=4)
    state = choose_all(state, {VANESSA: ["0", "1"], SARAH: ["0", "1"]})
    sizes = []
    for _ in range(10):
        state = finish_round(state)
        for seat in (VANESSA, SARAH):
            play = ENGINE.legal_actions(state, seat)[0]
            state = ENGINE.apply(state, seat, play)
        sizes.append(len(state["seats"][VANESSA]["hand"]))
    # 11 after phase 0, one fewer each round; at 2 the 9 discards come back.
    assert sizes == [10, 9, 8, 7, 6, 5, 4, 3, 11, 10]
    seat = state["seats"][VANESSA]
    assert len(seat["hand"]) + len(seat["discard"]) + len(seat["cards"]) == 13


def test_a_choice_is_checked_against_the_one_pair_it_names_exactly_as_against_all():
    """Phase 0 validates a choice without listing all 78 pairs; whatever is
    posted, it is accepted or refused exactly as the full list would have it."""
    from games.engines.havana import rounds

    state = ENGINE.setup(3, {}, seed=2)
    hand = state["seats"][VANESSA]["hand"]
    posted = [[a, b] for a in hand for b in hand]
    posted += [["0"], ["0", "7", "8"], "07", None, ["0", 7], ["x", "0"], [True, "0"], [["0"], "7"]]
    options = rounds.choose_actions(state, VANESSA)
    for cards in posted:
        action = {"type": "choose", "cards": cards}
        legal = [a for a in options if a == action]
        assert [a for a in rounds.candidates(state, VANESSA, action) if a == action] == legal
