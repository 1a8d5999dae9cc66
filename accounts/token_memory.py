"""This process's memory of the tokens it has looked up (digests, never keys).

accounts.authentication trusts a token seen in the last few seconds without
asking the database again; accounts.tokens, and a suspension, make the
memory forget an account's tokens at once.  Each account has a stamp, the
moment this process last revoked its tokens, and a remembered lookup that
began before the stamp is no longer trusted (it may have read the row just
before the revocation deleted it).  The reasons for a memory per process,
and its limits, are accounts.authentication's docstring.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.conf import settings

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


def recall(digest: str, now: float) -> tuple | None:
    """The remembered (user, token) of `digest`, while it may be trusted."""
    with _lock:
        hit = _seen.get(digest)
        trusted = (
            hit is not None
            and hit.until > now
            and hit.looked_up > _revoked.get(hit.user_id, float("-inf"))
        )
    return hit.result if trusted else None


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
