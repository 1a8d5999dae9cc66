"""Token authentication with a short in-process memory.

Every API request looks its token up; on the hot read path that query costs
as much as the rest of the request.  A token seen in the last few seconds is
trusted without asking the database again, so revoking a token (or all of
an account's, as a password or email change does), deactivating or
suspending a user takes effect within CORREO_TOKEN_CACHE_SECONDS in every
process, and at once in the process that does it.

"At once" holds against a race too: each account has a stamp, the moment
this process last revoked its tokens, and a remembered lookup that began
before the stamp is no longer trusted (it may have read the row just before
the revocation deleted it).  The stamp is per process.  Sharing it through
Redis would cost a round trip on every request, which is what the memory is
there to save, and would fail with Redis; instead every remembered token is
read again within CORREO_TOKEN_CACHE_SECONDS, and the deleted row then
refuses it.  A token the other processes still trust for those seconds
cannot change the password or the address: both ask for the password.

The memory holds digests, not keys (accounts.models.ApiToken).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from accounts import tokens

_lock = threading.Lock()
MAX_TOKENS = 10_000


@dataclass(frozen=True)
class _Seen:
    until: float  # trusted until then (time.monotonic)
    looked_up: float  # when the lookup began
    user_id: int
    result: tuple


_seen: dict[str, _Seen] = {}
# The moment (time.monotonic) this process last revoked each account's tokens.
_revoked: dict[int, float] = {}


def could_be_a_key(key: str) -> bool:
    """A key no token can have is refused without a query: PostgreSQL refuses
    a NUL in a string parameter outright (an error, not "no such row")."""
    return 0 < len(key) <= tokens.KEY_LENGTH and key.isascii() and key.isprintable()


class CachedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>` against accounts.models.ApiToken.  The
    request's `auth` is the ApiToken, so a view knows which token it was
    (DELETE /api/auth/token/ revokes that one)."""

    def authenticate_credentials(self, key: str):
        if not could_be_a_key(key):
            raise AuthenticationFailed("Invalid token.")
        digest = tokens.digest(key)
        now = time.monotonic()
        with _lock:
            hit = _seen.get(digest)
            trusted = (
                hit is not None
                and hit.until > now
                and hit.looked_up > _revoked.get(hit.user_id, float("-inf"))
            )
        if trusted:
            return hit.result
        token = tokens.find(key)
        if token is None:
            raise AuthenticationFailed("Invalid or expired token.")
        user = token.user
        if not user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        if user.suspended:
            raise AuthenticationFailed("This account is suspended.")
        tokens.touch(token)
        result = (user, token)
        remember(digest, now, result, (token.expires - timezone.now()).total_seconds())
        return result


def remember(digest: str, looked_up: float, result: tuple, seconds_left: float) -> None:
    ttl = min(settings.CORREO_TOKEN_CACHE_SECONDS, seconds_left)
    if ttl <= 0:
        return
    user_id = result[0].pk
    with _lock:
        if looked_up <= _revoked.get(user_id, float("-inf")):
            return  # revoked while it was being read
        if len(_seen) >= MAX_TOKENS:
            _seen.clear()
        _seen[digest] = _Seen(looked_up + ttl, looked_up, user_id, result)


def forget_user(user_id: int) -> None:
    """This process trusts none of the account's tokens it has seen until now."""
    now = time.monotonic()
    with _lock:
        if len(_revoked) >= MAX_TOKENS:
            # A stamp older than the memory's lifetime guards no entry.
            horizon = now - settings.CORREO_TOKEN_CACHE_SECONDS
            for old in [u for u, at in _revoked.items() if at < horizon]:
                del _revoked[old]
        _revoked[user_id] = now
        for digest in [d for d, seen in _seen.items() if seen.user_id == user_id]:
            del _seen[digest]


def forget_all() -> None:
    """A blank memory (the tests start each with one)."""
    with _lock:
        _seen.clear()
        _revoked.clear()
