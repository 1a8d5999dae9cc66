"""Talk by mail: a reply's `say` lines go to the table beside its moves, and
the turn mail tells the messages since the seat's last turn."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from games.models import Event
from games.services.talk import check_send_message
from notifications import inbound, parse, render
from notifications.models import Notification
from tests.notifications.conftest import new_duel, reply_mail
from tests.support.play import hand

pytestmark = pytest.mark.django_db


def test_the_parser_tells_say_lines_from_commands():
    text = "commit 3  # my best card\nsay good luck\nsay: well,\nthat was #1\n\n> quoted"
    assert parse.reply_lines(text) == [
        "commit 3", parse.Said("good luck"), parse.Said("well,\nthat was #1"),
    ]  # fmt: skip
    assert parse.command_lines(text) == ["commit 3"]
    assert parse.reply_lines("SAY:\n\nfirst\nsecond\n-- \nsig") == [parse.Said("first\nsecond")]
    assert parse.reply_lines("say:\n\n") == []


def test_a_reply_with_a_move_and_say_lines(alice, bob):
    game = new_duel(alice, bob)
    card = hand(game, 0)[0]
    body = (
        f"commit {card}\nsay: your turn, bob\nno hurry <b>really</b>\n\nOn Monday bob wrote:\n> x"
    )
    outcome = inbound.receive(reply_mail(alice, game, 0, body), door="test")
    assert outcome.status == "applied"
    move, said = Event.objects.filter(game=game, seq__gt=1).order_by("seq")
    assert move.kind == "action"
    assert (said.kind, said.source, said.actor) == ("message", "talk", alice)
    words = "your turn, bob\nno hurry <b>really</b>"
    assert said.payload == {"to": "table", "from": 0, "by": "alice", "text": words, "via": "email"}
    answer = Notification.objects.get(kind="reply", user=alice)
    assert [r["ok"] for r in answer.context["results"]] == [True, True]
    assert answer.context["results"][1]["command"].startswith("say: your turn, bob")


def test_a_say_line_is_refused_like_any_command_and_stops_what_follows(alice, bob):
    game = new_duel(alice, bob, press="none")
    outcome = inbound.receive(reply_mail(alice, game, 0, "say hello\nresign"), door="test")
    assert outcome.status == "answered"
    assert not Event.objects.filter(game=game, seq__gt=1).exists()
    results = Notification.objects.get(kind="reply").context["results"]
    assert [r["ok"] for r in results] == [False]


def test_the_turn_mail_tells_the_talk_since_my_last_turn_escaped(alice, bob):
    game = new_duel(alice, bob)
    check_send_message(game, bob, to="table", text="<i>good</i> luck & have fun", source="api")
    check_send_message(game, bob, to="me", text="alice bluffs", source="api")
    game.refresh_from_db()
    facts = render.game_facts(game, 0, game.seq, since=1, user_id=alice.pk)
    text = render_to_string("notifications/emails/_game.txt", {"game": facts})
    html = render_to_string("notifications/emails/_game.html", {"game": facts})
    assert "bob to the table: <i>good</i> luck & have fun" in text
    assert "&lt;i&gt;good&lt;/i&gt; luck &amp; have fun" in html and "<i>good" not in html
    assert "alice bluffs" not in text + html
    assert "a private message was sent" in text


def test_the_daily_digest_tells_the_messages_its_reader_may_read(alice, bob, carol):
    from notifications import delivery

    bob.notify_mode = "daily_digest"
    bob.save()
    game = new_duel(alice, bob, carol)
    check_send_message(game, alice, to="table", text="table words", source="api")
    check_send_message(game, alice, to=2, text="for carol only", source="api")
    check_send_message(game, bob, to="table", text="bob's own", source="api")
    held = Notification.objects.filter(user=bob, kind="talk")
    assert [row.status for row in held] == ["held"]  # only what bob may read, not his own
    [digest_id] = delivery.collect_digests()
    digest = Notification.objects.get(pk=digest_id)
    items = render.digest_items(digest)
    [item] = items
    assert item["events"].count("Messages") == 1
    lines = item["facts"]["since_lines"]
    assert "alice to the table: table words" in lines
    assert not any("for carol only" in line for line in lines)
