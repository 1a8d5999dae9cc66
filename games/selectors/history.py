"""The event log as a viewer may read it, and the moderators' audit of it
with the chain check."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from games.errors import Forbidden
from games.models import Event, Game
from games.selectors import orders, talk, visibility
from games.selectors.verify_record import verification_of
from games.selectors.viewers import Viewer, reveals_all
from games.stream import chain, replay, sql, store


def events(game: Game, viewer: Viewer, *, after: int, limit: int) -> list[dict[str, Any]]:
    reveal = reveals_all(game, viewer)
    reader = talk.reader_for(game, viewer)
    shown = []
    for event in sql.events_told(game.pk, after, viewer.head, limit):
        seen = visibility.event_for(
            event, viewer.seat, reveal_all=reveal, chain_version=game.chain_version, reader=reader
        )
        shown.append({**seen, "actor": visibility.actor_for(event, seen)})
    return shown


def audit(game: Game, viewer: Viewer) -> dict[str, Any]:
    if not viewer.moderator:
        raise Forbidden(gettext_noop("only moderators may audit a game"))
    rows = list(Event.objects.filter(game=game).select_related("actor").order_by("seq"))
    problems = store.chain_problems(game, rows)
    checked = {
        "version": game.chain_version, "valid": not problems, "problems": problems,
        "imported_unverified": game.imported_unverified,
        "unverified": chain.runs(chain.unverified_seqs(rows)) if game.imported_unverified else [],
    }  # fmt: skip
    return {
        "id": game.pk,
        "seq": game.seq,
        "head_hash": game.head_hash,
        "chain": checked,
        "live": replay.live_ranges(game.seq, store.undo_map(game, game.seq)),
        "events": [
            {
                **visibility.event_for(
                    event,
                    None,
                    reveal_all=True,
                    chain_version=game.chain_version,
                    reader=talk.everything(),
                ),
                "actor": event.actor.username if event.actor else None,
            }
            for event in rows
        ],
        "verify": verification_of(game, reveal=True),
        # Every seat's standing orders, each entry as written (they are no
        # part of the stream: games.selectors.orders).
        "orders": orders.audit(game),
    }
