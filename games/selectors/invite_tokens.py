"""The signed tokens of table invitations: a link's (anyone who holds it
may take a seat) and an address invitation's (the mail's link).

A token is `<id>.<nonce>` signed with Django's signer under SECRET_KEY and a
salt of its own kind: it names its row, carries the row's random nonce (so a
token made for a row that was deleted and whose id came round again fits no
more), and cannot be forged or moved to another row without the key.  What
makes a valid token refused (expired, revoked, used, the table gone on) is
the row's state, read here and decided by the service.
"""

from __future__ import annotations

import secrets

from django.core import signing
from django.utils.translation import gettext_noop

from games.errors import InvalidLink
from games.models import Invitation, InviteLink

LINK_SALT = "correo.tables.link"
INVITATION_SALT = "correo.tables.invitation"
# Longer than anything the signer makes, shorter than a header could carry.
MAX_TOKEN_LENGTH = 200


def new_nonce() -> str:
    return secrets.token_hex(16)


def link_token(link: InviteLink) -> str:
    return signing.Signer(salt=LINK_SALT).sign(f"{link.pk}.{link.nonce}")


def invitation_token(invitation: Invitation) -> str:
    return signing.Signer(salt=INVITATION_SALT).sign(f"{invitation.pk}.{invitation.nonce}")


def _unsigned(token: object, salt: str) -> tuple[int, str]:
    """The id and nonce a token signs, or InvalidLink for anything that is
    not a token this server made."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        raise InvalidLink(gettext_noop("this invitation link is not valid"))
    try:
        value = signing.Signer(salt=salt).unsign(token)
    except signing.BadSignature:
        raise InvalidLink(gettext_noop("this invitation link is not valid")) from None
    pk, _, nonce = value.partition(".")
    if not pk.isdecimal() or not nonce or len(pk) > 19:
        raise InvalidLink(gettext_noop("this invitation link is not valid"))
    return int(pk), nonce


def link_named(token: object) -> InviteLink:
    """The link a token names (whatever its state), or InvalidLink."""
    pk, nonce = _unsigned(token, LINK_SALT)
    link = InviteLink.objects.filter(pk=pk, nonce=nonce).select_related("table").first()
    if link is None:
        raise InvalidLink(gettext_noop("this invitation link is not valid"))
    return link


def invitation_named(token: object) -> Invitation:
    """The address invitation a token names (whatever its state), or InvalidLink."""
    pk, nonce = _unsigned(token, INVITATION_SALT)
    invitation = (
        Invitation.objects.filter(pk=pk, nonce=nonce).exclude(nonce="").select_related("table")
    ).first()
    if invitation is None:
        raise InvalidLink(gettext_noop("this invitation link is not valid"))
    return invitation
