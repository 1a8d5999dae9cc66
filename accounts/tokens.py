"""The life of an API token: issued for a password, used, listed, revoked,
expired.

An account may hold several tokens, each with a name (a laptop, a script).
A key is shown once, when it is issued; afterwards the server holds only its
SHA-256 (accounts.models.ApiToken), so nobody, the owner included, can read
it again: a lost key is revoked and a new one issued.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from functools import cache

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts import token_memory
from accounts.models import ApiToken, User
from ops import rows, statements

# 20 random bytes as 40 hex digits: the length and alphabet of the keys
# rest_framework.authtoken issued before, so clients see no difference.
KEY_BYTES = 20
KEY_LENGTH = 2 * KEY_BYTES
PREFIX_LENGTH = 8
# Using a token renews it (its expiry slides), but writing the row on every
# request would turn each read into a write: the row is touched at most once
# in this long, so `last_used` and the expiry are right to within it.
TOUCH_EVERY = datetime.timedelta(minutes=15)
# Issuing one more revokes the account's least recently used: a script that
# logs in on every run must not grow the list without end.
MAX_PER_USER = 50


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def ttl() -> datetime.timedelta:
    return datetime.timedelta(days=settings.CORREO_TOKEN_TTL_DAYS)


def live(user: User):
    """The account's tokens that still work, newest first."""
    cutoff = timezone.now() - ttl()
    return (
        ApiToken.objects.filter(user=user)
        .annotate(seen=Coalesce(F("last_used"), F("created")))
        .filter(seen__gt=cutoff)
    )


def issue(user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new token for `user` (who proved their password) and its key, the
    only time the key exists outside the client."""
    key = secrets.token_hex(KEY_BYTES)
    with transaction.atomic():
        cutoff = timezone.now() - ttl()
        ApiToken.objects.filter(user=user).annotate(
            seen=Coalesce(F("last_used"), F("created"))
        ).filter(seen__lte=cutoff).delete()
        surplus = list(
            ApiToken.objects.filter(user=user)
            .order_by(Coalesce(F("last_used"), F("created")).desc(), "-id")
            .values_list("pk", flat=True)[MAX_PER_USER - 1 :]
        )
        if surplus:
            revoke(user, ApiToken.objects.filter(pk__in=surplus))
        token = ApiToken.objects.create(
            user=user, name=name, digest=digest(key), prefix=key[:PREFIX_LENGTH]
        )
    return token, key


def find(key: str) -> ApiToken | None:
    """The token whose key this is, with its user, if it exists and has not
    expired.  One prepared statement: a player who moves minutes apart,
    whom this process no longer remembers (accounts.token_memory), makes
    this lookup on every move, and the ORM's query for it took 0.9 ms to
    build and run against 0.3 ms for this (docs/benchmarks.md)."""
    found = statements.rows(_find_sql(), [digest(key)])
    if not found:
        return None
    width = len(ApiToken._meta.concrete_fields)
    token = rows.from_row(ApiToken, found[0][:width])
    rows.attach(token, "user", rows.from_row(User, found[0][width:]))
    if token.expires <= timezone.now():
        return None
    return token


@cache
def _find_sql() -> str:
    keys, people = statements.table(ApiToken), statements.table(User)
    owner, pk = statements.column(ApiToken, "user"), statements.quote(User._meta.pk.column)
    return (
        f"SELECT {statements.select(ApiToken)}, {statements.select(User)} FROM {keys} "
        f"JOIN {people} ON {people}.{pk} = {keys}.{owner} "
        f"WHERE {keys}.{statements.column(ApiToken, 'digest')} = %s"
    )


def touch(token: ApiToken) -> None:
    """Record a use (and so renew the token), unless one was recorded less
    than TOUCH_EVERY ago: the condition sits in the UPDATE, so processes
    that see the token at the same moment write it once between them."""
    now = timezone.now()
    if token.last_used is not None and now - token.last_used < TOUCH_EVERY:
        return
    stale = Q(last_used__isnull=True) | Q(last_used__lt=now - TOUCH_EVERY)
    ApiToken.objects.filter(stale, pk=token.pk).update(last_used=now)
    token.last_used = now


def revoke(user: User, tokens=None) -> int:
    """Delete some of `user`'s tokens (all when `tokens` is None); they stop
    working at once in this process and within CORREO_TOKEN_CACHE_SECONDS in
    every other (accounts.token_memory)."""
    query = ApiToken.objects.filter(user=user)
    if tokens is not None:
        query = query.filter(pk__in=tokens.values("pk"))
    count, _ = query.delete()
    token_memory.forget_user(user.pk)
    # Again once the deletion is durable: a lookup that read the row in
    # between must not be remembered as valid.
    transaction.on_commit(lambda: token_memory.forget_user(user.pk))
    return count


def revoke_all(user: User) -> int:
    return revoke(user)
