"""Inbound replies through the one parser: authentication, commands, answers."""

from __future__ import annotations

import random

import pytest

from games.models import Event, Game, Seat
from games.services.moves import check_submit_action
from notifications import inbound
from notifications.addresses import reply_address
from notifications.models import InboundMessage, Notification
from tests.notifications.conftest import new_duel, reply_mail
from tests.support.play import hand

pytestmark = pytest.mark.django_db


def receive(raw: bytes, **kwargs) -> inbound.Outcome:
    return inbound.receive(raw, door="test", **kwargs)


def answers_to(address: str) -> list[Notification]:
    return list(Notification.objects.filter(to_email=address, kind__in=["reply", "rejection"]))


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 1}, seed=7)  # as new_duel makes it


def test_a_reply_applies_the_move_and_confirms_it(game, alice):
    card = hand(game, 0)[0]
    outcome = receive(reply_mail(alice, game, 0, f"commit {card}\n\n> quoted"))
    assert outcome.status == "applied"
    event = Event.objects.get(game=game, seq=2)
    assert (event.kind, event.source, event.actor, event.payload["action"]) == (
        "action", "email", alice, {"type": "commit", "card": card},
    )  # fmt: skip
    [answer] = answers_to("alice@example.org")
    assert answer.kind == "reply"
    assert answer.context["results"][0]["ok"] is True
    assert answer.context["in_reply_to"].endswith("@client.example>")


def test_each_message_id_is_processed_once(game, alice):
    raw = reply_mail(alice, game, 0, f"commit {hand(game, 0)[0]}", message_id="<once@x>")
    assert receive(raw).status == "applied"
    again = receive(raw)
    assert again.status == "duplicate"
    game.refresh_from_db()
    assert game.seq == 2
    assert InboundMessage.objects.count() == 1
    assert len(answers_to("alice@example.org")) == 1


def test_a_forged_address_changes_nothing_and_is_answered(game, alice):
    good = reply_address(game.pk, 0, alice.pk)
    forged = good.replace(f"+{game.pk}-0-", f"+{game.pk}-1-")
    outcome = receive(reply_mail(alice, game, 0, "commit 1", to=forged))
    assert (outcome.status, outcome.reason) == ("rejected", "bad_signature")
    game.refresh_from_db()
    assert game.seq == 1
    [answer] = answers_to("alice@example.org")
    assert answer.kind == "rejection"
    assert "not valid" in answer.context["reason"]
    assert answer.game is None  # nothing about any game goes to an unauthenticated sender


def test_a_valid_address_from_another_sender_is_refused(game, alice, eve):
    outcome = receive(reply_mail(alice, game, 0, "commit 1", sender="eve@example.org"))
    assert (outcome.status, outcome.reason) == ("rejected", "wrong_sender")
    game.refresh_from_db()
    assert game.seq == 1
    assert answers_to("eve@example.org")[0].kind == "rejection"


def test_the_sender_check_ignores_case_and_display_names(game, alice):
    sender = '"Alice A." <ALICE@Example.ORG>'
    outcome = receive(reply_mail(alice, game, 0, f"commit {hand(game, 0)[0]}", sender=sender))
    assert outcome.status == "applied"


def test_an_address_of_a_seat_that_changed_hands_has_expired(game, alice, carol):
    Seat.objects.filter(game=game, index=0).update(user=carol)
    outcome = receive(reply_mail(alice, game, 0, "commit 1"))
    assert outcome.reason == "expired"


def test_an_address_moved_to_another_game_does_not_verify(game, alice, bob):
    other = new_duel(alice, bob)
    to = reply_address(game.pk, 0, alice.pk).replace(f"+{game.pk}-", f"+{other.pk}-")
    assert receive(reply_mail(alice, other, 0, "commit 1", to=to)).reason == "bad_signature"


def test_mail_to_no_reply_address_is_refused(game, alice):
    outcome = receive(reply_mail(alice, game, 0, "commit 1", to="someone@elsewhere.example"))
    assert outcome.reason == "no_reply_address"


def test_an_illegal_move_is_answered_with_the_reason_and_the_legal_moves(game, alice):
    outcome = receive(reply_mail(alice, game, 0, "commit 99"))
    assert outcome.status == "answered"
    game.refresh_from_db()
    assert game.seq == 1
    [answer] = answers_to("alice@example.org")
    assert answer.context["results"][0]["ok"] is False
    assert "not a legal move" in answer.context["results"][0]["message"]
    from notifications.render import build_message

    text = build_message(answer).body
    for card in hand(game, 0):
        assert f"    commit {card}\n" in text


def test_an_empty_reply_gets_help_and_the_moves(game, alice):
    outcome = receive(reply_mail(alice, game, 0, "\n\n> only a quote\n"))
    assert outcome.status == "answered"
    [answer] = answers_to("alice@example.org")
    assert answer.context["show_help"] is True


@pytest.mark.parametrize("word", ["help", "state", "moves", "HELP"])
def test_help_state_and_moves_change_nothing(game, alice, word):
    outcome = receive(reply_mail(alice, game, 0, word))
    assert outcome.status == "answered"
    assert outcome.results[0]["ok"] is True
    game.refresh_from_db()
    assert game.seq == 1


def test_resign_by_mail(game, alice):
    outcome = receive(reply_mail(alice, game, 0, "resign"))
    assert outcome.status == "applied"
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert Event.objects.get(game=game, seq=2).source == "email"


def test_a_move_for_a_game_that_has_moved_on_is_refused(game, alice, bob):
    to_alice = Notification.objects.get(user=alice, kind="your_turn")
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    check_submit_action(game, bob, text=f"commit {hand(game, 1)[0]}", expected_seq=2)
    # alice answers her first mail (commit phase) with a commit: the game is in the draw phase
    raw = reply_mail(alice, game, 0, f"commit {hand(game, 0)[0]}",
                     in_reply_to=to_alice.message_id)  # fmt: skip
    outcome = receive(raw)
    assert outcome.status == "answered"
    assert "moved on" in outcome.results[0]["message"]
    game.refresh_from_db()
    assert game.seq == 3


def test_a_reply_to_an_older_mail_applies_when_the_moves_are_unchanged(game, alice, bob):
    to_bob = Notification.objects.get(user=bob, kind="your_turn")
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    raw = reply_mail(bob, game, 1, f"commit {hand(game, 1)[0]}", in_reply_to=to_bob.message_id)
    assert receive(raw).status == "applied"


def test_several_commands_run_in_order_and_stop_at_the_first_refusal(game, alice, bob):
    check_submit_action(game, bob, text=f"commit {hand(game, 1)[0]}", expected_seq=1)
    body = f"commit {hand(game, 0)[0]}\npass\ncommit 3\nstate"
    outcome = receive(reply_mail(alice, game, 0, body))
    assert [r["ok"] for r in outcome.results] == [True, True, False]
    game.refresh_from_db()
    assert game.seq == 4


def test_a_huge_mail_is_refused_before_it_is_read(game, alice, settings):
    body = "commit 1\n" + "A" * (settings.NOTIFICATIONS_INBOUND_MAX_BYTES + 10)
    outcome = receive(reply_mail(alice, game, 0, body))
    assert (outcome.status, outcome.reason) == ("rejected", "too_large")
    game.refresh_from_db()
    assert game.seq == 1
    assert answers_to("alice@example.org")[0].kind == "rejection"


def test_automatic_mail_is_ignored_without_an_answer(game, alice):
    raw = reply_mail(alice, game, 0, "commit 1", extra_headers="Auto-Submitted: auto-replied")
    assert receive(raw).reason == "automatic"
    assert answers_to("alice@example.org") == []


def test_rejections_are_rate_limited(game, alice, settings):
    settings.NOTIFICATIONS_REJECTIONS_PER_HOUR = 2
    for _ in range(5):
        receive(reply_mail(alice, game, 0, "commit 1", to="play+1-0-1-bad@play.correo.test"))
    assert len(answers_to("alice@example.org")) == 2
    assert InboundMessage.objects.filter(status="rejected").count() == 5


def test_error_replies_are_rate_limited(game, alice, settings):
    settings.NOTIFICATIONS_ERROR_REPLIES_PER_HOUR = 3
    for _ in range(6):
        receive(reply_mail(alice, game, 0, "nonsense"))
    assert len(answers_to("alice@example.org")) == 3


def test_a_mail_without_a_message_id_is_keyed_by_its_content(game, alice):
    raw = reply_mail(alice, game, 0, "state").replace(b"Message-ID:", b"X-Old-ID:")
    assert receive(raw).status == "answered"
    assert receive(raw).status == "duplicate"


def test_garbage_is_rejected_and_never_raises(game):
    rng = random.Random(5)
    samples = [b"", b"\x00" * 100, b"From: \r\n\r\n", b"From: <<<@@@>>>\r\nTo: ,,,\r\n\r\nx"]
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(2000))) for _ in range(30)]
    for raw in samples:
        assert receive(raw).status in ("rejected", "duplicate")
    game.refresh_from_db()
    assert game.seq == 1


def test_a_takeback_is_asked_and_approved_by_mail(game, alice, bob):
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    assert receive(reply_mail(alice, game, 0, "undo-request")).status == "applied"
    asked = Notification.objects.get(kind="takeback")
    assert (asked.user, asked.context["by"]) == (bob, "alice")
    from notifications.render import build_message

    assert "Reply with one line: approve, or refuse." in build_message(asked).body
    assert receive(reply_mail(bob, game, 1, "approve")).status == "applied"
    game.refresh_from_db()
    assert Event.objects.get(game=game, seq=game.seq).kind == "undo"
    assert hand(game, 0) == sorted(hand(game, 0)) and len(hand(game, 0)) == 2


CORPUS_TO = b"play+12-0-3-0123456789abcdef01234567@play.correo.test"


@pytest.mark.parametrize("name", ["gmail.eml", "outlook.eml", "apple_mail.eml", "mutt.eml",
                                  "html_only.eml", "thunderbird.eml"])  # fmt: skip
def test_corpus_replies_reach_the_service_with_their_first_command(game, alice, name):
    from tests.notifications.test_parse import CORPUS, EXPECTED

    raw = (CORPUS / name).read_bytes()
    raw = raw.replace(CORPUS_TO, reply_address(game.pk, 0, alice.pk).encode())
    outcome = receive(raw)
    assert outcome.status in ("applied", "answered")
    assert outcome.results[0]["command"] == EXPECTED[name][0]


def test_a_refusal_is_mailed_only_to_an_address_of_an_account(game, alice):
    # a stranger (perhaps a forged sender) hears nothing: no backscatter
    outcome = receive(reply_mail(alice, game, 0, "commit 1", sender="mallory@example.net"))
    assert (outcome.status, outcome.reason) == ("rejected", "wrong_sender")
    assert answers_to("mallory@example.net") == []
    assert InboundMessage.objects.get().reason == "wrong_sender"


def test_a_database_error_after_the_move_leaves_nothing_and_the_retry_applies_once(
    game, alice, monkeypatch
):
    from django.db import OperationalError

    real_answer = inbound._answer

    def connection_lost(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    raw = reply_mail(alice, game, 0, f"commit {hand(game, 0)[0]}", message_id="<retry@x>")
    monkeypatch.setattr(inbound, "_answer", connection_lost)
    outcome = receive(raw)
    assert (outcome.status, outcome.reason) == ("retry", "unavailable")
    assert outcome.retry and not outcome.permanent
    game.refresh_from_db()
    assert game.seq == 1  # the move went with the rest of the transaction
    assert InboundMessage.objects.count() == 0
    monkeypatch.setattr(inbound, "_answer", real_answer)
    assert receive(raw).status == "applied"
    assert receive(raw).status == "duplicate"
    assert Event.objects.filter(game=game, source="email").count() == 1
    assert len(answers_to("alice@example.org")) == 1


def test_a_mail_that_breaks_the_processing_is_recorded_refused_and_bounced(
    game, alice, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug that this mail triggers every time")

    monkeypatch.setattr(inbound, "execute", broken)
    raw = reply_mail(alice, game, 0, "commit 1", message_id="<breaks@x>")
    outcome = receive(raw)
    assert (outcome.status, outcome.reason) == ("rejected", "unprocessable")
    assert outcome.permanent  # never a "try again" that would fail again forever
    record = InboundMessage.objects.get()
    assert (record.message_id, record.status, record.reason) == (
        "<breaks@x>", "rejected", "unprocessable",
    )  # fmt: skip
    [bounce] = answers_to("alice@example.org")
    assert bounce.kind == "rejection"
    assert receive(raw).status == "duplicate"
    game.refresh_from_db()
    assert game.seq == 1


def test_a_mail_that_breaks_the_processing_from_a_stranger_is_not_bounced(game, monkeypatch):
    raw = b"From: mallory@example.net\r\nTo: play+1@play.correo.test\r\n\r\nhello"
    monkeypatch.setattr(inbound, "authenticate", lambda *a, **k: 1 / 0)
    assert receive(raw).reason == "unprocessable"
    assert Notification.objects.filter(kind="rejection").count() == 0
    assert InboundMessage.objects.get().reason == "unprocessable"
