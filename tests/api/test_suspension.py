"""Suspended accounts: no login, no token, no move, no mail, no vacation;
their clocks run on; a moderator lifts the suspension."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import Suspension
from games import tasks
from games.errors import Conflict, Forbidden, Suspended
from games.models import Event
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.suspension import check_suspend, check_unsuspend
from games.services.vacation import check_start_vacation
from notifications import inbound
from tests.notifications.conftest import reply_mail
from tests.support.play import hand

PASSWORD = "correct horse 42"


def post(client, path, body):
    return client.post(path, body, format="json")


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_moderator_suspends_with_a_reason_and_it_is_recorded(as_, bob, mo):
    response = post(as_(mo), "/api/users/bob/suspend/", {"reason": "abuse in chat"})
    assert response.status_code == 201
    body = response.json()
    assert (body["username"], body["suspended"], body["reason"], body["suspended_by"]) == (
        "bob", True, "abuse in chat", "mo",
    )  # fmt: skip
    bob.refresh_from_db()
    suspension = Suspension.objects.get(user=bob)
    assert bob.suspended and suspension.suspended_by == mo and suspension.lifted_at is None


def test_suspending_is_refused_to_everyone_but_moderators(as_, alice, bob):
    for user in (alice, bob):
        response = post(as_(user), "/api/users/bob/suspend/", {"reason": "x"})
        assert response.status_code == 403
    bob.refresh_from_db()
    assert not bob.suspended and not Suspension.objects.exists()


def test_a_suspended_user_cannot_log_in_or_get_a_token(client, bob, mo):
    check_suspend(bob, mo, reason="abuse")
    assert client.login(username="bob", password=PASSWORD) is False
    response = client.post("/api/auth/token/", {"username": "bob", "password": PASSWORD},
                           content_type="application/json")  # fmt: skip
    assert response.status_code == 400 and "token" not in response.json()


def test_a_suspension_ends_the_open_session(client, bob, mo):
    assert client.login(username="bob", password=PASSWORD)
    assert client.get("/api/vacation/").status_code == 200
    check_suspend(bob, mo, reason="abuse")
    assert client.get("/api/vacation/").status_code in (401, 403)


def test_a_suspended_users_token_is_refused_at_once(as_, bob, mo):
    client = as_(bob)
    assert client.get("/api/vacation/").status_code == 200  # now in the token memory
    check_suspend(bob, mo, reason="abuse")
    response = client.get("/api/vacation/")
    assert response.status_code == 401 and "suspended" in response.json()["detail"]


def test_a_suspended_user_cannot_move_start_a_vacation_or_be_seated(alice, bob, mo):
    game = do_create_game(title="duel", players=[alice, bob], seed=5)
    check_suspend(bob, mo, reason="abuse")
    bob.refresh_from_db()
    with pytest.raises(Suspended):
        check_submit_action(game, bob, action={"type": "commit", "card": hand(game, 1)[0]},
                            expected_seq=1)  # fmt: skip
    with pytest.raises(Suspended):
        check_start_vacation(bob, days=3)
    assert Event.objects.filter(game=game).count() == 1


def test_a_suspended_user_cannot_be_put_in_a_new_game(as_, alice, bob, mo):
    check_suspend(bob, mo, reason="abuse")
    response = post(as_(alice), "/api/games/", {"title": "duel", "players": ["alice", "bob"]})
    assert response.status_code == 400 and "bob" in response.json()["detail"]


def test_mail_from_a_suspended_user_is_refused(alice, bob, mo):
    game = do_create_game(title="duel", players=[alice, bob], seed=5)
    check_suspend(bob, mo, reason="abuse")
    outcome = inbound.receive(reply_mail(bob, game, 1, f"commit {hand(game, 1)[0]}"), door="test")
    assert (outcome.status, outcome.reason) == ("rejected", "suspended")
    assert Event.objects.filter(game=game).count() == 1


def test_a_suspended_players_clock_runs_on_and_times_out(
    alice, bob, mo, django_capture_on_commit_callbacks
):
    game = do_create_game(title="duel", players=[alice, bob], seed=5,
                          clock={"per_move": "1h", "on_timeout": "auto"})  # fmt: skip
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                        expected_seq=1)  # fmt: skip
    check_suspend(bob, mo, reason="abuse")
    game.refresh_from_db()
    assert not game.paused and game.deadline is not None
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_and_queue(timezone.now() + datetime.timedelta(hours=2))
    timeout = Event.objects.get(game=game, kind="timeout")
    assert (timeout.seat, timeout.source, timeout.actor) == (1, "timer", None)


def test_lifting_a_suspension_records_who_and_lets_the_user_back(as_, client, bob, mo):
    _, key = tokens.issue(bob)
    check_suspend(bob, mo, reason="abuse")
    response = post(as_(mo), "/api/users/bob/unsuspend/", {"reason": "served"})
    assert response.status_code == 200
    assert response.json()["suspended"] is False and response.json()["lifted_by"] == "mo"
    suspension = Suspension.objects.get(user=bob)
    assert (
        suspension.lifted_by == mo and suspension.lifted_at and suspension.lift_reason == "served"
    )
    assert client.login(username="bob", password=PASSWORD)
    assert as_(bob).get("/api/vacation/").status_code == 200
    # The token bob held before the suspension works again: a suspension
    # refuses tokens, it does not revoke them.
    assert token_client(key).get("/api/vacation/").status_code == 200


def test_suspending_twice_or_lifting_no_suspension_is_a_conflict(as_, bob, mo):
    check_suspend(bob, mo, reason="abuse")
    with pytest.raises(Conflict):
        check_suspend(bob, mo, reason="again")
    check_unsuspend(bob, mo)
    with pytest.raises(Conflict):
        check_unsuspend(bob, mo)
    assert post(as_(mo), "/api/users/bob/unsuspend/", {}).status_code == 409
    assert Suspension.objects.filter(user=bob).count() == 1


def test_lifting_is_refused_to_a_player(bob, alice, mo):
    check_suspend(bob, mo, reason="abuse")
    with pytest.raises(Forbidden):
        check_unsuspend(bob, alice)
    bob.refresh_from_db()
    assert bob.suspended


def test_an_unknown_user_is_a_404(as_, mo):
    assert post(as_(mo), "/api/users/nobody/suspend/", {"reason": "x"}).status_code == 404


@pytest.mark.parametrize("reason", ["", "x" * 501, "a\x00b", None])
def test_a_suspension_without_a_fit_reason_is_refused(bob, mo, reason):
    from games.errors import InvalidRequest

    with pytest.raises(InvalidRequest):
        check_suspend(bob, mo, reason=reason)
    bob.refresh_from_db()
    assert not bob.suspended and not Suspension.objects.exists()


def test_a_suspension_ends_a_vacation_under_way(alice, bob, mo):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 2}, seed=5,
                          clock={"per_move": "1h"})  # fmt: skip
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                        expected_seq=1)  # fmt: skip
    away = check_start_vacation(alice, days=2)
    check_suspend(alice, mo, reason="abuse")
    away.refresh_from_db()
    assert away.ends_at <= timezone.now()
    game.refresh_from_db()  # the vacation's notice moved it on
    check_submit_action(game, bob, action={"type": "commit", "card": hand(game, 1)[0]},
                        expected_seq=game.seq)  # fmt: skip
    deadline = game.seats.get(index=0).deadline
    assert deadline - timezone.now() < datetime.timedelta(hours=1, minutes=1)
