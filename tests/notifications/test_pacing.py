"""Turn mails that know where their reader is: none while the game's page is
open, one after a grace once they leave without moving, and turn mails that
come close together about one game gathered into one.  With a fake clock,
and with a real worker on the real Redis."""

from __future__ import annotations

import datetime
import time

import pytest
from django.core import mail
from django.test import Client

from games.services.moves import check_submit_action
from notifications import pacing, tasks
from notifications.models import Notification
from tests.notifications.conftest import new_duel
from tests.support.play import current_state
from tests.support.waiting import wait_until

T0 = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock(monkeypatch, db):
    """Django's now, moved by hand: `clock(seconds)` sets it to T0 + seconds."""
    now = [T0]
    monkeypatch.setattr("django.utils.timezone.now", lambda: now[0])

    def move_to(seconds: float) -> datetime.datetime:
        now[0] = T0 + datetime.timedelta(seconds=seconds)
        return now[0]

    return move_to


@pytest.fixture(autouse=True)
def committing(request):
    """What commits here runs its on-commit work (the delivery) at once, as
    after a real commit; the tests with a real worker commit for real."""
    global now_committed
    if request.node.get_closest_marker("redis"):
        now_committed = _as_is
        yield
        return
    capture = request.getfixturevalue("django_capture_on_commit_callbacks")

    def run(fn, *args, **kwargs):
        with capture(execute=True):
            return fn(*args, **kwargs)

    now_committed = run
    yield
    now_committed = _as_is


def _as_is(fn, *args, **kwargs):
    return fn(*args, **kwargs)


now_committed = _as_is


def duel(*players, **options):
    return now_committed(new_duel, *players, **options)


def sweep() -> int:
    return now_committed(tasks.sweep_outbox)


@pytest.fixture
def paced(settings):
    settings.CORREO_PRESENCE_SECONDS = 180
    settings.CORREO_COALESCE_SECONDS = 600
    return settings


def mails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def play(game, user, seat: int) -> None:
    """The seat's first legal move."""
    from games.stream.derived import engine_for

    game.refresh_from_db()
    engine = engine_for(game)
    action = engine.legal_actions(current_state(game), seat)[0]
    now_committed(check_submit_action, game, user, action=action, expected_seq=game.seq)


def test_no_turn_mail_while_at_the_page_and_one_after_leaving(clock, paced, alice, bob):
    paced.CORREO_COALESCE_SECONDS = 0  # presence alone
    clock(0)
    game = duel(alice, bob)
    assert len(mails_to(alice)) == 1  # the first turn: nobody was at the page
    clock(10)
    pacing.seen(game.pk, alice.pk)
    play(game, alice, 0)
    play(game, bob, 1)  # the draw: alice is to act again, and at the page
    row = Notification.objects.filter(user=alice, kind="your_turn").latest("pk")
    assert (row.status, row.next_attempt_at) == ("pending", clock(10) + datetime.timedelta(
        seconds=180))  # fmt: skip
    assert len(mails_to(alice)) == 1
    clock(100)
    pacing.seen(game.pk, alice.pk)  # still there: a poll
    clock(200)
    assert sweep() == 1
    row.refresh_from_db()
    assert row.status == "pending" and len(mails_to(alice)) == 1
    clock(279)
    assert sweep() == 0  # due at 100 + 180
    clock(281)
    assert sweep() == 1
    assert len(mails_to(alice)) == 2
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)


def test_a_player_who_moves_at_the_page_gets_no_mail_at_all(clock, paced, alice, bob):
    paced.CORREO_COALESCE_SECONDS = 0
    clock(0)
    game = duel(alice, bob)
    clock(10)
    pacing.seen(game.pk, alice.pk)
    play(game, alice, 0)
    play(game, bob, 1)
    clock(20)
    play(game, alice, 0)  # she drew, at the page
    clock(400)
    sweep()
    assert len(mails_to(alice)) == 1
    assert Notification.objects.filter(user=alice, status="skipped").count() == 1


def test_turn_mails_close_together_become_one_that_tells_everything(clock, paced, alice, bob):
    paced.CORREO_PRESENCE_SECONDS = 0  # coalescing alone
    clock(0)
    game = duel(alice, bob, rounds=3)
    assert len(mails_to(alice)) == 1  # sent at 0: the window runs to 600
    clock(60)
    play(game, alice, 0)
    play(game, bob, 1)  # alice to draw: held
    clock(120)
    play(game, alice, 0)
    play(game, bob, 1)  # round 2: alice to commit again, a newer row: held too
    held = Notification.objects.filter(user=alice, kind="your_turn", status="pending")
    assert held.count() == 2
    assert {row.next_attempt_at for row in held} == {clock(120) + datetime.timedelta(
        seconds=480)}  # fmt: skip
    clock(599)
    assert sweep() == 0
    clock(601)
    sweep()
    assert len(mails_to(alice)) == 2  # not three
    statuses = sorted(Notification.objects.filter(user=alice, kind="your_turn", seq__gt=1)
                      .values_list("status", flat=True))  # fmt: skip
    assert statuses == ["sent", "skipped"]
    sent = Notification.objects.get(user=alice, kind="your_turn", status="sent", seq__gt=1)
    game.refresh_from_db()
    assert sent.seq == game.seq  # told as the game stands now
    # It tells what happened since her last turn, as the game stands now.
    assert "bob:" in mails_to(alice)[-1].body


def test_a_player_who_wants_every_mail_gets_every_mail(clock, paced, alice, bob):
    alice.every_mail = True
    alice.save()
    clock(0)
    game = duel(alice, bob, rounds=3)
    clock(5)
    pacing.seen(game.pk, alice.pk)
    play(game, alice, 0)
    play(game, bob, 1)
    assert len(mails_to(alice)) == 2


def test_every_mail_is_a_setting_of_the_api_and_the_page(alice):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(alice)
    answer = api.patch("/api/auth/me/", {"every_mail": True}, format="json")
    assert answer.status_code == 200 and answer.json()["every_mail"] is True
    client = Client()
    client.force_login(alice)
    page = client.get("/settings/").content.decode()
    assert 'name="every_mail"' in page and "checked" in page.split('name="every_mail"')[1][:80]


def test_the_page_and_its_polls_say_a_player_is_there(paced, alice, bob, charlie):
    game = duel(alice, bob)
    for user, path in ((alice, f"/games/{game.pk}/"), (bob, f"/games/{game.pk}/live/?etag=x"),
                       (charlie, f"/games/{game.pk}/")):  # fmt: skip
        client = Client()
        client.force_login(user)
        assert client.get(path).status_code in (200, 204)
    assert pacing.last_seen(game.pk, alice.pk) is not None
    assert pacing.last_seen(game.pk, bob.pk) is not None
    assert pacing.last_seen(game.pk, charlie.pk) is None  # a spectator gets no turn mail anyway
    from django.core.cache import cache

    cache.clear()
    talk_box = Client()
    talk_box.force_login(bob)
    assert talk_box.get(f"/games/{game.pk}/talk/?seq=0").status_code == 200
    assert pacing.last_seen(game.pk, bob.pk) is not None


@pytest.mark.slow  # a real worker, and the grace waited out
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_a_real_worker_the_mail_waits_for_the_player_to_leave(worker, sink, paced, alice,
                                                                   bob):  # fmt: skip
    # Long enough for a loaded machine's worker to take the mail while she
    # is still at the table; the wait below counts from her visit.
    paced.CORREO_PRESENCE_SECONDS = presence = 6
    paced.CORREO_COALESCE_SECONDS = 0
    game = duel(alice, bob)
    sink.wait_for(lambda m: "alice@example.org" in m.envelope_to)
    page = Client()
    page.force_login(alice)
    assert page.get(f"/games/{game.pk}/").status_code == 200  # at the table
    seen = time.monotonic()
    play(game, alice, 0)
    play(game, bob, 1)
    row = Notification.objects.filter(user=alice, kind="your_turn").latest("pk")
    wait_until(lambda: Notification.objects.get(pk=row.pk).next_attempt_at is not None)
    assert len(sink.to("alice@example.org")) == 1
    time.sleep(max(0.0, seen + presence + 0.2 - time.monotonic()))  # she left without moving
    assert sweep() >= 1
    wait_until(lambda: Notification.objects.get(pk=row.pk).status == "sent")
    assert len(sink.to("alice@example.org")) == 2
