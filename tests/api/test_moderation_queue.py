"""The moderators' queue: items from flagged games, from `verify_games
--flag` and from players' reports (API and mail); take and close."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from games import tasks
from games.models import Event, ModerationItem
from games.services.creation import do_create_game
from games.services.queue import check_report, check_take
from notifications import inbound
from tests.notifications.conftest import reply_mail
from tests.support.tamper import triggers_disabled


def post(client, path, body):
    return client.post(path, body, format="json")


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=5)


def items() -> list[tuple]:
    return list(ModerationItem.objects.order_by("pk").values_list("kind", "game_id", "state"))


def test_a_player_reports_a_game_and_it_is_queued(as_, alice, mo, game):
    response = post(as_(alice), f"/api/games/{game.pk}/report/", {"reason": "bob is rude"})
    assert response.status_code == 201
    body = response.json()
    assert (body["kind"], body["game"], body["state"], body["reported_by"]) == (
        "report", game.pk, "open", "alice",
    )  # fmt: skip
    queue = as_(mo).get("/api/moderation/queue/?state=open").json()["items"]
    assert [(i["kind"], i["reason"]) for i in queue] == [("report", "bob is rude")]


def test_any_account_may_report_a_public_game_but_not_a_private_one(as_, alice, bob, eve, game):
    assert post(as_(eve), f"/api/games/{game.pk}/report/", {"reason": "odd"}).status_code == 201
    private = do_create_game(title="duel", players=[alice, bob], seed=5, public=False)
    refused = post(as_(eve), f"/api/games/{private.pk}/report/", {"reason": "odd"})
    assert refused.status_code == 403
    assert post(as_(None), f"/api/games/{game.pk}/report/", {"reason": "odd"}).status_code == 401
    assert items() == [("report", game.pk, "open")]


def test_a_second_report_while_the_first_is_open_is_a_conflict(as_, alice, game):
    post(as_(alice), f"/api/games/{game.pk}/report/", {"reason": "rude"})
    again = post(as_(alice), f"/api/games/{game.pk}/report/", {"reason": "still rude"})
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    assert len(items()) == 1


def test_a_report_by_mail_is_queued(alice, game):
    outcome = inbound.receive(reply_mail(alice, game, 0, "report bob insults me"), door="test")
    assert outcome.status == "answered" and outcome.results[0]["ok"]
    item = ModerationItem.objects.get()
    assert (item.kind, item.reason, item.reported_by) == ("report", "bob insults me", alice)


def test_a_report_by_mail_without_a_reason_is_refused(alice, game):
    outcome = inbound.receive(reply_mail(alice, game, 0, "report"), door="test")
    assert outcome.results[0]["ok"] is False and "reason" in outcome.results[0]["message"]
    assert items() == []


def test_a_game_flagged_by_its_clock_is_queued(alice, bob, django_capture_on_commit_callbacks):
    game = do_create_game(title="duel", players=[alice, bob], seed=5,
                          clock={"per_move": "1h", "on_timeout": "moderator"})  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_and_queue(timezone.now() + datetime.timedelta(hours=2))
    game.refresh_from_db()
    assert game.flagged
    [item] = ModerationItem.objects.all()
    assert (item.kind, item.game, item.state) == ("flagged", game, "open")
    assert "ran out of time" in item.reason


def test_verify_games_files_items_only_with_flag(alice, bob, game, capsys):
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET hash = %s WHERE game_id = %s AND seq = 1",
                       ["f" * 64, game.pk])  # fmt: skip
    with pytest.raises(SystemExit):
        call_command("verify_games")
    assert items() == []  # read only: the release gate relies on it
    with pytest.raises(SystemExit):
        call_command("verify_games", "--flag")
    assert items() == [("verify", game.pk, "open")]
    assert "seq 1" in ModerationItem.objects.get().reason
    with pytest.raises(SystemExit):
        call_command("verify_games", "--flag")
    assert len(items()) == 1  # one open item per broken game
    assert "1 queue item(s) filed" in capsys.readouterr().out


def test_a_moderator_takes_and_closes_an_item(as_, alice, mo, game):
    item = check_report(game, alice, reason="rude")
    taken = post(as_(mo), f"/api/moderation/queue/{item.pk}/take/", {})
    assert taken.status_code == 200
    assert (taken.json()["state"], taken.json()["taken_by"]) == ("taken", "mo")
    assert taken.json()["taken_at"]
    closed = post(as_(mo), f"/api/moderation/queue/{item.pk}/close/", {"note": "warned bob"})
    assert closed.status_code == 200
    assert (closed.json()["state"], closed.json()["closed_by"], closed.json()["note"]) == (
        "closed", "mo", "warned bob",
    )  # fmt: skip
    listed = as_(mo).get("/api/moderation/queue/?state=closed").json()["items"]
    assert [i["id"] for i in listed] == [item.pk]
    assert as_(mo).get("/api/moderation/queue/?state=open").json()["items"] == []


def test_an_item_taken_already_cannot_be_taken_again(as_, alice, mo, game):
    item = check_report(game, alice, reason="rude")
    check_take(item.pk, mo)
    response = post(as_(mo), f"/api/moderation/queue/{item.pk}/take/", {})
    assert response.status_code == 409 and "taken" in response.json()["detail"]


def test_the_queue_is_for_moderators_only(as_, alice, mo, game):
    item = check_report(game, alice, reason="rude")
    assert as_(alice).get("/api/moderation/queue/").status_code == 403
    for act in ("take", "close"):
        response = post(as_(alice), f"/api/moderation/queue/{item.pk}/{act}/", {})
        assert response.status_code == 403
    assert items() == [("report", game.pk, "open")]
    assert as_(mo).get("/api/moderation/queue/?state=nope").status_code == 400


def test_a_report_is_not_an_event_of_the_game(alice, game):
    check_report(game, alice, reason="rude")
    assert list(Event.objects.filter(game=game).values_list("kind", flat=True)) == ["created"]
