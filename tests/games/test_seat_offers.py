"""Replacement seats: a moderator offers a seat whose player will not play
on; whoever takes it over gets it as `replace-seat` gives it."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Block
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound
from games.models import Event, SeatOffer, Table
from games.selectors import tables
from games.services.creation import do_create_game
from games.services.replacement import check_replace_seat
from games.services.seat_offers import check_offer_seat, check_take_seat, check_withdraw_offer
from games.services.suspension import check_suspend
from games.services.tables import check_create_table, check_join_table
from tests.api.conftest import client_for


@pytest.fixture
def game(alice, bob):
    return do_create_game(title="duel", players=[alice, bob], clock={"per_move": "72h"})


def test_an_offered_seat_is_listed_and_taken_over(game, alice, bob, carol, mo):
    check_suspend(bob, mo, reason="gone")
    offer = check_offer_seat(game, mo, seat=1, reason="bob was suspended")
    [listed] = tables.seat_offers(carol)
    assert (listed["game"], listed["seat"], listed["players"]) == (game.pk, 1, ["alice", "bob"])
    assert tables.seat_offers(alice) == []  # she plays there already
    event = check_take_seat(offer.pk, carol)
    assert event.kind == Event.Kind.SEAT_REPLACED and event.actor == carol
    assert (
        event.payload["previous_username"] == "bob"
        and "bob was suspended" in (event.payload["reason"])
    )
    assert game.seats.get(index=1).user == carol
    offer.refresh_from_db()
    assert offer.taken_by == carol and offer.closed_at
    assert tables.seat_offers(carol) == []
    with pytest.raises(NotFound):
        check_take_seat(offer.pk, carol)


def test_only_moderators_offer_and_only_a_seat_still_playing(game, alice, mo):
    with pytest.raises(Forbidden):
        check_offer_seat(game, alice, seat=1, reason="x")
    with pytest.raises(InvalidRequest):
        check_offer_seat(game, mo, seat=5, reason="x")
    check_offer_seat(game, mo, seat=1, reason="x")
    with pytest.raises(Conflict):
        check_offer_seat(game, mo, seat=1, reason="again")
    private = do_create_game(title="duel", players=[alice, mo], public=False)
    with pytest.raises(InvalidRequest):
        check_offer_seat(private, mo, seat=0, reason="x")


def test_an_offer_lapses_when_the_seat_changes_hands_otherwise(game, carol, eve, mo):
    offer = check_offer_seat(game, mo, seat=1, reason="x")
    check_replace_seat(game, mo, seat=1, username="eve", reason="a friend")
    assert tables.seat_offers(carol) == []
    with pytest.raises(Conflict):
        check_take_seat(offer.pk, carol)
    # The seat may be offered again, for its new holder.
    again = check_offer_seat(game, mo, seat=1, reason="eve left too")
    assert SeatOffer.objects.get(pk=offer.pk).closed_at is not None
    assert [o["id"] for o in tables.seat_offers(carol)] == [again.pk]


def test_a_player_of_the_game_or_one_kept_apart_cannot_take_it(game, alice, carol, mo):
    offer = check_offer_seat(game, mo, seat=1, reason="x")
    with pytest.raises(InvalidRequest):
        check_take_seat(offer.pk, alice)
    Block.objects.create(blocker=alice, blocked=carol)
    assert tables.seat_offers(carol) == []
    with pytest.raises(NotFound):
        check_take_seat(offer.pk, carol)


def test_a_withdrawn_offer_is_gone(game, carol, mo):
    offer = check_offer_seat(game, mo, seat=1, reason="x")
    check_withdraw_offer(offer.pk, mo)
    with pytest.raises(NotFound):
        check_take_seat(offer.pk, carol)


def test_through_the_api_and_the_lobby_page(game, carol, mo):
    made = client_for(mo).post(f"/api/games/{game.pk}/offer-seat/",
                               {"seat": 1, "reason": "bob left"}, format="json")  # fmt: skip
    assert made.status_code == 201
    refused = client_for(carol).post(f"/api/games/{game.pk}/offer-seat/",
                                     {"seat": 0, "reason": "me"}, format="json")  # fmt: skip
    assert refused.status_code == 403
    [seat] = client_for(carol).get("/api/seats/").json()["seats"]
    page = Client()
    page.force_login(carol)
    assert "Seats to take over" in page.get("/tables/").content.decode()
    taken = page.post(f"/seats/{seat['id']}/take/")
    assert taken.status_code == 302 and taken.url == f"/games/{game.pk}/"
    assert game.seats.get(index=1).user == carol


HOUR = datetime.timedelta(hours=1)


def offering(players, *, public=True, **clock):
    """A game whose table asked for lost players' seats to be offered."""
    return do_create_game(
        title="duel", players=players, options={"rounds": 3}, seed=3, public=public,
        offer_seats=True, clock={"per_move": "1h", **clock},
    )  # fmt: skip


def test_a_suspended_players_seat_is_offered_by_itself_where_the_table_asked(alice, bob, mo):
    game = offering([alice, bob])
    other = do_create_game(title="duel", players=[bob, alice], clock={"per_move": "72h"})
    check_suspend(bob, mo, reason="abuse")
    [offer] = SeatOffer.objects.all()
    assert (offer.game, offer.seat, offer.holder, offer.offered_by) == (game, 1, bob, None)
    # The lobby shows everyone the offer, not why the account went.
    assert offer.reason == "its player can no longer play"
    assert not SeatOffer.objects.filter(game=other).exists()


def test_a_private_game_offers_no_seat_and_a_table_cannot_ask_it(alice, bob, mo):
    offering([alice, bob], public=False)
    check_suspend(bob, mo, reason="abuse")
    assert not SeatOffer.objects.exists()
    with pytest.raises(InvalidRequest, match="offer_seats needs a public game"):
        check_create_table(alice, title="duel", seats=2, public=False, offer_seats=True)


def test_a_seat_out_of_timeouts_is_offered_and_resigns_only_if_it_runs_out_again(
    alice, bob, carol, run_sweep
):
    game = offering([alice, bob], max_timeouts=1)
    now = timezone.now()
    run_sweep(now + 2 * HOUR)  # both seats of the duel's round run out
    game.refresh_from_db()
    assert game.status == "active" and not game.events.filter(kind="resign").exists()
    offers = SeatOffer.objects.order_by("seat")
    assert [(o.seat, o.offered_by, o.reason) for o in offers] == [
        (0, None, "its player ran out of time"), (1, None, "its player ran out of time"),
    ]  # fmt: skip
    assert [seat.timeouts for seat in game.seats.order_by("index")] == [0, 0]  # afresh
    assert [o["reason"] for o in tables.seat_offers(carol)] == ["its player ran out of time"] * 2
    run_sweep(now + 4 * HOUR)
    game.refresh_from_db()
    # Nobody took them, and a seat ran out again: it resigned as it would have.
    assert game.events.filter(kind="resign").count() == 1 and game.status == "aborted"


def test_without_the_tables_word_a_seat_out_of_timeouts_resigns(alice, bob, run_sweep):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 3}, seed=3,
                          clock={"per_move": "1h", "max_timeouts": 2})  # fmt: skip
    now = timezone.now()
    for step in range(1, 8):
        run_sweep(now + step * 2 * HOUR)
    assert game.events.filter(kind="resign").count() == 1 and not SeatOffer.objects.exists()


def test_a_seat_offered_by_itself_is_taken_over_like_any_other(alice, bob, carol, mo):
    game = offering([alice, bob])
    check_suspend(bob, mo, reason="abuse")
    event = check_take_seat(SeatOffer.objects.get().pk, carol)
    assert event.kind == Event.Kind.SEAT_REPLACED
    assert "offered by the table's rule" in event.payload["reason"]
    assert game.seats.get(index=1).user == carol


def test_a_table_that_asks_passes_it_to_its_game_and_its_rematch(alice, bob):
    table = check_create_table(alice, title="duel", seats=2, offer_seats=True)
    assert tables.summary(Table.objects.get(pk=table.pk))["offer_seats"] is True
    check_join_table(table.pk, bob)
    table.refresh_from_db()
    assert table.game.offer_seats is True
