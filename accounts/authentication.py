"""Token authentication with a short in-process memory.

Every API request looks its token up; on the hot read path that query costs
as much as the rest of the request.  A token seen in the last few seconds is
trusted without asking the database again, so revoking a token,
deactivating or suspending a user takes effect within
CORREO_TOKEN_CACHE_SECONDS (at once in the process that suspends).
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

_lock = threading.Lock()
_seen: dict[str, tuple[float, tuple]] = {}
MAX_TOKENS = 10_000
KEY_LENGTH = Token._meta.get_field("key").max_length


def could_be_a_key(key: str) -> bool:
    """A key no token can have is refused without a query: PostgreSQL refuses
    a NUL in a string parameter outright (an error, not "no such row")."""
    return len(key) <= KEY_LENGTH and key.isascii() and key.isprintable()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str):
        if not could_be_a_key(key):
            raise AuthenticationFailed("Invalid token.")
        ttl = settings.CORREO_TOKEN_CACHE_SECONDS
        now = time.monotonic()
        with _lock:
            hit = _seen.get(key)
        if hit and hit[0] > now:
            return hit[1]
        result = super().authenticate_credentials(key)  # raises for a bad or inactive token
        if result[0].suspended:
            raise AuthenticationFailed("This account is suspended.")
        if ttl > 0:
            with _lock:
                if len(_seen) >= MAX_TOKENS:
                    _seen.clear()
                _seen[key] = (now + ttl, result)
        return result


def forget_all() -> None:
    with _lock:
        _seen.clear()
