"""Invitations with consent: by username, by address (through sign-up), by
link; tokens forged, expired, revoked or reused seat nobody; blocks stay
private; the older POST /api/games/ seats only those who accepted."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from accounts.models import Block
from games.errors import Conflict, Forbidden, InvalidLink, InvalidRequest, NotFound
from games.models import Invitation, InviteLink, Table
from games.selectors import invite_tokens, tables
from games.services import invitations as inv
from games.services.tables import check_create_table, check_join_table
from notifications import render
from notifications.models import Notification
from tests.conftest import make_user


def table_of(host, **options) -> Table:
    return check_create_table(host, title="duel", seats={"min": 2, "max": 3}, **options)


def test_an_invitee_by_name_hears_of_it_and_accepts(alice, bob):
    table = table_of(alice, open=False)
    [invitation] = inv.check_invite(table.pk, alice, usernames=["bob"])
    assert [i["id"] for i in tables.invitations_for(bob)] == [invitation.pk]
    mail = Notification.objects.get(kind="invitation", user=bob)
    message = render.build_message(mail)
    assert "alice invites you to play" in message.subject
    assert f"/tables/{table.pk}/" in message.body
    seated = inv.check_accept_invitation(invitation.pk, bob)
    assert [s.user.username for s in seated.seats.all()] == ["alice", "bob"]
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED
    assert tables.invitations_for(bob) == []
    with pytest.raises(Conflict):
        inv.check_accept_invitation(invitation.pk, bob)


def test_an_invitee_may_decline_and_is_not_seated(alice, bob):
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, usernames=["bob"])
    inv.check_decline_invitation(invitation.pk, bob)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert table.seats.count() == 1
    with pytest.raises(Conflict):
        inv.check_accept_invitation(invitation.pk, bob)


def test_nobody_answers_another_persons_invitation(alice, bob, eve):
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, usernames=["bob"])
    with pytest.raises(NotFound):
        inv.check_accept_invitation(invitation.pk, eve)
    with pytest.raises(NotFound):
        inv.check_decline_invitation(invitation.pk, eve)


def test_only_the_host_invites_and_only_whom_they_may(alice, bob, carol):
    table = table_of(alice)
    check_join_table(table.pk, bob)
    with pytest.raises(Forbidden):
        inv.check_invite(table.pk, bob, usernames=["carol"])
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice, usernames=["carol", "nobody"])
    with pytest.raises(Conflict):
        inv.check_invite(table.pk, alice, usernames=["bob"])
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice)
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice, emails=["not an address"])
    assert not Invitation.objects.exists()


def test_an_invitation_is_not_sent_twice(alice, bob):
    table = table_of(alice)
    first = inv.check_invite(table.pk, alice, usernames=["bob"])
    again = inv.check_invite(table.pk, alice, usernames=["bob"])
    assert first == again
    assert Notification.objects.filter(kind="invitation").count() == 1


def test_a_table_has_few_invitations_waiting(alice):
    table = table_of(alice)
    names = [make_user(f"p{n}").username for n in range(inv.MAX_PENDING + 1)]
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice, usernames=names)
    inv.check_invite(table.pk, alice, usernames=names[: inv.MAX_PENDING])
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice, emails=["one.more@example.net"])


def test_bots_are_seated_at_the_hosts_word(alice):
    table = check_create_table(alice, title="havana", seats={"min": 2, "max": 3})
    inv.check_invite(table.pk, alice, usernames=["bot:greedy"])
    assert table.seats.filter(bot="greedy").count() == 1
    with pytest.raises(InvalidRequest):
        inv.check_invite(table.pk, alice, usernames=["bot:sneaky"])


def test_an_address_invitation_leads_through_sign_up_to_the_seat(alice, settings):
    settings.CORREO_BASE_URL = "https://correo.test"
    table = table_of(alice, open=False)
    [invitation] = inv.check_invite(table.pk, alice, emails=["Dora@Example.NET"])
    assert (invitation.user, invitation.email) == (None, "Dora@example.net")
    mail = Notification.objects.get(kind="invitation")
    assert (mail.user, mail.to_email) == (None, "Dora@example.net")
    message = render.build_message(mail)
    token = invite_tokens.invitation_token(invitation)
    assert f"https://correo.test/invitations/{token}/" in message.body
    assert "List-Unsubscribe" not in message.extra_headers
    assert "D…@example.net" in tables.detail(tables.table(table.pk), alice)["invited"]
    # She signs up with that address (unverified), then follows the link.
    dora = make_user("dora", email_verified=False)
    dora.email = "dora@example.net"
    dora.save()
    seated = inv.check_accept_by_token(token, dora)
    assert "dora" in [s.user.username for s in seated.seats.all() if s.user]
    dora.refresh_from_db()
    assert dora.email_verified  # the invitation came to that address
    with pytest.raises(InvalidLink, match="answered"):
        inv.check_accept_by_token(token, dora)  # reused


def test_an_address_of_an_account_invites_the_account(alice, bob):
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, emails=["BOB@example.org"])
    assert invitation.user == bob
    assert tables.invitations_for(bob)[0]["id"] == invitation.pk


def test_an_address_invitation_may_be_declined_without_an_account(alice):
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, emails=["dora@example.net"])
    inv.check_decline_by_token(invite_tokens.invitation_token(invitation))
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED


@pytest.mark.parametrize(
    "token",
    ["", "x" * 500, "1.abc", "1.abc:forged", "not-a-token:at-all", 7, None, ["1.a:b"]],
)
def test_a_forged_token_is_refused(alice, bob, token):
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, emails=["dora@example.net"])
    with pytest.raises(InvalidLink):
        inv.check_accept_by_token(token, bob)
    if token is not None:  # no token at all is the lobby's door
        with pytest.raises(InvalidLink):
            check_join_table(table.pk, bob, token=token)
    # A link's token is no invitation's, and the other way round.
    link_token = invite_tokens.link_token(tables.current_link(table))
    with pytest.raises(InvalidLink):
        inv.check_accept_by_token(link_token, bob)
    with pytest.raises(InvalidLink):
        check_join_table(table.pk, bob, token=invite_tokens.invitation_token(invitation))
    assert table.seats.count() == 1


def test_a_token_whose_nonce_does_not_match_is_refused(alice, bob):
    table = table_of(alice, open=False)
    link = tables.current_link(table)
    token = invite_tokens.link_token(link)
    link.nonce = invite_tokens.new_nonce()
    link.save()
    with pytest.raises(InvalidLink):
        check_join_table(table.pk, bob, token=token)


def test_a_single_use_link_seats_one_player(alice, bob, carol):
    table = check_create_table(alice, title="duel", seats=4, open=False)
    link = inv.check_make_link(table.pk, alice, single_use=True)
    token = invite_tokens.link_token(link)
    check_join_table(table.pk, bob, token=token)
    with pytest.raises(InvalidLink, match="used"):
        check_join_table(table.pk, carol, token=token)


def test_an_expired_link_seats_nobody(alice, bob):
    table = table_of(alice, open=False)
    link = inv.check_make_link(table.pk, alice, expires_in=3600)
    InviteLink.objects.filter(pk=link.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    with pytest.raises(InvalidLink, match="expired"):
        check_join_table(table.pk, bob, token=invite_tokens.link_token(link))


def test_a_revoked_link_seats_nobody(alice, bob, carol):
    table = check_create_table(alice, title="duel", seats=4, open=False)
    first = tables.current_link(table)
    second = inv.check_make_link(table.pk, alice)
    assert inv.check_revoke_links(table.pk, alice, token=invite_tokens.link_token(second)) == 1
    with pytest.raises(InvalidLink, match="withdrawn"):
        check_join_table(table.pk, bob, token=invite_tokens.link_token(second))
    check_join_table(table.pk, bob, token=invite_tokens.link_token(first))
    assert inv.check_revoke_links(table.pk, alice) == 1
    with pytest.raises(InvalidLink, match="withdrawn"):
        check_join_table(table.pk, carol, token=invite_tokens.link_token(first))
    assert tables.current_link(table) is None


def test_a_link_to_another_table_is_refused(alice, bob):
    mine = table_of(alice, open=False)
    other = table_of(alice, open=False)
    with pytest.raises(InvalidLink):
        check_join_table(mine.pk, bob, token=invite_tokens.link_token(tables.current_link(other)))


def test_only_the_host_makes_and_revokes_links(alice, bob):
    table = table_of(alice)
    with pytest.raises(Forbidden):
        inv.check_make_link(table.pk, bob)
    with pytest.raises(Forbidden):
        inv.check_revoke_links(table.pk, bob)
    with pytest.raises(InvalidRequest):
        inv.check_make_link(table.pk, alice, expires_in=5)


def test_an_invitation_to_someone_who_blocked_the_host_stays_hidden(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    table = table_of(alice)
    [invitation] = inv.check_invite(table.pk, alice, usernames=["bob"])
    assert invitation.hidden
    # alice sees it pending like any other; bob never hears of it.
    assert tables.detail(tables.table(table.pk), alice)["invited"] == ["bob"]
    assert tables.invitations_for(bob) == []
    assert not Notification.objects.filter(kind="invitation").exists()
    with pytest.raises(NotFound):
        inv.check_accept_invitation(invitation.pk, bob)


def test_a_host_who_blocked_someone_is_told_so(alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)
    table = table_of(alice)
    with pytest.raises(Conflict, match="you blocked bob"):
        inv.check_invite(table.pk, alice, usernames=["bob"])


def test_invitations_lapse_when_the_table_starts(alice, bob, carol):
    table = check_create_table(alice, title="duel", seats=2)
    [invitation] = inv.check_invite(table.pk, alice, usernames=["carol"])
    check_join_table(table.pk, bob)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.WITHDRAWN
    with pytest.raises(Conflict):
        inv.check_accept_invitation(invitation.pk, carol)
