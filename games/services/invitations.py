"""Invitations to a table, each answered by the person invited, and the
links a host hands out.

- By username: the invitee sees it on the dashboard and in `GET
  /api/invitations/`, hears of it by mail, and accepts (takes the seat) or
  declines.
- By address, for someone without an account: the mail's link carries a
  signed token (games.selectors.invite_tokens); following it leads through
  sign-up to the seat.  An address that belongs to an account invites that
  account (the host sees only the masked address either way).
- By link: whoever holds a link's token may take a seat; the host makes
  links (single-use or not, expiring or not) and revokes them.
- `bot:<kind>` among the usernames seats a bot at once: bots need no consent.

Blocks are private.  An invitation to someone who blocked the inviter is
recorded as `hidden`: the invitee never sees or hears of it, and the
inviter sees it pending like any other until the table starts or expires.
An inviter who blocked the invitee is told so (it is their own block).

Consent also governs the older door: `POST /api/games/` seats only players
who accepted an invitation from its creator (`common.require_consent`).
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import bots
from games import hooks
from games.errors import Conflict, Forbidden, InvalidLink, InvalidRequest, NotFound
from games.models import Invitation, InviteLink, Table
from games.selectors import blocks, invite_tokens, tables
from games.services.common import (
    locked_table,
    require_host,
    require_waiting,
    seated_users,
    table_facts,
)
from games.services.tables import do_join_table, do_seat_bot

# Pending invitations a table may have at once: enough for any title's
# seats several times over, too few to make a table a way to mail strangers.
MAX_PENDING = 20
# The longest a link may be made to last (it dies with its table anyway).
MAX_LINK_SECONDS = 90 * 86400


def check_invite(
    table_id: int, user, *, usernames: list[str] | None = None, emails: list[str] | None = None
) -> list[Invitation]:
    """The host invites accounts by name and people by address (and seats
    bots named `bot:<kind>`).  Nothing is sent if any entry is refused."""
    usernames, emails = list(usernames or []), list(emails or [])
    if not usernames and not emails:
        raise InvalidRequest(gettext_noop("name at least one username or address"))
    addresses = [_address(email) for email in emails]
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        require_waiting(table)
        wanted_bots = [kind for name in usernames if (kind := bots.kind_named(name))]
        people = _invitees(table, user, [n for n in usernames if not bots.names_a_bot(n)])
        if any(bots.names_a_bot(n) and not bots.kind_named(n) for n in usernames):
            raise InvalidRequest(gettext_noop("no such bot (bot:random or bot:greedy)"))
        pending = table.invitations.filter(status=Invitation.Status.PENDING).count()
        if pending + len(people) + len(addresses) > MAX_PENDING:
            raise InvalidRequest(
                gettext_noop("a table may have at most %(most)s invitations waiting"),
                most=MAX_PENDING,
            )
        made = [do_invite(table, user, invitee=person) for person in people]
        made += [do_invite(table, user, email=address) for address in addresses]
        for kind in wanted_bots:
            if table.status == Table.Status.WAITING:
                do_seat_bot(table, kind)
        return [invitation for invitation in made if invitation is not None]


def _address(email: object) -> str:
    if not isinstance(email, str) or len(email) > 254:
        raise InvalidRequest(gettext_noop("%(email)r is not an email address"), email=email)
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidRequest(
            gettext_noop("%(email)r is not an email address"), email=email
        ) from None
    local, _, domain = email.strip().rpartition("@")
    return f"{local}@{domain.lower()}"


def _invitees(table: Table, inviter, names: list[str]) -> list:
    """The accounts named, each once, none seated, none the inviter blocked."""
    from accounts.models import User

    found = {
        u.username: u
        for u in User.objects.filter(username__in=names, is_active=True, suspended=False, bot="")
    }
    missing = [name for name in names if name not in found]
    if missing:
        raise InvalidRequest(gettext_noop("no such player: %(names)s"), names=", ".join(missing))
    seated = {person.pk for person in seated_users(table)}
    people = []
    for name in dict.fromkeys(names):
        person = found[name]
        if person.pk in seated:
            raise Conflict(gettext_noop("%(name)s already has a seat at this table"), name=name)
        if blocks.blocks(inviter, person):
            raise Conflict(gettext_noop("you blocked %(name)s: unblock them first"), name=name)
        people.append(person)
    return people


def do_invite(table: Table, inviter, *, invitee=None, email: str = "") -> Invitation | None:
    """Invite an account or an address to the locked `table` and tell them
    (an account already invited and not yet answering is not asked twice)."""
    if invitee is None:
        invitee = _account_of(email)
    if invitee is not None:
        existing = table.invitations.filter(user=invitee, status=Invitation.Status.PENDING)
        if existing.exists():
            return existing.first()
        if invitee.pk in {person.pk for person in seated_users(table)}:
            return None
    invitation = Invitation.objects.create(
        table=table, invited_by=inviter, user=invitee, email=email,
        nonce=invite_tokens.new_nonce() if email else "",
        hidden=invitee is not None and blocks.blocks(invitee, inviter),
    )  # fmt: skip
    if not invitation.hidden:
        _tell_invited(table, invitation)
    return invitation


def _account_of(email: str):
    """The one active account with this address, if there is exactly one."""
    from accounts.models import User

    if not email:
        return None
    found = list(User.objects.filter(email__iexact=email, is_active=True, bot="")[:2])
    return found[0] if len(found) == 1 else None


def _tell_invited(table: Table, invitation: Invitation) -> None:
    hooks.table_noticed(
        hooks.Notice(
            kind="invitation", table=table, user=invitation.user,
            email=invitation.email if invitation.user is None else "",
            key=f"invitation:{invitation.pk}",
            context={
                **table_facts(table), "invitation": invitation.pk,
                "min_seats": table.min_seats, "max_seats": table.max_seats,
                "players": [person.username for person in seated_users(table)],
            },
        )
    )  # fmt: skip


def _mine(invitation_id: int, user) -> Invitation:
    """The invitee's own invitation (any other is not found), still pending."""
    invitation = (
        Invitation.objects.filter(pk=invitation_id, user=user, hidden=False)
        .select_related("table")
        .first()
    )
    if invitation is None:
        raise NotFound(gettext_noop("no such invitation"))
    return invitation


def _pending(invitation: Invitation) -> None:
    if invitation.status != Invitation.Status.PENDING:
        raise Conflict(
            gettext_noop("this invitation is %(status)s already"), status=invitation.status
        )


def check_accept_invitation(invitation_id: int, user, *, source: str = "api") -> Table:
    """The invitee takes the seat (the seat that fills the table starts it)."""
    with transaction.atomic():
        invitation = _mine(invitation_id, user)
        table = locked_table(invitation.table_id)
        invitation.refresh_from_db()
        _pending(invitation)
        return do_accept_invitation(table, invitation, user, source=source)


def do_accept_invitation(table: Table, invitation: Invitation, user, *, source: str = "api"):
    """Seat `user` at the locked `table` on `invitation`; blocks between
    them and a seated player keep them out as at the lobby's door."""
    if blocks.any_between(user, seated_users(table)):
        raise NotFound(gettext_noop("no such table"))
    return do_join_table(table, user, invitation=invitation, source=source)


def check_decline_invitation(invitation_id: int, user) -> Invitation:
    with transaction.atomic():
        invitation = _mine(invitation_id, user)
        locked_table(invitation.table_id)
        invitation.refresh_from_db()
        _pending(invitation)
        return do_decline_invitation(invitation)


def do_decline_invitation(invitation: Invitation) -> Invitation:
    invitation.status, invitation.answered_at = Invitation.Status.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    return invitation


def check_accept_by_token(token: object, user, *, source: str = "web") -> Table:
    """Whoever followed an address invitation's link, logged in (a new
    account, or theirs), takes the seat.  The link came to that address, so
    an account whose address it is has that address verified by it."""
    with transaction.atomic():
        invitation = tables.addressed(token)
        table = locked_table(invitation.table_id)
        invitation.refresh_from_db()
        if invitation.status != Invitation.Status.PENDING:
            raise InvalidLink(gettext_noop("this invitation was answered or has lapsed"))
        if invitation.user_id is not None and invitation.user_id != user.pk:
            raise Forbidden(gettext_noop("this invitation is for another account"))
        invitation.user = user
        invitation.save(update_fields=["user"])
        if user.email and user.email.lower() == invitation.email.lower():
            from accounts import verification

            verification.mark_verified(user)
        return do_accept_invitation(table, invitation, user, source=source)


def check_decline_by_token(token: object) -> Invitation:
    """Anyone holding an address invitation's link may decline it (no account needed)."""
    with transaction.atomic():
        invitation = tables.addressed(token)
        locked_table(invitation.table_id)
        invitation.refresh_from_db()
        _pending(invitation)
        return do_decline_invitation(invitation)


def check_make_link(
    table_id: int, user, *, single_use: bool = False, expires_in: int | None = None
) -> InviteLink:
    """The host makes another link to hand out."""
    if not isinstance(single_use, bool):
        raise InvalidRequest(gettext_noop("single_use must be true or false"))
    if expires_in is not None and (
        type(expires_in) is not int or not 60 <= expires_in <= MAX_LINK_SECONDS
    ):
        raise InvalidRequest(
            gettext_noop("expires_in must be from 60 seconds to 90 days, in seconds")
        )
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        require_waiting(table)
        return do_make_link(table, single_use=single_use, expires_in=expires_in)


def do_make_link(table: Table, *, single_use: bool = False, expires_in: int | None = None):
    expires = timezone.now() + datetime.timedelta(seconds=expires_in) if expires_in else None
    return InviteLink.objects.create(
        table=table, nonce=invite_tokens.new_nonce(), single_use=single_use, expires_at=expires
    )


def check_revoke_links(table_id: int, user, *, token: str | None = None) -> int:
    """The host revokes one link (by its token) or every live link of the table."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        if token is not None:
            link = invite_tokens.link_named(token)
            if link.table_id != table.pk:
                raise InvalidLink(gettext_noop("this invitation link is not valid"))
            return do_revoke_links(table, [link.pk])
        return do_revoke_links(table, None)


def do_revoke_links(table: Table, ids: list[int] | None) -> int:
    links = table.links.filter(revoked_at=None)
    if ids is not None:
        links = links.filter(pk__in=ids)
    return links.update(revoked_at=timezone.now())
