"""What a game's rows derive from its stream: the engine that replays it,
the Game columns that mirror its state (rewritten on every append), the
seats' statuses, and the snapshot an append may leave.  The services write
them, and the whole-game checks (games.audit) recompute them to compare."""

from __future__ import annotations

from typing import Any

from games.engines import base
from games.engines.base import Engine, State
from games.models import Event, Game, Seat
from games.stream import replay, store


def engine_for(game: Game) -> Engine:
    return base.get(game.title)


def derived_fields(engine: Engine, state: State) -> dict[str, Any]:
    """The Game columns that mirror the state, rewritten on every append."""
    result = engine.result(state)
    finished = result is not None
    return {
        "to_act": [] if finished else sorted(engine.to_act(state)),
        "status": Game.Status.FINISHED if finished else Game.Status.ACTIVE,
        "result": result,
    }


def sync_seat_statuses(game: Game) -> None:
    """Seat.status mirrors the live resign events (an undo can bring a seat back)."""
    ranges = replay.live_ranges(game.seq, store.undo_map(game, game.seq))
    resigns = Event.objects.filter(game=game, kind=Event.Kind.RESIGN).values_list("seq", "seat")
    resigned = {seat for seq, seat in resigns if replay.is_live(seq, ranges)}
    seats = Seat.objects.filter(game=game).exclude(status=Seat.Status.REPLACED)
    seats.filter(index__in=resigned).update(status=Seat.Status.RESIGNED)
    seats.exclude(index__in=resigned).update(status=Seat.Status.ACTIVE)


def maybe_snapshot(game: Game, engine: Engine, event: Event, state: State) -> None:
    if store.snapshot_due(event.seq):
        store.save_snapshot(game, engine, event.seq, event.hash, state)
