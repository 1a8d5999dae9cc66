"""An invitation answered by replying to its mail: `join` or `decline`, through
the same doors and checks as a move by mail, and nothing for anyone else."""

from __future__ import annotations

import smtplib

import pytest
from django.core import mail

from games.models import Invitation, Table, TableSeat
from games.services.invitations import check_invite
from games.services.suspension import check_suspend
from games.services.tables import check_create_table
from notifications import inbound, render
from notifications.addresses import invitation_address, reply_address
from notifications.models import InboundMessage, Notification
from tests.notifications.conftest import reply_mail


def invited(host, guest, *, seats=3) -> Invitation:
    table = check_create_table(host, title="duel", seats=seats)
    [invitation] = check_invite(table.pk, host, usernames=[guest.username])
    return invitation


def answer(user, invitation: Invitation, body: str, **kwargs) -> inbound.Outcome:
    to = kwargs.pop("to", None) or invitation_address(invitation.pk, user.pk)
    return inbound.receive(reply_mail(user, None, 0, body, to=to, **kwargs), door="test")


def answers_to(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="reply").order_by("pk"))


def picture(invitation: Invitation) -> dict:
    """What the table and the invitation hold, to compare before and after."""
    invitation.refresh_from_db()
    seats = TableSeat.objects.filter(table_id=invitation.table_id)
    return {"status": invitation.status, "seated": sorted(seats.values_list("user", flat=True))}


@pytest.mark.django_db
def test_an_accounts_invitation_mail_is_answered_by_reply(alice, bob):
    invitation = invited(alice, bob)
    message = render.build_message(Notification.objects.get(kind="invitation", user=bob))
    assert message.reply_to == [invitation_address(invitation.pk, bob.pk)]
    assert "Or reply to this mail with one word: join, or decline." in message.body
    html = message.alternatives[0].content
    assert "mailto:invite%2B" in html or "mailto:invite+" in html
    assert "body=join" in html and "body=decline" in html


@pytest.mark.django_db
def test_an_invitation_to_an_address_has_no_reply_address(alice):
    table = check_create_table(alice, title="duel", seats=3)
    check_invite(table.pk, alice, emails=["dora@example.net"])
    message = render.build_message(Notification.objects.get(kind="invitation"))
    assert not message.reply_to and "reply to this mail" not in message.body


@pytest.mark.django_db
def test_join_by_reply_takes_the_seat_and_says_so(alice, bob):
    invitation = invited(alice, bob)
    outcome = answer(bob, invitation, "join\n\n> Alice invites you")
    assert outcome.status == "applied"
    assert picture(invitation) == {"status": "accepted", "seated": sorted([alice.pk, bob.pk])}
    [row] = answers_to(bob)
    reply = render.build_message(row)
    assert "you took your seat at the table (2 of 3 seats taken)" in reply.body
    # The answer may be answered in turn, at the same address.
    assert reply.reply_to == [invitation_address(invitation.pk, bob.pk)]
    record = InboundMessage.objects.get()
    assert (record.status, record.user, record.game) == ("applied", bob, None)


@pytest.mark.django_db
def test_the_reply_that_fills_the_table_starts_the_game(alice, bob):
    invitation = invited(alice, bob, seats=2)
    assert answer(bob, invitation, "Join").status == "applied"
    table = Table.objects.get(pk=invitation.table_id)
    assert table.status == "started" and table.game_id
    [row] = answers_to(bob)
    assert (
        f"the table is full and game {table.game_id} has started" in render.build_message(row).body
    )


@pytest.mark.django_db
def test_decline_by_reply_declines(alice, bob):
    invitation = invited(alice, bob)
    assert answer(bob, invitation, "decline").status == "applied"
    assert picture(invitation) == {"status": "declined", "seated": [alice.pk]}
    assert "you declined the invitation" in render.build_message(answers_to(bob)[0]).body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("word", "status"),
    [("accept", "accepted"), ("YES", "accepted"), ("Yes", "accepted"), ("no", "declined"),
     ("NO", "declined")],
)  # fmt: skip
def test_the_words_people_reply_with_are_read_as_join_or_decline(alice, bob, word, status):
    invitation = invited(alice, bob)
    assert answer(bob, invitation, f"{word}\n\n> Alice invites you").status == "applied"
    assert picture(invitation)["status"] == status


@pytest.mark.django_db
def test_a_second_answer_is_refused_and_changes_nothing(alice, bob):
    invitation = invited(alice, bob)
    answer(bob, invitation, "join")
    before = picture(invitation)
    outcome = answer(bob, invitation, "decline")
    assert outcome.status == "answered"
    assert picture(invitation) == before
    assert "this invitation is accepted already" in render.build_message(answers_to(bob)[1]).body


@pytest.mark.django_db
def test_any_other_word_is_answered_with_the_two_that_work(alice, bob):
    invitation = invited(alice, bob)
    before = picture(invitation)
    assert answer(bob, invitation, "maybe next week").status == "answered"
    assert picture(invitation) == before
    body = render.build_message(answers_to(bob)[0]).body
    assert "an invitation is answered with one word: join or decline" in body
    assert "join       take your seat at the table" in body
    assert "undo-request" not in body  # the game's commands are not these


@pytest.mark.django_db
def test_an_address_changed_or_of_another_kind_is_refused_and_changes_nothing(alice, bob, carol):
    invitation = invited(alice, bob)
    good = invitation_address(invitation.pk, bob.pk)
    before = picture(invitation)
    forged = [
        good.replace(f"+{invitation.pk}-", f"+{invitation.pk + 1}-"),  # another invitation
        good.replace(f"-{bob.pk}-", f"-{carol.pk}-"),  # another account
        good.replace("invite+", "play+"),  # the same numbers as a game's address
        "invite+" + reply_address(1, 0, bob.pk).split("+", 1)[1],  # a game's MAC
    ]
    for address in forged:
        outcome = answer(bob, invitation, "join", to=address)
        assert (outcome.status, outcome.reason) == ("rejected", "bad_signature"), address
    assert picture(invitation) == before
    assert not answers_to(bob)


@pytest.mark.django_db
def test_only_the_invited_account_from_its_own_address_may_answer(alice, bob, carol, mo):
    invitation = invited(alice, bob)
    before = picture(invitation)
    # Someone else writing to bob's address, with any From they like.
    outcome = answer(bob, invitation, "join", sender="carol@example.org")
    assert (outcome.status, outcome.reason) == ("rejected", "wrong_sender")
    # A valid address of carol's naming bob's invitation (not one Correo
    # would make, but the MAC is not the only check): not hers to answer.
    outcome = answer(carol, invitation, "join", to=invitation_address(invitation.pk, carol.pk))
    assert outcome.status == "answered" and not outcome.results[0]["ok"]
    assert outcome.results[0]["message"] == "no such invitation"
    check_suspend(bob, mo, reason="abuse")
    outcome = answer(bob, invitation, "join")
    assert (outcome.status, outcome.reason) == ("rejected", "suspended")
    assert picture(invitation) == before


@pytest.mark.django_db
def test_the_same_mail_twice_answers_once(alice, bob):
    invitation = invited(alice, bob)
    assert answer(bob, invitation, "join", message_id="<once@client.example>").status == "applied"
    again = answer(bob, invitation, "join", message_id="<once@client.example>")
    assert again.status == "duplicate" and len(answers_to(bob)) == 1


@pytest.mark.django_db
def test_the_invitation_and_its_answer_are_in_the_invitees_language(alice, bob):
    bob.language = "de"
    bob.save()
    invitation = invited(alice, bob)
    message = render.build_message(Notification.objects.get(kind="invitation", user=bob))
    assert "Oder antworte auf diese Mail mit einem Wort: join oder decline." in message.body
    answer(bob, invitation, "vielleicht")
    body = render.build_message(answers_to(bob)[0]).body
    assert "Eine Einladung wird mit einem Wort beantwortet: join oder decline" in body


def test_a_join_reaches_the_table_through_the_smtp_listener(smtpd, alice, bob):
    invitation = invited(alice, bob)
    raw = reply_mail(bob, None, 0, "join", to=invitation_address(invitation.pk, bob.pk))
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as client:
        refused = client.sendmail("bob@example.org", ["invite+x@play.correo.test"], raw)
    assert refused == {}
    assert picture(invitation)["status"] == "accepted"
    # The answer went out once the seat was taken (eager Celery, locmem here).
    assert any("done" in m.subject for m in mail.outbox if m.to == ["bob@example.org"])
