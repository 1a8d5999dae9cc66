"""Havana's side of the engine contract: what stays hidden, what is redacted,
its own malformed actions and text lines.  The checks every title shares are
in tests/engines/test_contract.py."""

from __future__ import annotations

import random

import pytest

from games.engines import base
from games.engines.base import IllegalAction, canonical_json
from games.engines.havana import ENGINE

from .helpers import SARAH, TOBIAS, VANESSA
from .playout import pick


def test_the_title_is_registered_under_havana_with_two_to_four_players():
    engine = base.get("havana")
    assert engine is ENGINE
    assert (engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.VERSION) == (2, 4, 2)
    assert engine.PROVISIONAL_DATA is True  # the building list is not the printed one
    assert engine.OPTIONS["ages"]["default"] is None


def walk(value):
    """Every scalar and every list in a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from walk(item)
    else:
        yield value


def test_a_face_down_choice_is_invisible_to_every_other_seat_and_spectators():
    state = ENGINE.setup(3, {}, seed=8)
    a = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "9"]})
    b = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["5", "6"]})
    for viewer in (SARAH, TOBIAS, None):
        assert canonical_json(ENGINE.view(a, viewer)) == canonical_json(ENGINE.view(b, viewer))
    assert ENGINE.view(a, VANESSA)["seats"][VANESSA]["choice"] == {"cards": ["0", "9"]}
    assert ENGINE.view(a, SARAH)["seats"][VANESSA]["chosen"] is True


@pytest.mark.slow
def test_hidden_choices_never_leak_during_random_games():
    for players in (2, 3, 4):
        rng = random.Random(players)
        state = ENGINE.setup(players, {}, players)
        while ENGINE.result(state) is None:
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            options = ENGINE.legal_actions(state, seat)
            action = pick(rng, options)
            after = ENGINE.apply(state, seat, action)
            if action["type"] in ("choose", "replace") and after["phase"] == state["phase"]:
                other = ENGINE.apply(state, seat, next(o for o in options if o != action))
                for viewer in [None, *(s for s in range(players) if s != seat)]:
                    seen = canonical_json(ENGINE.view(after, viewer))
                    assert seen == canonical_json(ENGINE.view(other, viewer))
                    assert "choice" not in ENGINE.view(after, viewer)["seats"][seat]
            state = after


def test_the_bag_and_pile_order_never_appear_in_any_view():
    state = ENGINE.setup(4, {}, seed=12)
    for viewer in (None, 0, 1, 2, 3):
        seen = ENGINE.view(state, viewer)
        lists = [v for v in walk(seen) if isinstance(v, list)]
        assert state["bag"] not in lists
        assert state["pile"] not in lists
        assert not set(state["pile"]) & {int(k) for k in seen["buildings"]}
        assert seen["bag_size"] == len(state["bag"])
        assert seen["pile_size"] == len(state["pile"])


def test_hands_and_discards_are_open_to_everyone():
    state = ENGINE.setup(2, {}, seed=12)
    assert ENGINE.view(state, SARAH)["seats"][VANESSA]["hand"] == state["seats"][VANESSA]["hand"]


def test_public_action_hides_the_chosen_cards_and_leaves_the_rest_public():
    state = ENGINE.setup(2, {}, seed=3)
    choose = {"type": "choose", "cards": ["0", "7"]}
    assert ENGINE.public_action(state, VANESSA, choose) == {"type": "choose"}
    replace = {"type": "replace", "card": "9", "cover": "0"}
    assert ENGINE.public_action(state, VANESSA, replace) == {"type": "replace"}
    assert ENGINE.public_action(state, VANESSA, {"type": "end"}) is None


MALFORMED = [
    "end turn",
    {"type": "choose"},
    {"type": "choose", "cards": "07"},
    {"type": "choose", "cards": ["0"]},
    {"type": "choose", "cards": ["0", "0"]},
    {"type": "choose", "cards": [0, 7]},
    {"type": "choose", "cards": ["7", "0"]},
    {"type": "replace", "card": None, "cover": "0"},
    {"type": "replace", "card": "9", "cover": "9"},
    {"type": "buy"},
    {"type": "buy", "building": "B1", "pay": {}},
    {"type": "buy", "building": True, "pay": {"gray": 1}},
    {"type": "buy", "building": 1, "pay": {"gray": 1.0}},
    {"type": "buy", "building": 1, "pay": "gray"},
    {"type": "mama", "cubes": "red"},
    {"type": "mama", "cubes": [["red"]]},
    {"type": "tax", "take": [1]},
    {"type": "tax", "take": {"9": "worker"}},
    {"type": "steal_pesos", "victim": "1"},
    {"type": "steal_pesos", "victim": True},
    {"type": "steal_cubes", "victim": 1},
    {"type": "skip", "card": ["refreshment"]},
    {"type": "skip", "card": "debris"},
    {"type": "conserve", "building": {"a": 1}},
    {"type": "debris", "cards": {1, 2}},
    {1: "x", "type": "end"},
]


def test_malformed_actions_raise_illegal_action_and_leave_the_state_alone():
    rng = random.Random(4)
    state = ENGINE.setup(3, {}, 4)
    steps = 0
    while ENGINE.result(state) is None and steps < 400:
        before = canonical_json(state)
        for seat in [*ENGINE.to_act(state), -1, 99, "0", None, True]:
            for bad in MALFORMED:
                with pytest.raises(IllegalAction):
                    ENGINE.apply(state, seat, bad)
        assert canonical_json(state) == before
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, pick(rng, ENGINE.legal_actions(state, seat)))
        steps += 1


def test_a_seat_that_is_not_to_act_is_told_so():
    state = ENGINE.setup(2, {}, 1)
    state = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "7"]})
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "8"]})


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "hello",
        "buy",
        "buy Bx",
        "buy B3 pay 2purple",
        "choose 2 7",
        "choose 0",
        "play 7 over 0",
        "steal pesos 9",
        "steal gold 1",
        "tax 1",
        "tax 1 gold",
        "mama purple",
        "skip",
        "conserve",
    ],
)
def test_garbage_lines_raise_illegal_action(line):
    state = ENGINE.setup(3, {}, 1)
    with pytest.raises(IllegalAction):
        ENGINE.parse(line, state, VANESSA)


def test_an_ambiguous_card_number_names_both_cards():
    state = ENGINE.setup(2, {}, 1)
    with pytest.raises(IllegalAction, match=r"2p .*2d|2d .*2p"):
        ENGINE.parse("choose 2 7", state, VANESSA)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("choose 0 7", {"type": "choose", "cards": ["0", "7"]}),
        ("Choose 7 siesta", {"type": "choose", "cards": ["0", "7"]}),
        ("choose tax debris", {"type": "choose", "cards": ["2d", "3t"]}),
        ("play 9 on 2p", {"type": "replace", "card": "9", "cover": "2p"}),
        ("mama red red gray", {"type": "mama", "cubes": ["red", "red", "gray"]}),
        ("mama grey red", {"type": "mama", "cubes": ["red", "gray"]}),
        ("steal pesos 1", {"type": "steal_pesos", "victim": 1}),
        (
            "steal cubes 2 gray brown",
            {"type": "steal_cubes", "victim": 2, "cubes": ["brown", "gray"]},
        ),
        ("tax 2 red 1 worker", {"type": "tax", "take": {"1": "worker", "2": "red"}}),
        (
            "buy B2 pay red yellow 5gray",
            {"type": "buy", "building": 2, "pay": {"red": 1, "yellow": 1, "gray": 5}},
        ),
        (
            "buy b12 pay worker 5pesos",
            {"type": "buy", "building": 12, "pay": {"workers": 1, "pesos": 5}},
        ),
        ("skip conservation", {"type": "skip", "card": "conservation"}),
        ("conserve B7", {"type": "conserve", "building": 7}),
        ("black market", {"type": "black_market"}),
        ("end", {"type": "end"}),
    ],
)
def test_text_commands_players_may_type(line, action):
    assert ENGINE.parse(line, ENGINE.setup(3, {}, 1), VANESSA) == action


def test_text_of_an_action_missing_its_fields_is_refused():
    with pytest.raises(IllegalAction):
        ENGINE.text({"type": "buy"})
