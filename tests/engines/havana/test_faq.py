"""The FAQ of havana.md, one test per entry."""

from __future__ import annotations

from games.engines.havana import ENGINE

from .helpers import PETER, SARAH, TOBIAS, VANESSA, act, give, kinds, start, table

ORDER = [VANESSA, SARAH, TOBIAS, PETER]


def test_faq_only_refreshment_and_conservation_may_be_skipped():
    skippable = set()
    for card in ["1", "2d", "3c", "3t", "4w", "4a", "5", "6", "7", "8", "9"]:
        state = start(table(4), {VANESSA: [card, "0"]}, order=ORDER)
        for action in ENGINE.legal_actions(state, VANESSA):
            if action["type"] == "skip":
                skippable.add(action["card"])
    assert skippable == {"refreshment", "conservation"}


def test_faq_no_workers_in_the_supply_means_worker_and_architect_do_nothing():
    state = table(4)
    give(state, PETER, workers=15)
    state = start(state, {VANESSA: ["4w", "4a"]}, order=ORDER)
    state = act(act(state, VANESSA, {"type": "worker"}), VANESSA, {"type": "architect"})
    assert state["seats"][VANESSA]["workers"] == 0


def test_faq_multiple_conservations_remove_only_one_building_per_round():
    state = start(table(4), {VANESSA: ["3c", "0"], SARAH: ["3c", "0"]}, order=ORDER)
    state = act(state, VANESSA, {"type": "conserve", "building": state["rows"][0][0]})
    state = act(state, VANESSA, {"type": "end"})
    assert "conserve" not in kinds(state, SARAH)


def test_faq_conservation_is_available_again_next_round():
    state = start(table(2), {VANESSA: ["3c", "0"], SARAH: ["0", "2p"]}, order=[VANESSA, SARAH])
    state = act(state, VANESSA, {"type": "conserve", "building": state["rows"][0][0]})
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, SARAH, {"type": "end"})
    state = act(state, VANESSA, {"type": "replace", "card": "9", "cover": "0"})
    state = act(state, SARAH, {"type": "replace", "card": "1", "cover": "2p"})
    assert state["order"] == [SARAH, VANESSA]
    state = act(state, SARAH, {"type": "skip", "card": "refreshment"})
    state = act(state, SARAH, {"type": "end"})
    assert "conserve" in kinds(state, VANESSA)


def test_faq_five_gray_buy_a_coloured_cube_the_player_does_not_have():
    state = table(2, spec={101: {"cost": {"yellow": 1}}})
    state["rows"][0][0] = 101
    give(state, VANESSA, gray=5)
    state = start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    assert {"type": "buy", "building": 101, "pay": {"gray": 5}} in ENGINE.legal_actions(
        state, VANESSA
    )


def test_faq_five_pesos_count_as_paying_a_worker():
    state = table(2, spec={101: {"cost": {"workers": 1}}})
    state["rows"][0][0] = 101
    give(state, VANESSA, pesos=5)
    state = start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"pesos": 5}})
    assert after["seats"][VANESSA]["buildings"] == [101]


def test_faq_buildings_may_be_bought_in_any_order_while_on_an_end():
    state = table(2)
    state["rows"] = [[1, 2, 3], [4, 5, 6]]
    give(state, VANESSA, gray=2)
    state = start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    a = act(
        act(state, VANESSA, {"type": "buy", "building": 6, "pay": {"gray": 1}}),
        VANESSA,
        {"type": "buy", "building": 1, "pay": {"gray": 1}},
    )
    b = act(
        act(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}}),
        VANESSA,
        {"type": "buy", "building": 6, "pay": {"gray": 1}},
    )
    assert sorted(a["seats"][VANESSA]["buildings"]) == sorted(b["seats"][VANESSA]["buildings"])


def test_faq_the_hand_is_refilled_only_at_two_cards_or_fewer():
    state = table(2)
    seat = state["seats"][VANESSA]
    state = start(state, {VANESSA: ["0", "1"], SARAH: ["0", "1"]}, order=[VANESSA, SARAH])
    seat = state["seats"][VANESSA]
    seat["discard"] = seat["hand"][:7]
    seat["hand"] = seat["hand"][7:]  # four cards left
    for who in (VANESSA, SARAH):
        state = act(state, who, {"type": "skip", "card": "refreshment"})
        state = act(state, who, {"type": "end"})
    state = act(
        state,
        VANESSA,
        {"type": "replace", "card": state["seats"][VANESSA]["hand"][0], "cover": "0"},
    )
    state = act(state, SARAH, {"type": "replace", "card": "9", "cover": "0"})
    assert len(state["seats"][VANESSA]["hand"]) == 3  # three left: no refill yet


def test_faq_thieves_and_the_tax_collector_never_touch_players_who_already_played():
    state = table(4)
    for who in ORDER:
        give(state, who, pesos=4, red=1, workers=1)
    state = start(state, {TOBIAS: ["5", "6"], SARAH: ["3t", "0"]}, order=ORDER, turn=SARAH)
    assert all(
        set(a["take"]) == {str(TOBIAS), str(PETER)} for a in ENGINE.legal_actions(state, SARAH)
    )
    state["turn"] = ORDER.index(TOBIAS)
    from games.engines.havana.rounds import begin_turn

    begin_turn(state)
    assert {a["victim"] for a in ENGINE.legal_actions(state, TOBIAS)} == {PETER}
