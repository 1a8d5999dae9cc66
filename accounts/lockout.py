"""Failed log-ins counted per account name, whatever the client's address.

The "auth" rate (ops.throttling) counts per client address, and an
attacker with many addresses has a fresh budget at each.  Here every try of
one name counts wherever it comes from: after CORREO_LOGIN_FAILURES_ALLOWED
failures each further try waits CORREO_LOGIN_DELAY_SECONDS, doubled with
every failure after that, up to CORREO_LOGIN_DELAY_MAX_SECONDS.  A try
during the wait is refused before the password is looked at, the right
password too: otherwise the lock would only tell the attacker when it had
guessed.  A success forgets the failures, and so does a password set from
a reset mail (the mailbox's owner is the account's owner); failures are
forgotten after CORREO_LOGIN_FAILURES_KEPT_SECONDS without one.

Names are counted whether or not an account has them, so the lock tells no
one which names exist.  Only one try of a name runs at a time (an atomic
`add` in the cache): a burst of tries sent together the moment a wait ends
gets one guess, not one per request.

The trade-off: anyone can make a victim's name wait by failing on purpose.
The wait is a delay, never a lock that needs an administrator, its longest
is a quarter of an hour by default, sessions and API tokens already given
keep working, and a reset mail lifts it.

Password-reset requests are counted the same way per address (kind
RESET): every request is a try that never succeeds, so after the allowed
number an address waits before it can ask again (the mail itself goes at
most once a quarter hour anyway: notifications.outbox).

The counts live in the cache: Redis when deployed, shared by every process.
With Redis away the cache serves from each process's memory (ops.cache)
and the counts go on there: each process then allows its own
CORREO_LOGIN_FAILURES_ALLOWED, so the defence weakens by the number of web
processes for the outage but never stops.  Refusing every log-in instead
(failing closed) would make a Redis outage an outage of every log-in, which
the house promises it is not (docs/guarantees.md, "When Redis is down").
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework.exceptions import Throttled

LOGIN = "login"
RESET = "reset"

# How long one try may hold its name's turn (a password hash takes well
# under a second; a process that died mid-try frees the name after this).
TURN_SECONDS = 10


def now() -> float:
    return time.time()


class LockedOut(Throttled):
    """A try refused because its name must wait: 429 with Retry-After, from
    the API's handler (a DRF exception) and from the pages'
    (web.throttle.LockedOutMiddleware)."""

    def __init__(self, wait: float, detail: str) -> None:
        super().__init__(wait=max(1, math.ceil(wait)), detail=detail)


@dataclass
class Try:
    succeeded: bool = False


def key(kind: str, name: str) -> str:
    """The cache key of one name: the same for every spelling the log-in
    would take for the same person (letter case, Unicode forms), hashed so
    that any string makes a short key and the cache holds no names."""
    folded = unicodedata.normalize("NFKC", str(name)).casefold().strip()
    return f"lockout:{kind}:{hashlib.sha256(folded.encode()).hexdigest()[:40]}"


def delay_after(failures: int) -> float:
    """Seconds a name waits after its `failures`-th failure in a row."""
    allowed = settings.CORREO_LOGIN_FAILURES_ALLOWED
    if failures < allowed:
        return 0.0
    doublings = min(failures - allowed, 40)  # past the cap anyway; keeps the power small
    return float(min(settings.CORREO_LOGIN_DELAY_SECONDS * 2**doublings,
                     settings.CORREO_LOGIN_DELAY_MAX_SECONDS))  # fmt: skip


def _refuse_while_waiting(kind: str, record: dict | None) -> None:
    if record and record["until"] > now():
        what = "log-ins" if kind == LOGIN else "reset requests"
        raise LockedOut(
            record["until"] - now(),
            f"Too many failed {what} for this account: wait before trying again.",
        )


@contextlib.contextmanager
def attempt(kind: str, name: str) -> Iterator[Try]:
    """Around one try of `name` (a password checked, a reset asked for):
    raises LockedOut while the name waits or another try of it is under
    way; a try the caller does not mark `succeeded` counts as a failure.
    A try that raises counts as nothing (the database was down, say)."""
    record_key = key(kind, name)
    _refuse_while_waiting(kind, cache.get(record_key))
    turn = f"{record_key}:turn"
    if not cache.add(turn, 1, TURN_SECONDS):
        raise LockedOut(1, "Another try for this account is under way: try again in a moment.")
    try:
        record = cache.get(record_key)
        _refuse_while_waiting(kind, record)
        outcome = Try()
        yield outcome
        if outcome.succeeded:
            if record:
                cache.delete(record_key)
        else:
            failures = (record["failures"] if record else 0) + 1
            delay = delay_after(failures)
            kept = max(settings.CORREO_LOGIN_FAILURES_KEPT_SECONDS, math.ceil(delay))
            cache.set(record_key, {"failures": failures, "until": now() + delay}, kept)
    finally:
        cache.delete(turn)


def forget(kind: str, name: str) -> None:
    """Start `name` afresh (its owner proved who they are another way)."""
    cache.delete(key(kind, name))


def failures(kind: str, name: str) -> int:
    """Failures counted for `name` now (for the tests and the admin's eyes)."""
    record = cache.get(key(kind, name))
    return record["failures"] if record else 0
