"""The standing orders page: a seat's player lists, writes and cancels
their orders by form; nobody else is shown it, and nothing another viewer
receives changes; bad input gets a clear message and writes nothing."""

from __future__ import annotations

import re

import pytest

from games.models import Event, OrderEvent
from games.stream import store
from games.stream.derived import engine_for
from tests.support.pages import without_csrf


@pytest.fixture
def game(make_game, alice, bob):
    # 18Cuba at its start: the commissioners' auction, before any stock round.
    return make_game("18cuba", players=[alice, bob], seed=7, options={"difficulty": "easy"})


def page_of(client, user, game):
    client.force_login(user)
    return client.get(f"/games/{game.pk}/orders/")


def write(client, user, game, **fields):
    client.force_login(user)
    return client.post(f"/games/{game.pk}/orders/", fields, follow=True)


def test_the_owner_is_offered_every_kind_of_order_of_the_title(client, alice, game):
    response = page_of(client, alice, game)
    assert response.status_code == 200
    html = response.content.decode()
    kinds = re.findall(r'data-kind="([a-z_]+)"', html)
    assert kinds == ["play", "stock_pass", "auction_pass", "dividend"]
    assert 'name="f.price"' in html and 'type="number"' in html
    assert "<option>payout</option><option>retain</option>" in html
    assert "None." in html  # no order yet
    assert response["Cache-Control"] == "no-store"


def test_an_order_written_by_form_is_listed_in_words_and_can_be_cancelled(client, bob, game):
    shown = write(client, bob, game, kind="auction_pass", **{"f.price": "40"})
    html = shown.content.decode()
    assert "Your order is written." in html
    assert re.search(r'<li data-order="1">[^<]*40', html), html
    assert OrderEvent.objects.filter(game=game, kind="written").count() == 1
    cancelled = client.post(f"/games/{game.pk}/orders/cancel/", {"id": "1"}, follow=True)
    assert "Cancelled." in cancelled.content.decode()
    assert 'data-order="1"' not in cancelled.content.decode()


def test_a_play_order_takes_its_move_as_a_mail_line(client, bob, game):
    shown = write(client, bob, game, kind="play", **{"f.action": "pass", "f.phase": "SR 1"})
    assert "Your order is written." in shown.content.decode(), shown.content.decode()[:3000]
    (row,) = OrderEvent.objects.filter(game=game, kind="written")
    assert row.payload["order"]["action"] == {"type": "pass"}
    assert row.payload["via"] == "web"


def test_cancel_all_leaves_none(client, bob, game):
    write(client, bob, game, kind="stock_pass")
    write(client, bob, game, kind="auction_pass", **{"f.price": "30"})
    done = client.post(f"/games/{game.pk}/orders/cancel/", {"id": "all"}, follow=True)
    html = done.content.decode()
    assert "All your orders are cancelled." in html and "None." in html


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"kind": "auction_pass", "f.price": "forty"}, "a whole number"),
        ({"kind": "auction_pass", "f.price": "9" * 30}, "a whole number"),
        ({"kind": "auction_pass"}, "this order needs it"),
        ({"kind": "dividend", "f.company": "XX", "f.choice": "burn"}, "one of payout, retain"),
        ({"kind": "play", "f.action": "fly to the moon"}, ""),
        ({"kind": "play", "f.action": "x" * 5000}, "too long"),
        ({"kind": "teleport"}, "Choose one of the kinds"),
        ({}, "Choose one of the kinds"),
        ({"kind": "stock_pass\x00"}, "Choose one of the kinds"),
    ],
)
def test_bad_input_gets_a_clear_message_and_writes_nothing(client, bob, game, fields, said):
    shown = write(client, bob, game, **fields)
    assert shown.status_code == 200
    html = shown.content.decode()
    # Refused on the page, in words: an error message, saying what is wrong.
    assert re.search(r'<li class="message error">[^<]*' + re.escape(said), html), html[:2000]
    assert "Your order is written." not in html
    assert not OrderEvent.objects.filter(game=game).exists()


@pytest.mark.parametrize("asked", ["", "x", "-1", "1e9", "\x00"])
def test_a_cancel_naming_no_order_is_refused_and_changes_nothing(client, bob, game, asked):
    write(client, bob, game, kind="stock_pass")
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/orders/cancel/", {"id": asked}, follow=True)
    assert response.status_code in (200, 404)
    assert OrderEvent.objects.filter(game=game, kind="cancelled").count() == 0


def test_nobody_but_a_seats_player_is_shown_the_page(client, eve, game):
    assert page_of(client, eve, game).status_code == 404
    client.logout()
    anonymous = client.get(f"/games/{game.pk}/orders/")
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert client.post(f"/games/{game.pk}/orders/cancel/", {"id": "all"}).status_code == 302
    client.force_login(eve)
    refused = client.post(f"/games/{game.pk}/orders/", {"kind": "stock_pass"})
    assert refused.status_code == 404
    assert not OrderEvent.objects.filter(game=game).exists()


def test_writing_an_order_changes_nothing_on_the_other_seats_game_page(client, alice, bob, game):
    def alices_page() -> str:
        client.force_login(alice)
        response = client.get(f"/games/{game.pk}/")
        assert "Standing orders" in response.content.decode()  # every seat gets the link
        return without_csrf(response.content.decode())

    before = alices_page()
    write(client, bob, game, kind="stock_pass")
    write(client, bob, game, kind="auction_pass", **{"f.price": "35"})
    assert alices_page() == before


QUICK = re.compile(r'<section class="quick-orders".*?</section>', re.DOTALL)


def test_an_order_is_left_from_beside_the_board(client, alice, bob, carol, game):
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    [panel] = QUICK.findall(page)
    assert 'for="quick-order-move">When my turn comes, play</label>' in panel
    assert 'value="stock_pass"' in panel  # 18Cuba's order that needs no value
    posted = client.post(f"/games/{game.pk}/orders/", {"kind": "stock_pass"}, follow=True)
    assert "Your order is written." in posted.content.decode()
    # Every seat's panel is the same, orders or not; a spectator gets none.
    client.force_login(bob)
    after = QUICK.findall(client.get(f"/games/{game.pk}/").content.decode())
    client.force_login(alice)
    alices = QUICK.findall(client.get(f"/games/{game.pk}/").content.decode())
    assert [without_csrf(p) for p in after] == [without_csrf(p) for p in alices]
    assert [without_csrf(p) for p in after] == [without_csrf(panel)]
    client.force_login(carol)
    assert QUICK.findall(client.get(f"/games/{game.pk}/").content.decode()) == []


def test_havana_cards_are_written_as_the_hand_shows_them(client, make_game, alice, bob):
    # Havana's cards are words (`2p`) as well as numbers (`5`), kept as written.
    havana = make_game("havana", players=[alice, bob], seed=5)
    hand = store.load(havana, engine_for(havana)).state["seats"][1]["hand"]
    mine = [next(c for c in hand if not c.isdigit()), next(c for c in hand if c.isdigit())]
    shown = write(client, bob, havana, kind="cards", **{"f.cards": f"{mine[0]} {mine[1]}"})
    # Round 1's choice is Bob's to make now, so the order is played at once.
    [fired] = Event.objects.filter(game=havana, source=Event.Source.ORDER)
    assert fired.seat == 1 and set(fired.payload["action"]["cards"]) == set(mine)
    assert "It was your turn: order 1 was played at once." in shown.content.decode()
