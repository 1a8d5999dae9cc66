"""Standing orders as the rules see them (games/engines/orders.py and each
title's orders.py): what may be written, and what an order does when its
seat is to act."""

from __future__ import annotations

import random

import pytest

from games.engines import base, orders
from games.engines.cuba.play import randomgame
from games.engines.errors import IllegalAction
from games.engines.orders import Unreadable, read_value


def play_until(name, players, stop, *, seed=5, limit=4000, chooser=None):
    """A random game of `name` up to the first state where `stop(state)` holds."""
    engine = base.get(name)
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(state):
            return engine, state
        seat = sorted(engine.to_act(state))[0]
        legal = engine.legal_actions(state, seat)
        action = chooser(rng, legal) if chooser else rng.choice(legal)
        state = engine.apply(state, seat, action)
    raise AssertionError("never reached")


def test_every_title_offers_the_generic_play_order_and_its_own_programmes():
    titles = ("18cuba", "havana", "estates", "pointcity")
    kinds = {name: set(base.get(name).standing_orders) for name in titles}
    assert kinds == {
        "18cuba": {"play", "stock_pass", "auction_pass", "dividend"},
        "havana": {"play", "cards"},
        "estates": {"play", "bid"},
        "pointcity": {"play", "default"},
    }
    for name in kinds:
        for programme in base.get(name).standing_orders.values():
            assert programme.summary and callable(programme.describe)


@pytest.mark.parametrize(
    "order",
    [None, [], {"kind": 3}, {"kind": "nope"}, {"kind": "play"}, {"kind": "play", "action": 5},
     {"kind": "play", "action": {"type": "pass"}, "typo": 1},
     {"kind": "play", "action": {"type": "pass"}, "phase": "round 0.5"},
     {"kind": "play", "action": {"type": "pass"}, "if_unchanged": "yes"}],
)  # fmt: skip
def test_a_malformed_order_is_refused_with_a_reason(order):
    engine = base.get("havana")
    state = engine.setup(2, {}, 1)
    with pytest.raises(IllegalAction):
        orders.write(engine, state, 0, order)


def test_a_play_order_waits_for_its_round_fires_in_it_and_lapses_after():
    engine, state = play_until("havana", 2, lambda s: s["round"] == 2 and s["phase"] == "actions")
    order = orders.write(engine, state, 0, {"kind": "play", "action": {"type": "end"},
                                            "phase": "round 3"})  # fmt: skip
    assert order["phase"] == [3]
    assert orders.decide(engine, state, 0, order, None).verdict == orders.WAIT
    later = dict(state, round=3)
    assert orders.decide(engine, later, 0, order, None) == orders.fire({"type": "end"})
    assert orders.decide(engine, dict(state, round=4), 0, order, None).verdict == orders.LAPSE
    with pytest.raises(IllegalAction, match="past"):
        orders.write(engine, state, 0, {"kind": "play", "action": {"type": "end"},
                                        "phase": "round 1"})  # fmt: skip


def test_a_play_order_written_on_a_view_is_dropped_once_that_view_changed():
    engine, state = play_until("havana", 2, lambda s: s["phase"] == "actions")
    seat = sorted(engine.to_act(state))[0]
    action = engine.legal_actions(state, seat)[0]
    order = orders.write(engine, state, seat, {"kind": "play", "action": action,
                                               "if_unchanged": True})  # fmt: skip
    assert orders.decide(engine, state, seat, order, None) == orders.fire(action)
    moved = engine.apply(state, seat, action)
    assert orders.decide(engine, moved, seat, order, None).verdict == orders.DROP


def test_a_play_order_after_a_named_move_fires_only_after_that_move():
    engine = base.get("havana")
    state = engine.setup(2, {}, 1)
    order = orders.write(engine, state, 1, {"kind": "play", "action": {"type": "end"},
                                            "after": {"type": "pesos"}})  # fmt: skip
    assert orders.decide(engine, state, 1, order, {"type": "pesos"}).verdict == orders.FIRE
    assert orders.decide(engine, state, 1, order, {"type": "worker"}).verdict == orders.DROP
    assert orders.decide(engine, state, 1, order, None).verdict == orders.DROP


# --- 18Cuba -----------------------------------------------------------------------------


def cuba(stop, seed=5):
    return play_until("18cuba", 4, stop, seed=seed, chooser=randomgame.choose)


def test_cuba_stock_pass_passes_in_its_stock_round_and_lapses_after_it():
    engine, state = cuba(lambda s: s["round"]["kind"] == "operating")
    seat = 0
    order = orders.write(engine, state, seat, {"kind": "stock_pass"})
    assert order["round"] == state["round"]["number"] + 1
    assert orders.decide(engine, state, seat, order, None).verdict == orders.WAIT
    _, stock = cuba(lambda s: s["round"]["kind"] == "stock" and s["round"]["number"] == 2)
    assert orders.decide(engine, stock, seat, order, None) == orders.fire(
        {"type": "pass"}, done=False
    )
    _, after = cuba(lambda s: s["round"]["kind"] == "operating" and s["round"]["number"] == 2)
    assert orders.decide(engine, after, seat, order, None).verdict == orders.LAPSE


def test_cuba_stock_pass_is_dropped_when_another_player_sells_my_company():
    engine, state = cuba(lambda s: s["round"]["kind"] == "stock" and s["round"]["number"] == 2)
    from games.engines.cuba.rules import shares

    directed = [
        (int(who[1:]), c)
        for c in state["companies"]
        if (who := shares.director(state["certificates"], c) or "").startswith("p")
    ]
    assert directed, "someone directs a company by SR 2"
    seat, company = directed[0]
    order = orders.write(engine, state, seat, {"kind": "stock_pass"})
    other = f"p{(seat + 1) % 4}"
    sold = dict(state["round"]["steps"]["stock"], sold={other: [company]})
    changed = dict(state, round=dict(state["round"], steps={"stock": sold}))
    decision = orders.decide(engine, changed, seat, order, None)
    assert decision.verdict == orders.DROP and company in decision.reason
    mine = dict(state, round=dict(state["round"], steps={"stock": dict(sold, sold={})}))
    assert orders.decide(engine, mine, seat, order, None).verdict == orders.FIRE


def test_cuba_auction_pass_passes_above_its_price_only():
    engine, state = cuba(lambda s: s["round"]["kind"] == "auction"
                         and s["round"]["steps"]["auction"]["bid"] is not None)  # fmt: skip
    seat = sorted(engine.to_act(state))[0]
    lowest = state["round"]["steps"]["auction"]["bid"] + 5
    cheap = orders.write(engine, state, seat, {"kind": "auction_pass", "price": lowest - 5})
    dear = orders.write(engine, state, seat, {"kind": "auction_pass", "price": lowest})
    assert orders.decide(engine, state, seat, cheap, None) == orders.fire({"type": "pass"},
                                                                           done=False)  # fmt: skip
    assert orders.decide(engine, state, seat, dear, None).verdict == orders.WAIT
    _, later = cuba(lambda s: s["round"]["kind"] == "stock")
    assert orders.decide(engine, later, seat, cheap, None).verdict == orders.LAPSE
    with pytest.raises(IllegalAction):
        orders.write(engine, later, seat, {"kind": "auction_pass", "price": 10})


def test_cuba_dividend_order_pays_out_at_its_companys_decision():
    from games.engines.cuba.steps import dividend

    engine, state = cuba(lambda s: s["round"]["kind"] == "operating" and dividend.active(s))
    seat = sorted(engine.to_act(state))[0]
    company = state["round"]["entity"]
    order = orders.write(engine, state, seat, {"kind": "dividend", "company": company,
                                               "choice": "payout"})  # fmt: skip
    decision = orders.decide(engine, state, seat, order, None)
    assert decision == orders.fire({"type": "payout"}, done=False)
    engine.apply(state, seat, decision.action)  # legal
    with pytest.raises(IllegalAction):
        orders.write(engine, state, (seat + 1) % 4, {"kind": "dividend", "company": company,
                                                     "choice": "payout"})  # fmt: skip


# --- Havana, The Estates, Point City ---------------------------------------------------


def test_havana_cards_order_chooses_the_two_cards_next_round_while_held():
    engine, state = play_until("havana", 2, lambda s: s["round"] == 1 and s["phase"] == "actions")
    hand = state["seats"][0]["hand"]
    shown = state["seats"][0]["cards"]
    order = orders.write(engine, state, 0, {"kind": "cards", "cards": [shown[0], hand[0]]})
    assert order["round"] == 2
    assert orders.decide(engine, state, 0, order, None).verdict == orders.WAIT
    _, choosing = play_until("havana", 2, lambda s: s["round"] == 2 and s["phase"] == "replace")
    if 0 in engine.to_act(choosing) and choosing["seats"][0]["cards"] == shown:
        decision = orders.decide(engine, choosing, 0, order, None)
        assert decision.verdict == orders.FIRE
        after = engine.apply(choosing, 0, decision.action)
        assert set(after["seats"][0]["cards"]) == {shown[0], hand[0]}
    emptied = dict(choosing["seats"][0], hand=[], cards=[shown[0], "x"])
    gone = dict(choosing, seats=[emptied, *choosing["seats"][1:]])
    assert orders.decide(engine, gone, 0, order, None).verdict == orders.DROP
    _, later = play_until("havana", 2, lambda s: s["round"] == 3)
    assert orders.decide(engine, later, 0, order, None).verdict == orders.LAPSE


def test_estates_bid_order_raises_to_its_limit_then_passes():
    engine, state = play_until("estates", 3, lambda s: s["phase"] == "bid")
    seat = sorted(engine.to_act(state))[0]
    high = state["auction"]["high"]
    order = orders.write(engine, state, seat, {"kind": "bid", "amount": high + 1})
    assert orders.decide(engine, state, seat, order, None) == orders.fire(
        {"type": "bid", "amount": high + 1}, done=False
    )
    raised = dict(state, auction=dict(state["auction"], high=high + 1))
    assert orders.decide(engine, raised, seat, order, None) == orders.fire({"type": "pass"})
    later = dict(state, turn=state["turn"] + 1)
    assert orders.decide(engine, later, seat, order, None).verdict == orders.LAPSE


def test_point_city_default_order_plays_the_timeout_move_every_turn():
    engine = base.get("pointcity")
    state = engine.setup(2, {}, 3)
    seat = sorted(engine.to_act(state))[0]
    order = orders.write(engine, state, seat, {"kind": "default"})
    decision = orders.decide(engine, state, seat, order, None)
    assert decision == orders.fire(engine.timeout_action(state, seat), done=False)
    with pytest.raises(IllegalAction, match="no rounds"):
        orders.write(engine, state, seat, {"kind": "play", "action": {"type": "draw"},
                                           "phase": "round 2"})  # fmt: skip


def test_describing_an_order_names_what_it_will_do():
    engine = base.get("18cuba")
    state = engine.setup(4, {}, 1)
    order = orders.write(engine, state, 0, {"kind": "auction_pass", "price": 60})
    assert orders.describe(engine, order) == "in the auction, pass on every card above $60"


@pytest.mark.parametrize(
    ("kind", "raw", "value"),
    [("int", " 12 ", 12), ("int", "-3", -3), ("cards", "2p 5", ["2p", "5"]),
     ("cards", "2p,5", ["2p", "5"]), ("choice:payout|retain", "retain", "retain"),
     ("str", "SR 2", "SR 2")],
)  # fmt: skip
def test_a_value_is_read_the_same_by_page_and_by_mail(kind, raw, value):
    assert read_value(kind, raw) == value


@pytest.mark.parametrize(
    ("kind", "raw", "said"),
    [("int", "forty", "a whole number"), ("int", "9" * 12, "a whole number"),
     ("cards", "2p", "two cards"), ("cards", "1 2 3", "two cards"),
     ("choice:payout|retain", "burn", "one of payout, retain"), ("str", "x" * 401, "too long")],
)  # fmt: skip
def test_words_that_are_no_value_of_the_kind_say_what_is_wanted(kind, raw, said):
    with pytest.raises(Unreadable, match=said):
        read_value(kind, raw)
