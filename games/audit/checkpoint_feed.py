"""The checkpoint feed: the published checkpoints anyone signed in may read
and mirror, in the order they were published, with the keys that check them.

Paged by a cursor made of the last record's own fields (time, game, seq), not
by row ids: an id would count the checkpoints left out of the feed (of
private and delayed games) and so tell when those games moved.  The last
CHECKPOINT_FEED_HOLD_SECONDS are held back: a chunk is stamped as it is
signed and committed moments later, and a reader must not pass its time
before it is there to read.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.audit import checkpoint_keys as keys
from games.audit.checkpoints import record_of
from games.models import Checkpoint

Cursor = tuple[datetime.datetime, int, int]


def cursor_text(record: dict[str, Any]) -> str:
    return f"{record['at']}/{record['game']}/{record['seq']}"


def feed(after: Cursor | None, limit: int) -> dict[str, Any]:
    hold = datetime.timedelta(seconds=settings.CHECKPOINT_FEED_HOLD_SECONDS)
    rows = Checkpoint.objects.filter(listed=True, at__lte=timezone.now() - hold)
    if after is not None:
        at, game, seq = after
        rows = rows.filter(
            Q(at__gt=at) | Q(at=at, game_id__gt=game) | Q(at=at, game_id=game, seq__gt=seq)
        )
    records = [record_of(row) for row in rows.order_by("at", "game_id", "seq")[:limit]]
    return {
        "keys": keys.public_keys(),
        "checkpoints": records,
        "next": cursor_text(records[-1]) if records else None,
    }
