"""The game page: the board, the moves as forms, a move posted through the service."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from games.models import Event
from games.services.creation import do_create_game


@pytest.fixture
def havana(alice, bob):
    return do_create_game(title="havana", players=[alice, bob], seed=7)


def first_action(html: str) -> str:
    """The first move the page offers (a button's or a list's), as posted."""
    found = re.search(r'(?:name="action" value|<option value)="([^"]+)"', html)
    assert found, "the page offers no move"
    return unescape(found.group(1))


def move_forms(html: str) -> list[str]:
    return re.findall(r"<form[^>]*data-action=\"([^\"]+)\"", html)


def test_a_player_sees_their_moves_as_forms_with_data_action(page_as, alice, havana):
    response = page_as(alice).get(f"/games/{havana.pk}/")
    assert response.status_code == 200
    assert "choose" in " ".join(move_forms(response.content.decode()))


def test_a_move_posted_from_the_page_goes_through_the_service(page_as, alice, havana):
    client = page_as(alice)
    html = client.get(f"/games/{havana.pk}/").content.decode()
    action = json.loads(first_action(html))
    response = client.post(
        f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": json.dumps(action)}
    )
    assert response.status_code == 302
    event = Event.objects.get(game=havana, seq=havana.seq + 1)
    assert event.source == "web" and event.payload["action"] == action


def test_a_stale_seq_gives_a_message_and_a_fresh_board_not_an_error(page_as, alice, havana):
    client = page_as(alice)
    response = client.post(
        f"/games/{havana.pk}/move/",
        {"seq": havana.seq - 1, "action": '{"type": "x"}'},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "has moved on" in response.content.decode()
    assert Event.objects.filter(game=havana).count() == havana.seq


def test_garbage_in_the_move_form_changes_nothing(page_as, alice, havana):
    client = page_as(alice)
    for data in (
        {},
        {"seq": "x"},
        {"seq": havana.seq, "action": "{not json"},
        {"seq": havana.seq, "action": "[]"},
    ):
        response = client.post(f"/games/{havana.pk}/move/", data, follow=True)
        assert response.status_code == 200
    assert Event.objects.filter(game=havana).count() == havana.seq


def test_the_live_poll_is_empty_until_the_game_moves(page_as, alice, bob, havana):
    client = page_as(bob)
    page = client.get(f"/games/{havana.pk}/")
    etag = page.headers["ETag"]
    assert client.get(f"/games/{havana.pk}/live/", {"etag": etag}).status_code == 204
    html = page_as(alice).get(f"/games/{havana.pk}/").content.decode()
    value = first_action(html)
    page_as(alice).post(f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": value})
    fresh = client.get(f"/games/{havana.pk}/live/", {"etag": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag


def test_pages_404_and_403_are_html(page_as, eve, alice, bob):
    game = do_create_game(title="havana", players=[alice, bob], seed=1, public=False)
    assert page_as(eve).get(f"/games/{game.pk}/").status_code == 403
    missing = page_as(eve).get("/games/999999/")
    assert missing.status_code == 404 and "text/html" in missing.headers["Content-Type"]
    assert page_as(eve).get(f"/games/{2**64}/").status_code == 404


def test_the_welcome_page_shows_each_title(page_as, db):
    html = page_as(None).get("/").content.decode()
    for title in ("Havana", "The Estates", "Point City", "18Cuba"):
        assert title in html


def test_the_dashboard_lists_my_game_first_when_it_is_my_turn(page_as, alice, havana):
    html = page_as(alice).get("/").content.decode()
    assert f"/games/{havana.pk}/" in html and "my-turn" in html


def test_the_dashboard_shows_the_last_move_as_each_player_may_see_it(page_as, alice, bob, havana):
    from games.engines import base

    action = json.loads(first_action(page_as(alice).get(f"/games/{havana.pk}/").content.decode()))
    page_as(alice).post(
        f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": json.dumps(action)}
    )
    engine = base.get("havana")
    whole = engine.narrate(action, 0, ["alice", "bob"])
    hidden = engine.narrate(engine.public_action(None, 0, action), 0, ["alice", "bob"])
    mine = page_as(alice).get("/").content.decode()
    theirs = page_as(bob).get("/").content.decode()
    assert whole in mine
    # A face-down choice: bob sees that alice chose, not what.
    assert hidden in theirs and whole not in theirs and hidden != whole


def test_a_takeback_is_asked_and_approved_from_the_pages(page_as, alice, bob, havana):
    mine, theirs = page_as(alice), page_as(bob)
    action = first_action(mine.get(f"/games/{havana.pk}/").content.decode())
    mine.post(f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": action})
    moved = havana.seq + 1
    mine.post(f"/games/{havana.pk}/takeback/", {"seq": moved})
    asked = theirs.get(f"/games/{havana.pk}/").content.decode()
    assert "alice asks to take back their move" in asked
    assert 'data-action="takeback-approve"' in asked
    theirs.post(f"/games/{havana.pk}/takeback/", {"seq": moved + 1, "answer": "approve"})
    kinds = list(Event.objects.filter(game=havana).order_by("seq").values_list("kind", flat=True))
    assert kinds[-3:] == ["takeback_request", "takeback_answer", "undo"]
    again = mine.get(f"/games/{havana.pk}/").content.decode()
    assert first_action(again) == action  # the choice is open again


def test_a_takeback_answer_that_is_not_approve_or_refuse_changes_nothing(
    page_as, alice, bob, havana
):
    client = page_as(bob)
    response = client.post(
        f"/games/{havana.pk}/takeback/", {"seq": havana.seq, "answer": "maybe"}, follow=True
    )
    assert response.status_code == 200
    assert Event.objects.filter(game=havana).count() == havana.seq


def test_a_huge_move_form_is_refused_with_a_page_and_changes_nothing(page_as, alice, havana):
    huge = {"seq": havana.seq, "action": "x" * 2_000_000}
    response = page_as(alice).post(f"/games/{havana.pk}/move/", huge)
    assert response.status_code == 400
    assert "text/html" in response.headers["Content-Type"]
    assert Event.objects.filter(game=havana).count() == havana.seq


def test_take_back_is_offered_only_right_after_my_own_move(page_as, alice, bob, havana):
    mine = page_as(alice)
    before = mine.get(f"/games/{havana.pk}/").content.decode()
    assert 'data-action="takeback-request"' not in before
    mine.post(f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": first_action(before)})
    after = mine.get(f"/games/{havana.pk}/").content.decode()
    assert 'data-action="takeback-request"' in after
    assert (
        'data-action="takeback-request"'
        not in page_as(bob).get(f"/games/{havana.pk}/").content.decode()
    )


def test_a_database_outage_is_a_503_page_that_says_try_again(page_as, alice, havana, monkeypatch):
    from django.db import OperationalError

    from games.stream import sql

    def gone(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(sql, "game", gone)
    monkeypatch.setattr(sql, "head", gone)
    client = page_as(alice)
    for response in (
        client.get(f"/games/{havana.pk}/"),
        client.post(f"/games/{havana.pk}/move/", {"seq": havana.seq, "action": "{}"}),
    ):
        assert response.status_code == 503
        assert response["Retry-After"] == "5"
        assert "try again" in response.content.decode()
    assert Event.objects.filter(game=havana).count() == havana.seq


def test_pages_carry_a_content_security_policy_of_our_own_origin(page_as, alice, havana):
    policy = page_as(alice).get(f"/games/{havana.pk}/")["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
