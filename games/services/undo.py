"""Undo: the game continues as it stood after an earlier event."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from games.engines.base import Engine, State
from games.errors import InvalidRequest
from games.models import Event, Game
from games.services.common import require_moderator
from games.stream import replay, store
from games.stream.derived import derived_fields, engine_for, maybe_snapshot, sync_seat_statuses


def check_undo(game: Game, moderator, *, to_seq: int, reason: str) -> Event:
    """A moderator's undo, with a reason."""
    require_moderator(moderator, gettext_noop("only moderators can undo"))
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidRequest(gettext_noop("an undo needs a reason"))
    game.refresh_from_db()
    if type(to_seq) is not int or not 1 <= to_seq < game.seq:
        raise InvalidRequest(
            gettext_noop("to_seq must be between 1 and %(last)s"), last=game.seq - 1
        )
    return do_undo(
        game, actor=moderator, to_seq=to_seq, reason=reason.strip(), source=Event.Source.MODERATOR
    )


def do_undo(game: Game, *, actor, to_seq: int, reason: str, source: str) -> Event:
    """Append an `undo` to `to_seq` after the game's current head."""
    engine = engine_for(game)
    target = store.load(game, engine, head=to_seq)
    target_game = Game(pk=game.pk, seq=to_seq, status=Game.Status.ACTIVE)
    with transaction.atomic():
        event = store.append(
            game,
            expected_seq=game.seq,
            kind=Event.Kind.UNDO,
            source=source,
            payload={"to_seq": to_seq, "reason": reason},
            actor=actor,
            head_hash=game.head_hash,
            derived=_derived_after_undo(engine, target_game, target.state),
        )
        sync_seat_statuses(game)
    maybe_snapshot(game, engine, event, target.state)
    return event


def _derived_after_undo(engine: Engine, target: Game, state: State) -> dict[str, Any]:
    """A game undone to before an abort (a resign it could not go on
    without, or a moderator's) is active again."""
    enders = Event.objects.filter(
        game_id=target.pk, kind__in=(Event.Kind.RESIGN, Event.Kind.ABORT), seq__lte=target.seq
    )
    ranges = replay.live_ranges(target.seq, store.undo_map(target, target.seq))
    reasons = [
        payload["reason"] if kind == Event.Kind.ABORT else ""
        for seq, kind, payload in enders.order_by("seq").values_list("seq", "kind", "payload")
        if replay.is_live(seq, ranges) and (kind == Event.Kind.ABORT or payload["aborts"])
    ]
    if reasons:
        return {"to_act": [], "status": Game.Status.ABORTED, "result": None,
                "abort_reason": reasons[0]}  # fmt: skip
    return {**derived_fields(engine, state), "abort_reason": ""}
