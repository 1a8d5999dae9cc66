"""Standing orders through the service (games.services.orders): written,
fired as the seat's move after the event that gives it the turn, dropped
with a note, lapsed, cancelled, restored by an undo, and racing a player's
own move."""

from __future__ import annotations

import pytest

from games.engines import base
from games.errors import NotFound, StaleSeq
from games.models import Event, Game, OrderEvent
from games.selectors import orders as selected
from games.services import orders
from games.services.moves import check_submit_action
from games.services.undo import do_undo
from games.stream import store
from games.stream.derived import engine_for
from tests.support.threads import run_together

committed = pytest.mark.django_db(transaction=True)


def state_of(game: Game):
    game.refresh_from_db()
    return store.load(game, engine_for(game)).state


def to_act(game: Game) -> list[int]:
    game.refresh_from_db()
    return sorted(game.to_act or [])


def move(game: Game, user, action=None, expected_seq=None):
    """`user` plays `action` (default: their first legal move) by the API's
    path, at `expected_seq` (default: the game's seq now)."""
    game.refresh_from_db()
    seat = game.seats.get(user=user).index
    engine = engine_for(game)
    if action is None:
        action = engine.legal_actions(state_of(game), seat)[0]
    seq = game.seq if expected_seq is None else expected_seq
    return check_submit_action(game, user, action=action, expected_seq=seq)


def events(game: Game, source=None) -> list[Event]:
    found = Event.objects.filter(game=game).order_by("seq")
    return list(found if source is None else found.filter(source=source))


def owner_view(game, seat):
    game.refresh_from_db()
    return selected.for_owner(game, engine_for(game), seat)


# --- Point City: the default move ------------------------------------------------------


@committed
def test_point_city_default_order_fires_as_the_seats_move_when_its_turn_comes(
    make_game, alice, bob
):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    written = orders.check_write_order(game, waiting, order={"kind": "default"}, source="api")
    assert written["id"] == 1 and not events(game, Event.Source.ORDER)
    before = state_of(game)
    move(game, players[first])
    fired = events(game, Event.Source.ORDER)
    assert len(fired) == 1
    assert (fired[0].seat, fired[0].actor_id) == (1 - first, waiting.pk)
    assert fired[0].kind == Event.Kind.ACTION
    # it played the title's default move, checked by the rules like any move
    engine = engine_for(game)
    after_first = engine.apply(before, first, events(game)[-2].payload["action"])
    assert fired[0].payload["action"] == engine.timeout_action(after_first, 1 - first)
    # it keeps standing: the default every turn
    assert [o["id"] for o in owner_view(game, 1 - first)["orders"]] == [1]
    move(game, players[first])
    assert len(events(game, Event.Source.ORDER)) == 2


@committed
def test_an_order_written_while_a_move_is_on_its_way_fires_after_that_move(make_game, alice, bob):
    """The move read its game before the order existed; the order was
    written before the move's append: the append reads the game's flag back,
    so the order fires once the move has committed."""
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    players = [alice, bob]
    mover, waiting = players[first], players[1 - first]
    read_by_the_move = Game.objects.get(pk=game.pk)
    assert not read_by_the_move.orders_written
    orders.check_write_order(game, waiting, order={"kind": "default"}, source="api")
    assert Game.objects.get(pk=game.pk).orders_written
    engine = engine_for(game)
    action = engine.legal_actions(state_of(game), first)[0]
    check_submit_action(read_by_the_move, mover, action=action, expected_seq=game.seq)
    fired = events(game, Event.Source.ORDER)
    assert [(event.seat, event.actor_id) for event in fired] == [(1 - first, waiting.pk)]


@committed
def test_a_game_without_orders_asks_nothing_about_them_after_a_move(
    make_game, alice, bob, django_assert_num_queries
):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    engine = engine_for(game)
    action = engine.legal_actions(state_of(game), first)[0]
    created = events(game)[-1]
    with django_assert_num_queries(0):
        orders.hooks.event_committed(game, created)
    assert not game.orders_written
    check_submit_action(game, [alice, bob][first], action=action, expected_seq=game.seq)
    assert not events(game, Event.Source.ORDER)


@committed
def test_an_order_written_on_the_seats_own_turn_fires_at_once(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    orders.check_write_order(game, [alice, bob][first], order={"kind": "default"}, source="api")
    assert len(events(game, Event.Source.ORDER)) == 1


@committed
def test_cancelled_orders_never_fire_and_a_cancel_of_another_seats_order_is_not_found(
    make_game, alice, bob, charlie
):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    orders.check_write_order(game, waiting, order={"kind": "default"}, source="api")
    with pytest.raises(NotFound):
        orders.check_cancel_order(game, players[first], number=1)
    with pytest.raises(NotFound):
        orders.check_cancel_order(game, charlie, number=1)
    assert orders.check_cancel_order(game, waiting, number=1) == [1]
    with pytest.raises(NotFound):
        orders.check_cancel_order(game, waiting, number=1)
    move(game, players[first])
    assert events(game, Event.Source.ORDER) == []
    assert owner_view(game, 1 - first)["orders"] == []


# --- the generic play order, Havana's cards ---------------------------------------------


@committed
def test_a_play_order_whose_move_became_illegal_is_dropped_with_a_note(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    # A move that is never legal in The Estates' bidding: the rules refuse it.
    orders.check_write_order(
        game, waiting, order={"kind": "play", "action": {"type": "place", "lot": "z9"}},
        source="api",
    )  # fmt: skip
    move(game, players[first])
    assert events(game, Event.Source.ORDER) == []
    view = owner_view(game, 1 - first)
    assert view["orders"] == []
    assert [(n["id"], n["kind"]) for n in view["notes"]] == [(1, "dropped")]
    assert view["notes"][0]["reason"]


@committed
def test_a_play_order_after_a_named_move_fires_only_after_that_move(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    engine = engine_for(game)
    opening = engine.legal_actions(state_of(game), first)[0]
    orders.check_write_order(
        game, waiting, order={"kind": "play", "action": {"type": "pass"}, "after": opening},
        source="api",
    )  # fmt: skip
    move(game, players[first], opening)
    fired = events(game, Event.Source.ORDER)
    assert [e.payload["action"] for e in fired] == [{"type": "pass"}]


@committed
def test_havana_cards_order_chooses_the_two_cards_in_its_round(make_game, alice, bob):
    game = make_game("havana", players=[alice, bob], seed=4)
    hand = state_of(game)["seats"][1]["hand"]
    orders.check_write_order(game, bob, order={"kind": "cards", "cards": hand[:2]}, source="api")
    fired = events(game, Event.Source.ORDER)  # bob chooses now (a simultaneous choice)
    assert len(fired) == 1 and fired[0].seat == 1
    assert sorted(fired[0].payload["action"]["cards"]) == sorted(hand[:2])
    assert fired[0].payload["public"] == {"type": "choose"}  # face down for the others


@committed
def test_havana_cards_order_for_a_card_no_longer_held_is_dropped(make_game, alice, bob):
    game = make_game("havana", players=[alice, bob], seed=4)
    hand = state_of(game)["seats"][1]["hand"]
    engine = engine_for(game)
    # bob chooses this round by hand, then orders next round's pair with a card he showed
    move(game, bob, next(a for a in engine.legal_actions(state_of(game), 1)
                     if set(a["cards"]) == set(hand[:2])))  # fmt: skip
    written = orders.check_write_order(
        game, bob, order={"kind": "cards", "cards": [hand[2], hand[3]]}, source="api"
    )
    assert written["order"]["round"] == 2
    assert owner_view(game, 1)["orders"] and not events(game, Event.Source.ORDER)


# --- undo and takeback ------------------------------------------------------------------


@committed
def test_an_undo_rewinding_past_a_firing_restores_a_spent_order_without_firing_it_again(
    make_game, alice, bob, mo
):
    game = make_game("estates", players=[alice, bob], seed=2)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    orders.check_write_order(
        game, waiting, order={"kind": "play", "action": {"type": "pass"}}, source="api"
    )
    move(game, players[first])
    fired = events(game, Event.Source.ORDER)
    assert len(fired) == 1
    assert owner_view(game, 1 - first)["orders"] == []  # spent
    game.refresh_from_db()
    do_undo(game, actor=mo, to_seq=fired[0].seq - 1, reason="a slip", source="moderator")
    assert [o["id"] for o in owner_view(game, 1 - first)["orders"]] == [1]  # restored
    assert len(events(game, Event.Source.ORDER)) == 1  # and not fired again at once
    assert to_act(game) == [1 - first]


# --- the race ---------------------------------------------------------------------------


def race(game: Game, player) -> dict:
    """The player's own move and their order's firing, at the same moment.
    The move is the one the player chose at the position they saw, sent
    with its seq, as a client sends it: if the order fired first, the game
    has moved on and the move is refused as stale (chosen in the thread, it
    could find the turn already passed and no move to choose)."""
    outcomes = {}
    game.refresh_from_db()
    seq, seat = game.seq, game.seats.get(user=player).index
    action = engine_for(game).legal_actions(state_of(game), seat)[0]

    def by_hand():
        try:
            outcomes["hand"] = move(game, player, action, expected_seq=seq)
        except StaleSeq:
            outcomes["hand"] = None

    def by_order():
        outcomes["order"] = orders.do_fire_orders(game.pk)

    run_together(by_hand, by_order)
    return outcomes


@pytest.mark.postgres
@committed
def test_an_order_firing_and_the_players_own_move_at_once_make_exactly_one_event(
    make_game, alice, bob
):
    for attempt in range(4):
        game = make_game("pointcity", players=[alice, bob], seed=3 + attempt)
        first = to_act(game)[0]
        player = [alice, bob][first]
        seq = game.seq
        # The order is recorded without the firing its write would start.
        orders._local.busy = True
        try:
            orders.check_write_order(game, player, order={"kind": "default"}, source="api")
        finally:
            orders._local.busy = False
        made = race(game, player)
        after = [e for e in events(game) if e.seq > seq]
        assert len([e for e in after if e.seq == seq + 1]) == 1
        assert after[0].seat == first
        if after[0].source == Event.Source.ORDER:
            assert made["hand"] is None or made["hand"].seq > seq + 1
        else:
            assert made["hand"].seq == seq + 1


def test_every_title_declares_the_programmes_the_service_offers():
    for name in ("18cuba", "havana", "estates", "pointcity"):
        assert "play" in base.get(name).standing_orders


@committed
def test_orders_are_recorded_outside_the_games_stream(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    first = to_act(game)[0]
    waiting = [alice, bob][1 - first]
    seq = Game.objects.get(pk=game.pk).seq
    orders.check_write_order(game, waiting, order={"kind": "default"}, source="api")
    orders.check_cancel_order(game, waiting, number=None)
    assert Game.objects.get(pk=game.pk).seq == seq
    assert OrderEvent.objects.filter(game=game).count() == 2


# --- per title, in whole rounds -------------------------------------------------------


def play_randomly_until(game: Game, stop, players, limit=400):
    """Random legal moves (18Cuba's own random player) by whoever is to act,
    through the service, until `stop(state)` holds."""
    import random

    from games.engines.cuba.play import randomgame

    rng = random.Random(7)
    engine = engine_for(game)
    for _ in range(limit):
        state = state_of(game)
        if stop(state):
            return state
        seat = to_act(game)[0]
        legal = engine.legal_actions(state, seat)
        move(game, players[seat], randomgame.choose(rng, legal))
    raise AssertionError("never reached")


@pytest.mark.slow  # a four-player 18Cuba game through the service into its second stock round
@committed
def test_cuba_stock_pass_orders_pass_for_three_players_while_one_plays_by_hand(
    make_game, alice, bob, carol, charlie
):
    players = [alice, bob, carol, charlie]
    game = make_game("18cuba", players=players, seed=5)
    play_randomly_until(game, lambda s: s["round"]["kind"] == "concessions", players)
    for user in (bob, carol, charlie):
        orders.check_write_order(game, user, order={"kind": "stock_pass"}, source="api")
    start = Game.objects.get(pk=game.pk).seq
    state = play_randomly_until(
        game, lambda s: s["round"]["kind"] != "concessions" and s["round"]["number"] > 1, players
    )
    in_round = [e for e in events(game) if e.seq > start and e.kind == Event.Kind.ACTION]
    by_order = [e for e in in_round if e.source == Event.Source.ORDER]
    assert by_order and {e.seat for e in by_order} == {1, 2, 3}
    assert all(e.payload["action"] == {"type": "pass"} for e in by_order)
    # within the stock round, nobody with an order was waited on
    during = [e for e in in_round if by_order[0].seq <= e.seq <= by_order[-1].seq]
    assert [e for e in during if e.seat in (1, 2, 3) and e.source != Event.Source.ORDER] == []
    # the orders lapsed with the stock round they named
    assert state["round"]["number"] > 1
    for seat in (1, 2, 3):
        assert owner_view(game, seat)["orders"] == []
        assert [n["kind"] for n in owner_view(game, seat)["notes"]] == ["lapsed"]
    from games.audit.verification import game_problems

    assert list(game_problems(Game.objects.get(pk=game.pk))) == []


@committed
def test_estates_bid_order_bids_up_to_its_limit_then_passes(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    state = state_of(game)
    auctioneer = to_act(game)[0]
    players = [alice, bob]
    bidder = players[1 - auctioneer]
    orders.check_write_order(game, bidder, order={"kind": "bid", "amount": 3}, source="api")
    opening = next(a for a in engine_for(game).legal_actions(state, auctioneer)
               if a["type"] == "auction")  # fmt: skip
    move(game, players[auctioneer], opening)
    fired = events(game, Event.Source.ORDER)
    assert [e.payload["action"] for e in fired] == [{"type": "bid", "amount": 1}]
    assert fired[0].seat == 1 - auctioneer


@committed
def test_a_takeback_of_an_orders_move_restores_the_order_and_gives_the_turn_back(
    make_game, alice, bob
):
    from games.services.takeback import check_answer_takeback, check_request_takeback

    game = make_game("estates", players=[alice, bob], seed=2)
    first = to_act(game)[0]
    players = [alice, bob]
    waiting = players[1 - first]
    orders.check_write_order(
        game, waiting, order={"kind": "play", "action": {"type": "pass"}}, source="api"
    )
    move(game, players[first])
    fired = events(game, Event.Source.ORDER)
    assert len(fired) == 1
    game.refresh_from_db()
    check_request_takeback(game, waiting, expected_seq=game.seq)
    game.refresh_from_db()
    check_answer_takeback(game, players[first], answer="approve", expected_seq=game.seq)
    assert to_act(game) == [1 - first]
    assert [o["id"] for o in owner_view(game, 1 - first)["orders"]] == [1]
    assert len(events(game, Event.Source.ORDER)) == 1
    # the seat plays by hand now; its restored order waits for its next turn
    move(game, waiting, {"type": "bid", "amount": 1})
    assert events(game)[-1].source == Event.Source.API
