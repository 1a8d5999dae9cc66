"""Views: the top pile card's resource side is public; the rest of the pile,
the removed cards, the unrevealed tokens and card backs are hidden; stocks are open."""

from __future__ import annotations

import random

from games.engines.base import canonical_json, clone
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS

from .helpers import ALICE, BOB, act, new_game


def scramble_hidden(state, seed: int):
    """The same game as far as anyone can see: hidden zones shuffled together."""
    other = clone(state)
    rng = random.Random(seed)
    hidden = other["pile"][1:] + other["removed"]
    rng.shuffle(hidden)
    cut = len(other["pile"]) - 1
    other["pile"] = other["pile"][:1] + hidden[:cut] if other["pile"] else []
    other["removed"] = hidden[cut:] if other["pile"] else hidden
    rng.shuffle(other["token_box"])
    return other


def views(state):
    return [canonical_json(ENGINE.view(state, s)) for s in (None, *range(len(state["seats"])))]


def test_hidden_cards_and_tokens_never_change_any_view():
    state = act(new_game(3, seed=5), ALICE, "take a1 b1")
    for seed in range(5):
        assert views(scramble_hidden(state, seed)) == views(state)


def test_the_top_pile_card_shows_its_resource_side_only():
    state = new_game(2, seed=5)
    top = CARDS[state["pile"][0]]
    pile = ENGINE.view(state, BOB)["pile"]
    assert pile == {
        "count": len(state["pile"]),
        "top": {"resource": top.resource, "symbols": top.symbols},
    }


def test_a_resource_side_market_card_hides_its_building_side():
    space = ENGINE.view(new_game(2, seed=5), ALICE)["market"][0]
    assert set(space) == {"space", "side", "resource", "symbols"}


def test_a_building_side_market_card_shows_the_building():
    state = act(new_game(2, seed=5), ALICE, "flip c3")
    card = CARDS[state["market"][10]["card"]]
    space = ENGINE.view(state, BOB)["market"][10]
    assert space["side"] == "building"
    assert (space["name"], space["cost"], space["points"]) == (card.name, card.cost, card.points)
    assert "resource" not in space


def test_stocks_are_open_to_every_seat_and_spectators():
    state = act(new_game(2, seed=5), ALICE, "draw")
    kinds = sorted(CARDS[c].stock_kind for c in state["seats"][ALICE]["stock"])
    for seat in (None, ALICE, BOB):
        assert sorted(ENGINE.view(state, seat)["seats"][ALICE]["stock"]) == kinds


def test_every_seat_sees_the_same_apart_from_who_is_asking():
    state = act(new_game(3, seed=5), ALICE, "draw")
    seen = [ENGINE.view(state, s) for s in (None, 0, 1, 2)]
    for seat, view in zip((None, 0, 1, 2), seen, strict=True):
        assert view.pop("you") == seat
    assert all(v == seen[0] for v in seen)


def test_no_action_needs_redacting():
    state = new_game(2, seed=5)
    for action in ENGINE.legal_actions(state, ALICE):
        assert ENGINE.public_action(state, ALICE, action) is None


def test_solo_view_shows_the_opponent_and_its_next_spaces():
    view = ENGINE.view(new_game(1, seed=5), ALICE)
    assert view["opponent"]["next_spaces"] == ["a2", "a3"]
    assert view["opponent"]["score"]["level"] == view["level"]


def test_the_finished_game_view_carries_the_result():
    state = new_game(2, seed=5)
    state["phase"], state["end"] = "over", "the market could not be refilled"
    view = ENGINE.view(state, None)
    assert view["result"] == ENGINE.result(state)
    assert "stars" not in view  # solo only
