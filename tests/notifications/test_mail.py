"""The mail itself, and delivery through Django's SMTP backend to a real SMTP sink."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications import delivery, render, tasks
from notifications.addresses import reply_address, unsubscribe_token
from notifications.models import Notification
from tests.notifications.conftest import new_duel

pytestmark = pytest.mark.django_db


def turn_of(user) -> Notification:
    return Notification.objects.get(user=user, kind="your_turn")


def test_a_turn_mail_has_the_state_the_moves_and_a_signed_reply_to(alice, bob):
    game = new_duel(alice, bob)
    message = render.build_message(turn_of(alice))
    assert message.subject == f"[Correo] Duel (test engine) #{game.pk}: your turn"
    assert message.reply_to == [reply_address(game.pk, 0, alice.pk)]
    assert message.to == ["alice@example.org"]
    hand = engine_for(game).view(store.load(game, engine_for(game)).state, 0)["hand"]
    for card in hand:
        assert f"\n    commit {card}\n" in message.body
    assert f"hand: {json.dumps(hand, separators=(', ', ': '))}" in message.body
    html = message.alternatives[0][0]
    assert f">commit {hand[0]}</a>" in html and "<script" not in html


def test_the_footer_carries_the_head_hash_and_seq_and_the_unsubscribe_link(alice, bob):
    game = new_duel(alice, bob)
    game.refresh_from_db()
    n = turn_of(alice)
    message = render.build_message(n)
    assert f"Game #{game.pk} at seq 1, event-chain head {game.head_hash}" in message.body
    assert "\n-- \n" in message.body
    url = f"https://correo.test/email/unsubscribe/{unsubscribe_token(alice.pk)}/"
    assert url in message.body
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["Message-ID"] == f"<correo.{n.pk}.your_turn@play.correo.test>"


def test_a_player_sees_only_their_own_hand(alice, bob):
    game = new_duel(alice, bob)
    engine = engine_for(game)
    state = store.load(game, engine).state
    body = render.build_message(turn_of(bob)).body
    assert f"hand: {json.dumps(state['hands'][1], separators=(', ', ': '))}" in body
    assert json.dumps(state["hands"][0], separators=(", ", ": ")) not in body


@pytest.mark.parametrize("kind", ["game_over", "undone", "reminder", "digest", "takeback"])
def test_every_kind_renders(alice, bob, kind):
    game = new_duel(alice, bob)
    n = Notification.objects.create(
        key=f"t:{kind}", kind=kind, user=alice, to_email=alice.email, game=game, seq=1, seat=0,
        context={"status": "finished", "to_seq": 1, "reason": "r", "due": "soon",
                 "items": [turn_of(alice).pk]},
    )  # fmt: skip
    message = render.build_message(n)
    assert message.subject.startswith("[Correo]")
    assert message.body and message.alternatives


SOLO_LOSS = {
    "winners": [],
    "places": [2],
    "scores": [13],
    "ended_by": "pile_exhausted",
    "breakdown": [{"buildings": 9, "civic token 3": 4}],
    "opponent": {"score": 13},
}


def test_result_lines_list_the_seats_by_place_with_their_points():
    result = {
        "winners": [1, 2],
        "places": [3, 1, 1],
        "scores": [2, 7, 7],
        "ended_by": "two_rows_complete",
        "breakdown": [{"row a": 2}, {"row a": 5, "stash": 2}, {"row a": 7, "stash": 0}],
    }
    players = [(0, "alice"), (1, "bob"), (2, "carol")]
    assert render.result_lines(result, players) == [
        "1. bob (seat 1): 7, winner (row a: 5, stash: 2)",
        "1. carol (seat 2): 7, winner (row a: 7, stash: 0)",
        "3. alice (seat 0): 2 (row a: 2)",
        "ended by: two rows complete",
    ]
    assert render.result_lines(SOLO_LOSS, [(0, "alice")]) == [
        "2. alice (seat 0): 13 (buildings: 9, civic token 3: 4)",
        "opponent: 13",
        "ended by: pile exhausted",
    ]


def test_the_game_over_mail_shows_the_result(alice, bob):
    game = new_duel(alice, bob)
    result = engine_for(game).result({**DUEL_OVER, "scores": [9, 4]})
    type(game).objects.filter(pk=game.pk).update(status="finished", result=result)
    game.refresh_from_db()
    n = Notification.objects.create(
        key="t:over", kind="game_over", user=bob, to_email=bob.email, game=game, seq=1,
        seat=1, context={"status": "finished"},
    )  # fmt: skip
    message = render.build_message(n)
    assert "Result:\n  1. alice (seat 0): 9, winner (cards won: 9)\n" in message.body
    assert "  2. bob (seat 1): 4 (cards won: 4)\n  ended by: last round\n" in message.body
    assert "1. alice (seat 0): 9, winner (cards won: 9)" in message.alternatives[0][0]


DUEL_OVER = {"phase": "over", "round": 3, "rounds": 3, "players": 2}


def test_delivery_sends_one_message_through_smtp(alice, bob, sink):
    new_duel(alice, bob)
    n = turn_of(alice)
    assert delivery.deliver(n.pk) == "sent"
    assert delivery.deliver(n.pk) == "not-due"  # idempotent: the claim lets one through
    [message] = sink.to("alice@example.org")
    assert message["Message-ID"] == n.message_id
    assert message["Reply-To"] == reply_address(n.game_id, 0, alice.pk)
    assert message.get_body(("plain",)).get_content().startswith("Hello alice")
    assert message.get_body(("html",)) is not None
    n.refresh_from_db()
    assert (n.status, n.attempts) == ("sent", 1)


def test_a_failed_send_is_retried_later_and_then_given_up(alice, bob, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 2
    new_duel(alice, bob)
    n = turn_of(alice)
    assert delivery.deliver(n.pk) == "retry"
    n.refresh_from_db()
    assert n.status == "pending" and n.next_attempt_at > timezone.now() and n.last_error
    assert delivery.sweep() == [turn_of(bob).pk]  # not yet due
    Notification.objects.filter(pk=n.pk).update(next_attempt_at=timezone.now())
    assert delivery.deliver(n.pk) == "failed"
    n.refresh_from_db()
    assert n.status == "failed"


def test_the_sweep_takes_back_rows_whose_worker_died(alice, bob, sink, settings):
    new_duel(alice, bob)
    n = turn_of(alice)
    assert delivery.claim(n.pk) is not None  # a worker claimed it ... and was killed
    assert n.pk not in delivery.sweep()  # within the lease: still someone else's
    Notification.objects.filter(pk=n.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    assert tasks.sweep_outbox() == 2  # eager here: delivers alice's and bob's
    assert {m["To"] for m in sink.messages} == {"alice@example.org", "bob@example.org"}
    assert Notification.objects.get(pk=n.pk).status == "sent"


def test_a_turn_already_played_is_not_mailed(alice, bob, sink):
    game = new_duel(alice, bob)
    card = store.load(game, engine_for(game)).state["hands"][0][0]
    check_submit_action(game, alice, text=f"commit {card}", expected_seq=1)
    assert delivery.deliver(turn_of(alice).pk) == "skipped"
    assert delivery.deliver(turn_of(bob).pk) == "sent"  # bob still has to commit


def test_delivery_is_queued_when_the_event_commits(
    alice, bob, sink, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        new_duel(alice, bob)
    assert sink.messages == []  # nothing leaves before the commit
    for callback in callbacks:
        callback()
    assert sorted(m["To"] for m in sink.messages) == ["alice@example.org", "bob@example.org"]


def test_a_digest_is_one_mail_for_several_games(alice, bob, sink):
    bob.notify_mode = "daily_digest"
    bob.save()
    first, second = new_duel(alice, bob), new_duel(bob, alice)
    assert tasks.send_digests() == 1
    [message] = sink.to("bob@example.org")
    assert message["Subject"] == "[Correo] your daily digest: 2 games"
    body = message.get_body(("plain",)).get_content()
    assert reply_address(first.pk, 1, bob.pk) in body
    assert reply_address(second.pk, 0, bob.pk) in body


def test_rendering_a_row_twice_gives_the_same_message(alice, bob):
    new_duel(alice, bob)
    first, again = (render.build_message(turn_of(alice)) for _ in range(2))
    assert (first.subject, first.body, first.extra_headers) == (
        again.subject, again.body, again.extra_headers,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_embedded_server_sweeps_the_outbox_itself(alice, bob, sink, monkeypatch):
    from ops import embedded

    monkeypatch.setattr("sys.argv", ["manage.py", "runserver"])
    monkeypatch.setenv("RUN_MAIN", "true")
    assert embedded.serving_embedded() is (not embedded.settings.REDIS_URL)
    new_duel(alice, bob)
    # as if the inline delivery had failed: pending again, nothing in the sink
    Notification.objects.update(status="pending")
    sink.messages.clear()
    sweep = {"outbox": {"task": "notifications.sweep_outbox", "schedule": 0.05}}
    stop = embedded.start(tick=0.05, entries=sweep)
    try:
        sink.wait_for(lambda m: "bob@example.org" in m.envelope_to)
    finally:
        stop.set()
        time.sleep(0.2)  # let the loop close its connection
