"""Signed addresses: the reply address of a seat, and the unsubscribe token.

A reply address is `play+<game>-<seat>-<user>-<mac>@REPLY_DOMAIN`, where `mac`
is an HMAC-SHA256 (keyed by SECRET_KEY, see django.utils.crypto.salted_hmac)
over game, seat and user, cut to 24 lowercase hex digits (96 bits).  It is
lowercase on purpose: some mail systems fold the local part's case.  Changing
any number breaks the MAC, so an address cannot be forged or moved to another
game or seat.

An invitation's reply address, `invite+<invitation>-<user>-<mac>@REPLY_DOMAIN`,
is made the same way under a salt of its own, so that neither kind of
address can be turned into the other: a reply to it answers that invitation
(join or decline) for that account and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_SALT = "correo.notifications.reply-address"
INVITATION_SALT = "correo.notifications.invitation-address"
UNSUBSCRIBE_SALT = "correo.notifications.unsubscribe"
MAC_LENGTH = 24

_LOCAL = re.compile(rf"^play\+(\d{{1,12}})-(\d{{1,3}})-(\d{{1,12}})-([0-9a-f]{{{MAC_LENGTH}}})$")
_INVITATION = re.compile(rf"^invite\+(\d{{1,12}})-(\d{{1,12}})-([0-9a-f]{{{MAC_LENGTH}}})$")
PREFIXES = ("play+", "invite+")


@dataclass(frozen=True)
class ReplyToken:
    game_id: int
    seat: int
    user_id: int


def _mac(game_id: int, seat: int, user_id: int) -> str:
    value = f"{game_id}:{seat}:{user_id}"
    return salted_hmac(REPLY_SALT, value, algorithm="sha256").hexdigest()[:MAC_LENGTH]


def reply_address(game_id: int, seat: int, user_id: int) -> str:
    mac = _mac(game_id, seat, user_id)
    return f"play+{game_id}-{seat}-{user_id}-{mac}@{settings.REPLY_DOMAIN}"


def _ours(address: str) -> str:
    """The local part of an address at REPLY_DOMAIN, lowercase; "" for any other."""
    local, _, domain = address.strip().lower().rpartition("@")
    return local if domain == settings.REPLY_DOMAIN.lower() else ""


def is_reply_address(address: str) -> bool:
    """Looks like one of ours (play+ or invite+...@REPLY_DOMAIN), whether or
    not it verifies."""
    return _ours(address).startswith(PREFIXES)


def verify_reply_address(address: str) -> ReplyToken | None:
    """The token an address carries if its MAC verifies, else None."""
    match = _LOCAL.match(_ours(address))
    if not match:
        return None
    game_id, seat, user_id = (int(group) for group in match.groups()[:3])
    if not constant_time_compare(match.group(4), _mac(game_id, seat, user_id)):
        return None
    return ReplyToken(game_id, seat, user_id)


@dataclass(frozen=True)
class InvitationToken:
    invitation_id: int
    user_id: int


def _invitation_mac(invitation_id: int, user_id: int) -> str:
    value = f"{invitation_id}:{user_id}"
    return salted_hmac(INVITATION_SALT, value, algorithm="sha256").hexdigest()[:MAC_LENGTH]


def invitation_address(invitation_id: int, user_id: int) -> str:
    mac = _invitation_mac(invitation_id, user_id)
    return f"invite+{invitation_id}-{user_id}-{mac}@{settings.REPLY_DOMAIN}"


def verify_invitation_address(address: str) -> InvitationToken | None:
    """The invitation and account an address names if its MAC verifies, else None."""
    match = _INVITATION.match(_ours(address))
    if not match:
        return None
    invitation_id, user_id = int(match.group(1)), int(match.group(2))
    if not constant_time_compare(match.group(3), _invitation_mac(invitation_id, user_id)):
        return None
    return InvitationToken(invitation_id, user_id)


def unsubscribe_token(user_id: int) -> str:
    """Deterministic (no timestamp), so a mail renders the same every time."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user_id))


def unsubscribe_user_id(token: str) -> int | None:
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None
