"""Players who agreed to play with someone, as `POST /api/games/` asks
before it seats them (games.services.common.require_consent): each accepted
an invitation from the creator, to a table that has since closed."""

from __future__ import annotations

from django.utils import timezone

from games.models import Invitation, Table


def consenting(creator, *players) -> None:
    """Each of `players` (users) accepted an invitation from `creator`."""
    now = timezone.now()
    table = Table.objects.create(
        title="duel", min_seats=2, max_seats=2, host=creator, status=Table.Status.CLOSED,
        expires_at=now, ended_at=now,
    )  # fmt: skip
    Invitation.objects.bulk_create(
        Invitation(
            table=table,
            invited_by=creator,
            user=player,
            answered_at=now,
            status=Invitation.Status.ACCEPTED,
        )
        for player in players
        if player != creator
    )
