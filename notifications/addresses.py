"""Signed addresses: the reply address of a seat, and the unsubscribe token.

A reply address is `play+<game>-<seat>-<user>-<mac>@REPLY_DOMAIN`, where `mac`
is an HMAC-SHA256 (keyed by SECRET_KEY, see django.utils.crypto.salted_hmac)
over game, seat and user, cut to 24 lowercase hex digits (96 bits).  It is
lowercase on purpose: some mail systems fold the local part's case.  Changing
any number breaks the MAC, so an address cannot be forged or moved to another
game or seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_SALT = "correo.notifications.reply-address"
UNSUBSCRIBE_SALT = "correo.notifications.unsubscribe"
MAC_LENGTH = 24

_LOCAL = re.compile(rf"^play\+(\d{{1,12}})-(\d{{1,3}})-(\d{{1,12}})-([0-9a-f]{{{MAC_LENGTH}}})$")


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


def is_reply_address(address: str) -> bool:
    """Looks like one of ours (play+...@REPLY_DOMAIN), whether or not it verifies."""
    local, _, domain = address.strip().lower().rpartition("@")
    return domain == settings.REPLY_DOMAIN.lower() and local.startswith("play+")


def verify_reply_address(address: str) -> ReplyToken | None:
    """The token an address carries if its MAC verifies, else None."""
    local, _, domain = address.strip().lower().rpartition("@")
    if domain != settings.REPLY_DOMAIN.lower():
        return None
    match = _LOCAL.match(local)
    if not match:
        return None
    game_id, seat, user_id = (int(group) for group in match.groups()[:3])
    if not constant_time_compare(match.group(4), _mac(game_id, seat, user_id)):
        return None
    return ReplyToken(game_id, seat, user_id)


def unsubscribe_token(user_id: int) -> str:
    """Deterministic (no timestamp), so a mail renders the same every time."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user_id))


def unsubscribe_user_id(token: str) -> int | None:
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None
