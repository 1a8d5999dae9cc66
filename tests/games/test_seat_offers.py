"""Replacement seats: a moderator offers a seat whose player will not play
on; whoever takes it over gets it as `replace-seat` gives it."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Block
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound
from games.models import Event, SeatOffer
from games.selectors import tables
from games.services.creation import do_create_game
from games.services.replacement import check_replace_seat
from games.services.seat_offers import check_offer_seat, check_take_seat, check_withdraw_offer
from games.services.suspension import check_suspend
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
