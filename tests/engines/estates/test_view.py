"""Hidden information: cheques, stash and roof order stay with their owners."""

from __future__ import annotations

from games.engines.base import canonical_json
from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, passes

CHOOSE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def test_a_seat_sees_its_own_cheques_and_stash():
    game = new_game()
    game["money"], game["stash"] = [9, 10, 11], [3, 2, 1]
    assert ENGINE.view(game, BOB)["you"] == {"seat": BOB, "cheques": 10, "stash": 2}


def test_other_seats_cheques_and_stash_never_show_in_a_view():
    game = new_game()
    changed = new_game()
    changed["money"], changed["stash"] = [3, 12, 21], [9, 0, 0]
    assert canonical_json(ENGINE.view(game, BOB)) == canonical_json(ENGINE.view(changed, BOB))
    assert canonical_json(ENGINE.view(game, None)) == canonical_json(ENGINE.view(changed, None))
    assert "you" not in ENGINE.view(game, None)


def test_the_roof_order_is_hidden_until_a_roof_is_chosen():
    game = build(new_game(), "a1", ["skyline-3"])
    game["roofs"] = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]
    shuffled = build(new_game(), "a1", ["skyline-3"])
    shuffled["roofs"] = [6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1]
    for seat in (ALICE, BOB, None):
        one, two = ENGINE.view(game, seat), ENGINE.view(shuffled, seat)
        assert canonical_json(one) == canonical_json(two)
        assert one["roofs_left"] == 12
    state = act(game, ALICE, {"type": "auction", "piece": "roof"})
    assert ENGINE.view(state, CAROL)["auction"]["piece"] == {"kind": "roof", "value": 1}


def test_future_rounds_are_not_in_the_view():
    game = new_game(rounds=3)
    other = new_game(rounds=3)
    other["setups"] = list(reversed(other["setups"]))
    assert canonical_json(ENGINE.view(game, ALICE)) == canonical_json(ENGINE.view(other, ALICE))


def test_a_stash_is_invisible_in_the_public_form_of_the_choice():
    game = new_game()
    action = {**CHOOSE, "stash": True}
    assert ENGINE.public_action(game, ALICE, action) == CHOOSE
    assert ENGINE.public_action(game, ALICE, CHOOSE) is None
    assert ENGINE.public_action(game, ALICE, {"type": "bid", "amount": 2}) is None


def test_bids_are_public():
    state = auction(new_game(), CHOOSE, [4])
    view = ENGINE.view(state, ALICE)
    assert view["auction"]["bids"] == [[BOB, 4]]
    assert view["auction"]["high"] == 4
    assert view["to_act"] == [CAROL]


def test_the_last_turn_is_shown_for_the_next_mail():
    state = auction(new_game(), CHOOSE, passes(3))
    state = act(state, ALICE, {"type": "place", "lot": "a1"})
    last = ENGINE.view(state, BOB)["last"]
    assert last["recipient"] == ALICE
    assert last["used"] == {"type": "place", "lot": "a1"}
    assert last["piece"]["kind"] == "cube"
