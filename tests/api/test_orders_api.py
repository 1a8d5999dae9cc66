"""`GET`, `POST`, `DELETE /api/games/{id}/orders/`: the owner alone reads
their standing orders; bad input is a clear 400 that changes nothing; and
nothing another viewer receives changes when an order is written,
cancelled or dropped."""

from __future__ import annotations

import secrets

import pytest

from games.models import Game, OrderEvent
from games.services.replacement import check_replace_seat

committed = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(make_game, alice, bob, carol):
    """An 18Cuba game (phases to name) in its opening auction: alice (seat 0) bids first."""
    return make_game("18cuba", players=[alice, bob, carol], seed=5)


def url(game) -> str:
    return f"/api/games/{game.pk}/orders/"


def waiting_order(tag: str) -> dict:
    """An order that waits for a round far ahead: it stands and never fires."""
    return {"kind": "play", "action": {"type": "pass", "tag": tag}, "phase": "SR 99"}


def test_the_owner_reads_their_orders_and_the_title_programmes(as_, game, bob):
    posted = as_(bob).post(url(game), {"order": {"kind": "auction_pass", "price": 40}},
                           format="json")  # fmt: skip
    assert posted.status_code == 201, posted.json()
    assert posted.json() == {
        "id": 1, "order": {"kind": "auction_pass", "price": 40},
        "says": "in the auction, pass on every card above $40", "standing": True,
    }  # fmt: skip
    got = as_(bob).get(url(game)).json()
    assert [o["id"] for o in got["orders"]] == [1]
    assert {p["kind"] for p in got["programmes"]} == {
        "play", "stock_pass", "auction_pass", "dividend"
    }  # fmt: skip
    assert got["notes"] == []


def test_nobody_but_the_owner_is_shown_that_orders_exist(as_, game, alice, bob, carol, eve, mo):
    as_(bob).post(url(game), {"order": waiting_order("x")}, format="json")
    empty = {"orders": []}
    for user in (alice, carol):  # other seats see their own (none), not bob's
        assert as_(user).get(url(game)).json()["orders"] == empty["orders"]
    answers = [as_(user).get(url(game)) for user in (eve, mo)]
    assert [a.status_code for a in answers] == [404, 404]
    assert answers[0].json() == answers[1].json()
    # the same answer whether the seat has orders or not
    quiet = Game.objects.get(pk=game.pk)
    assert as_(eve).get(url(quiet)).json() == answers[0].json()
    assert as_(None).get(url(game)).status_code in (401, 403)


def test_a_seat_handed_on_keeps_its_old_players_orders_from_the_new_one(as_, game, bob, eve, mo):
    as_(bob).post(url(game), {"order": waiting_order("x")}, format="json")
    check_replace_seat(game, mo, seat=1, username="eve", reason="bob left")
    got = as_(eve).get(url(game)).json()
    assert got["orders"] == [] and got["notes"] == []
    # Nor can the new player learn by cancelling which numbers existed.
    missing = as_(eve).delete(f"{url(game)}?id=999").json()
    assert as_(eve).delete(f"{url(game)}?id=1").json() == missing
    assert OrderEvent.objects.filter(kind="cancelled").count() == 0


def test_moderators_see_every_order_in_the_audit(as_, game, bob, mo):
    tag = secrets.token_hex(8)
    as_(bob).post(url(game), {"order": waiting_order(tag)}, format="json")
    audit = as_(mo).get(f"/api/games/{game.pk}/audit/").json()
    assert [(o["seat"], o["kind"]) for o in audit["orders"]] == [(1, "written")]
    assert tag in str(audit["orders"])


@pytest.mark.parametrize(
    "body",
    [
        {}, {"order": None}, {"order": "pass"}, {"order": []}, {"order": {}},
        {"order": {"kind": 5}}, {"order": {"kind": "fly"}}, {"order": {"kind": "play"}},
        {"order": {"kind": "play", "action": "pass"}},
        {"order": {"kind": "play", "action": {"type": "pass"}, "phase": "SR x"}},
        {"order": {"kind": "play", "action": {"type": "pass"}, "phase": 3}},
        {"order": {"kind": "play", "text": ""}},
        {"order": {"kind": "play", "text": "fly to the moon"}},
        {"order": {"kind": "play", "text": "pass", "action": {"type": "pass"}}},
        {"order": {"kind": "auction_pass"}}, {"order": {"kind": "auction_pass", "price": -1}},
        {"order": {"kind": "auction_pass", "price": "10"}},
        {"order": {"kind": "auction_pass", "price": 10, "extra": 1}},
        {"order": {"kind": "dividend", "company": "FC", "choice": "all"}},
        {"order": {"kind": "stock_pass", "round": 7}},
    ],
)  # fmt: skip
def test_bad_orders_are_refused_with_a_400_and_change_nothing(as_, game, bob, body):
    answer = as_(bob).post(url(game), body, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["detail"]
    assert not OrderEvent.objects.filter(game=game).exists()


def test_a_play_order_may_give_its_move_as_a_mail_line(as_, game, bob):
    answer = as_(bob).post(url(game), {"order": {"kind": "play", "text": "pass", "phase": "SR 9"}},
                           format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    assert answer.json()["order"]["action"] == {"type": "pass"}


def test_only_players_write_orders(as_, game, eve, mo):
    for user in (eve, mo):
        answer = as_(user).post(url(game), {"order": {"kind": "stock_pass"}}, format="json")
        assert answer.status_code == 403, answer.json()


@pytest.mark.parametrize("query", ["?id=abc", "?id=0", "?id=-3", "?id=99999999999"])
def test_bad_cancels_are_a_400(as_, game, bob, query):
    as_(bob).post(url(game), {"order": waiting_order("x")}, format="json")
    assert as_(bob).delete(url(game) + query).status_code == 400
    assert len(as_(bob).get(url(game)).json()["orders"]) == 1


def test_a_cancel_of_an_order_not_ones_own_is_not_found_like_one_that_never_was(
    as_, game, alice, bob, eve
):
    as_(bob).post(url(game), {"order": waiting_order("x")}, format="json")
    theirs = as_(alice).delete(url(game) + "?id=1")
    never = as_(alice).delete(url(game) + "?id=7")
    stranger = as_(eve).delete(url(game) + "?id=1")
    assert [r.status_code for r in (theirs, never, stranger)] == [404, 404, 404]
    assert theirs.json()["error"] == never.json()["error"] == stranger.json()["error"]
    assert len(as_(bob).get(url(game)).json()["orders"]) == 1
    assert as_(bob).delete(url(game) + "?id=1").json() == {"cancelled": [1]}
    as_(bob).post(url(game), {"order": waiting_order("y")}, format="json")
    as_(bob).post(url(game), {"order": waiting_order("z")}, format="json")
    assert as_(bob).delete(url(game)).json() == {"cancelled": [2, 3]}
    assert as_(bob).get(url(game)).json()["orders"] == []


def what_others_receive(as_, game, users) -> dict:
    """Every API surface of the game as each user receives it, with the ETag."""
    seen = {}
    for user in users:
        client = as_(user)
        for path in ("", "events/?limit=500", "actions/", "messages/", "verify/", "takeback/"):
            answer = client.get(f"/api/games/{game.pk}/{path}")
            seen[(user.username, path)] = (answer.status_code, answer.content,
                                           answer.headers.get("ETag"))  # fmt: skip
        listed = client.get("/api/games/?page_size=100")
        seen[(user.username, "list")] = (listed.status_code, listed.content)
    return seen


@committed
def test_writing_dropping_and_cancelling_orders_changes_nothing_another_viewer_receives(
    as_, make_game, alice, bob, carol, eve
):
    game = make_game("18cuba", players=[alice, bob, carol], seed=5)
    others = [alice, carol, eve]
    before = what_others_receive(as_, game, others)
    as_(bob).post(url(game), {"order": waiting_order("stands")}, format="json")
    # an order for a move that will not be legal: dropped as soon as bob acts
    as_(bob).post(url(game), {"order": {"kind": "play", "action": {"type": "fly"}}}, format="json")
    as_(bob).delete(url(game) + "?id=1")
    assert OrderEvent.objects.filter(game=game).count() == 3
    assert what_others_receive(as_, game, others) == before
