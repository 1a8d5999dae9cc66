"""What a turn mail says: what happened since my last turn (with names,
never a hidden part), the moves as one-tap mailto links that come back as a
working reply, and the game page link."""

from __future__ import annotations

import re
import smtplib
from email.message import EmailMessage
from html import unescape
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from games.models import Event
from games.services.moves import do_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications import render
from notifications.models import Notification
from tests.conftest import make_user
from tests.notifications.conftest import new_duel


def turn_mail(user) -> Notification:
    return Notification.objects.filter(user=user, kind="your_turn").order_by("-id").first()


def play(game, seat: int, action) -> None:
    game.refresh_from_db()
    do_submit_action(
        game, seat, actor=None, action=action, text=None, expected_seq=game.seq,
        source="api", kind="action",
    )  # fmt: skip


def hand(game, seat: int) -> list[int]:
    game.refresh_from_db()
    return store.load(game, engine_for(game)).state["hands"][seat]


def since_block(body: str) -> list[str]:
    if "Since your last turn:\n" not in body:
        return []
    block = body.split("Since your last turn:\n", 1)[1].split("\n\n", 1)[0]
    return [line.removeprefix("  - ") for line in block.splitlines()]


def test_since_my_last_turn_lists_the_others_moves_by_name_and_face_down(db):
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    game = new_duel(*players)
    cards = {seat: hand(game, seat)[0] for seat in range(4)}
    for seat in range(4):  # a face-down commit each; then alice draws or passes first
        play(game, seat, {"type": "commit", "card": cards[seat]})
    mail = turn_mail(players[0])
    lines = since_block(render.build_message(mail).body)
    assert lines == [f"{name}: commit (face down)" for name in ("bob", "carol", "dave")]
    # Their face-down cards are nowhere in alice's account of it.
    for seat in (1, 2, 3):
        assert f"commit {cards[seat]}" not in "\n".join(lines)


def test_the_first_turn_mail_has_nothing_since(alice, bob):
    new_duel(alice, bob)
    assert since_block(render.build_message(turn_mail(alice)).body) == []


def test_a_digest_tells_each_game_since_the_last_turn_with_one_tap_moves(db):
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    players[0].notify_mode = "daily_digest"
    players[0].save()
    game = new_duel(*players)
    cards = {seat: hand(game, seat)[0] for seat in range(4)}
    play(game, 0, {"type": "commit", "card": cards[0]})
    for seat in (1, 2, 3):
        play(game, seat, {"type": "commit", "card": cards[seat]})
    from notifications import tasks

    assert tasks.send_digests() == 1
    digest = Notification.objects.get(user=players[0], kind="digest")
    message = render.build_message(digest)
    lines = since_block(message.body)
    assert lines == [f"{name}: commit (face down)" for name in ("bob", "carol", "dave")]
    assert f"Game page: https://correo.test/games/{game.pk}/" in message.body
    reply = reply_through_the_link(message, "alice@example.org")
    assert reply["Subject"] == f"Re: {game.title} #{game.pk}"
    assert reply["To"] == render.reply_address(game.pk, 0, players[0].pk)


def test_a_long_name_wraps_the_since_lines_instead_of_running_sideways():
    lines = render.bulleted(["a" * 40 + " commits a card face down after a long think", "x"])
    assert lines == [
        "  - " + "a" * 40 + " commits a card face down",
        "    after a long think",
        "  - x",
    ]
    assert all(len(line) <= 72 for line in lines)


def test_a_mail_that_was_never_sent_does_not_shorten_since_my_last_turn(db):
    players = [make_user(name) for name in ("alice", "bob", "carol")]
    game = new_duel(*players)
    play(game, 0, {"type": "commit", "card": hand(game, 0)[0]})
    play(game, 1, {"type": "commit", "card": hand(game, 1)[0]})
    told = Notification.objects.create(
        key="t:told", kind="your_turn", user=players[0], to_email="alice@example.org",
        game=game, seq=3, seat=0, status=Notification.Status.SKIPPED,
    )  # fmt: skip
    play(game, 2, {"type": "commit", "card": hand(game, 2)[0]})
    later = turn_mail(players[0])
    assert render.since_for(later) == 2  # alice's own move, not the skipped mail's seq 3
    told.status = Notification.Status.SENT
    told.save()
    assert render.since_for(later) == 3


def reply_through_the_link(message, sender: str) -> EmailMessage:
    """What a phone's mail app sends when its user taps a move and sends."""
    html = message.alternatives[0][0]
    href = unescape(re.search(r'href="(mailto:[^"?]+\?[^"]+)"', html).group(1))
    parts = urlsplit(href)
    query = parse_qs(parts.query)
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = unquote(parts.path)
    mail["Subject"] = query["subject"][0]
    mail.set_content(query["body"][0])
    return mail


def test_a_tapped_mailto_move_comes_back_through_the_smtp_door_and_is_played(smtpd, alice, bob):
    game = new_duel(alice, bob)
    message = render.build_message(turn_mail(alice))
    reply = reply_through_the_link(message, "alice@example.org")
    assert reply["To"] == message.reply_to[0]
    assert reply["Subject"] == f"Re: {message.subject}"
    first_move = re.search(r"\n    (commit \d+)\n", message.body).group(1)
    assert reply.get_content().strip() == first_move
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as client:
        client.send_message(reply, to_addrs=[reply["To"]])
    event = Event.objects.get(game=game, seq=2)
    assert event.source == "email" and event.seat == 0
    assert engine_for(game).text(event.payload["action"]) == first_move


def test_a_move_line_copied_with_its_gloss_is_still_the_move():
    from notifications.parse import command_lines

    assert command_lines("conserve B9   # Villa: 3 VP\n# just a note\nstate") == [
        "conserve B9",
        "state",
    ]


def test_the_mail_links_the_game_page_and_the_settings_page(alice, bob):
    game = new_duel(alice, bob)
    body = render.build_message(turn_mail(alice)).body
    assert f"Game page: https://correo.test/games/{game.pk}/" in body
    assert "Mail settings: https://correo.test/settings/" in body


@pytest.mark.mail_pictures
def test_a_turn_mail_carries_the_board_as_an_inline_picture(db):
    from email import message_from_bytes
    from email.policy import default

    from games.services.creation import do_create_game

    players = [make_user(name) for name in ("alice", "bob")]
    do_create_game(title="pointcity", players=players, seed=3)
    mail = message_from_bytes(
        render.build_message(Notification.objects.get(kind="your_turn")).message().as_bytes(),
        policy=default,
    )
    assert mail.get_content_type() == "multipart/related"
    picture = next(part for part in mail.walk() if part.get_content_type() == "image/png")
    assert picture["Content-ID"] == "<board@correo>"
    data = picture.get_content()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(data[16:20], "big")
    assert width == 900
    html = mail.get_body(("html",)).get_content()
    assert 'src="cid:board@correo"' in html
    # the text part stays whole without it
    assert "The game as you see it:" in mail.get_body(("plain",)).get_content()


@pytest.mark.mail_pictures
def test_no_picture_without_a_drawn_board_or_when_turned_off(db, settings):
    from games.services.creation import do_create_game

    alice, bob = make_user("alice"), make_user("bob")
    new_duel(alice, bob)  # the test engine draws no board
    assert render.build_message(turn_mail(alice)).attachments == []
    settings.NOTIFICATIONS_BOARD_IMAGE = False
    carol, dave = make_user("carol"), make_user("dave")
    game = do_create_game(title="pointcity", players=[carol, dave], seed=3)
    turn = Notification.objects.get(kind="your_turn", game=game)
    assert render.build_message(turn).attachments == []


@pytest.mark.parametrize("command", ["state", "moves", "help", "fly to the moon"])
def test_replies_carry_the_same_game_part_as_a_turn_mail(
    db, django_capture_on_commit_callbacks, command
):
    from django.core import mail as outbox

    from games.services.creation import do_create_game
    from notifications.inbound import receive
    from tests.notifications.conftest import reply_mail

    alice, bob = make_user("alice"), make_user("bob")
    game = do_create_game(title="havana", players=[alice, bob], seed=3)
    outbox.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        receive(reply_mail(alice, game, 0, command), door="test")
    answer = next(m for m in outbox.outbox if m.to == ["alice@example.org"])
    assert "The game as you see it:" in answer.body
    # Havana's own words (cards by their printed names), not the view's keys.
    assert "0 Siesta" in answer.body and '"hand"' not in answer.body
    assert "Your legal moves" in answer.body
