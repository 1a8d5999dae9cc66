"""Accounts as a game's doors name them: players by username, a moderator's
view of a suspension."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from games.errors import InvalidRequest, NotFound


def users_in_order(usernames: list[str]) -> list:
    """The active users of these names, in the order given (a game's seats);
    an entry `bot:random` or `bot:greedy` asks for a bot (accounts.bots)."""
    from accounts import bots
    from accounts.models import User

    unknown = [name for name in usernames if bots.names_a_bot(name) and not bots.kind_named(name)]
    if unknown:
        raise InvalidRequest(
            gettext_noop("no such bot: %(names)s (bot:random or bot:greedy)"),
            names=", ".join(unknown),
        )
    people = [name for name in usernames if not bots.names_a_bot(name)]
    users = {
        u.username: u
        for u in User.objects.filter(username__in=people, is_active=True, suspended=False)
    }
    missing = [name for name in people if name not in users]
    if missing:
        raise InvalidRequest(gettext_noop("no such player: %(names)s"), names=", ".join(missing))
    return [
        bots.Wanted(kind) if (kind := bots.kind_named(name)) else users[name] for name in usernames
    ]


def account(username: str):
    """The user of that name (NotFound if there is none)."""
    from accounts.models import User

    fits = isinstance(username, str) and len(username) <= 150 and username.isprintable()
    user = User.objects.filter(username=username).first() if fits else None
    if user is None:
        raise NotFound(gettext_noop("no such player"))
    return user


def suspension_record(suspension) -> dict[str, Any]:
    def name(user) -> str | None:
        return user.username if user is not None else None

    return {
        "username": suspension.user.username,
        "suspended": suspension.lifted_at is None,
        "reason": suspension.reason,
        "suspended_by": name(suspension.suspended_by),
        "created_at": suspension.created_at.isoformat(),
        "lifted_at": suspension.lifted_at.isoformat() if suspension.lifted_at else None,
        "lifted_by": name(suspension.lifted_by),
    }
