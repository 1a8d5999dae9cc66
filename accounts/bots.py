"""The accounts that bots play under.

A seat needs a user (Seat.user is not null) and a user holds at most one seat
in a game (games.stream.sql.active_seat), so a bot is one account per kind and seat
index: `bot:greedy:0`, `bot:greedy:1`, ...  Seat n of any game is played by
`bot:<kind>:n`, so two bots of one kind in a game never share an account,
and the accounts stay few (kinds times the largest table).

A colon is not allowed in the usernames people register, nor a name that
looks like a bot's (accounts.rules), so nobody can take a bot's name or the
unique key of one not yet made.  A bot account has no email, no webhook, wants
no mail (notifications skip it anyway) and an unusable password: it never
logs in and never gets a token.
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User

KINDS = ("random", "greedy")
PREFIX = "bot:"


@dataclass(frozen=True)
class Wanted:
    """A seat asked for a bot of this kind; the game service seats its
    account (games.services.bots.seat_holders)."""

    kind: str


def kind_named(entry: str) -> str | None:
    """The bot kind a player entry names ("bot:greedy" -> "greedy"), or None
    when it names no bot (a username, or an unknown kind)."""
    if not entry.startswith(PREFIX):
        return None
    kind = entry[len(PREFIX) :]
    return kind if kind in KINDS else None


def names_a_bot(entry: str) -> bool:
    """Whether a player entry is meant as a bot (well formed or not)."""
    return entry.startswith(PREFIX)


def seat_of_account(username: str) -> tuple[str, int] | None:
    """The kind and seat a bot account's name gives ("bot:greedy:2" ->
    ("greedy", 2)), or None for any other name: an imported game's bots are
    this server's accounts of the same kind and seat."""
    kind, _, seat = username.removeprefix(PREFIX).partition(":")
    if not username.startswith(PREFIX) or kind not in KINDS or not seat.isdecimal():
        return None
    return kind, int(seat)


def account(kind: str, seat: int, pk: int | None = None) -> User:
    """The account bot `kind` plays seat `seat` under, made on first use
    (with id `pk` if given: an import keeps the ids of the export)."""
    if kind not in KINDS:
        raise ValueError(f"unknown bot {kind!r}")
    user, created = User.objects.get_or_create(
        username=f"{PREFIX}{kind}:{seat}",
        defaults={"pk": pk, "bot": kind, "email": "", "notify_mode": User.NotifyMode.OFF},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def is_bot(user) -> bool:
    return bool(getattr(user, "bot", ""))
