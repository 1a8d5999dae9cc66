"""Blocks between accounts (accounts.Block) as tables and invitations read
them: either side's block keeps two accounts apart, and neither is told."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q


def apart(user) -> set[int]:
    """The ids of the accounts `user` blocked or was blocked by."""
    from accounts.models import Block

    if not getattr(user, "is_authenticated", False):
        return set()
    pairs = (
        Block.objects.filter(Q(blocker=user) | Q(blocked=user))
        .order_by()
        .values_list("blocker_id", "blocked_id")
    )
    return {other for pair in pairs for other in pair} - {user.pk}


def any_between(user, others: Iterable) -> bool:
    """Whether `user` and any of `others` (accounts) are kept apart."""
    ids = {other.pk for other in others if other is not None} - {user.pk}
    if not ids:
        return False
    from accounts.models import Block

    return Block.objects.filter(
        Q(blocker=user, blocked_id__in=ids) | Q(blocked=user, blocker_id__in=ids)
    ).exists()


def blocks(blocker, blocked) -> bool:
    """Whether `blocker` blocked `blocked` (one direction only)."""
    from accounts.models import Block

    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()
