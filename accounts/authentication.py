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

The memory (accounts.token_memory) holds digests, not keys.
"""

from __future__ import annotations

import time

from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from accounts import token_memory, tokens


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
        remembered = token_memory.recall(digest, now)
        if remembered is not None:
            return remembered
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
        token_memory.remember(
            digest, now, result, (token.expires - timezone.now()).total_seconds()
        )
        return result
