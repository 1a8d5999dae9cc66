"""Blocking another account (accounts.Block): what the blocker may do.

What a block keeps apart (tables, lobby, invitations) is read where those
live (games.selectors.blocks).  A block is the blocker's alone: nobody else
is told, and its list is shown to the blocker only.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import Block, User

# Enough for anyone's list of people to avoid; a bound on what a list costs.
MAX_BLOCKS = 1000


class Refused(ValueError):
    """A block that cannot be made (the message says why)."""


def named(username: object) -> User:
    """The account of that name (Refused if there is none)."""
    if not isinstance(username, str) or not 0 < len(username) <= 150:
        raise Refused("no such player")
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise Refused("no such player")
    return user


def block(blocker: User, username: object) -> Block:
    other = named(username)
    if other.pk == blocker.pk:
        raise Refused("you cannot block yourself")
    if Block.objects.filter(blocker=blocker).count() >= MAX_BLOCKS:
        raise Refused(f"you may block at most {MAX_BLOCKS} accounts")
    try:
        with transaction.atomic():
            made, _ = Block.objects.get_or_create(blocker=blocker, blocked=other)
    except IntegrityError:  # the same block made at the same moment
        made = Block.objects.get(blocker=blocker, blocked=other)
    return made


def unblock(blocker: User, username: object) -> bool:
    """Lift a block; False when there was none."""
    other = named(username)
    deleted, _ = Block.objects.filter(blocker=blocker, blocked=other).delete()
    return bool(deleted)


def blocked_names(blocker: User) -> list[str]:
    return list(
        Block.objects.filter(blocker=blocker)
        .order_by("blocked__username")
        .values_list("blocked__username", flat=True)
    )
