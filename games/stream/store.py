"""Appending to and loading from a game's event stream.

Appending is optimistic: the writer names the seq it saw; the game row is
updated only where its seq still equals that, atomically with the insert of
the event (one statement on PostgreSQL, a transaction elsewhere or where an
append listener must write), so two writers can never both succeed, and the
unique (game, seq) key backs that up.  Loading is the newest usable snapshot plus
the live events after it.
"""

from __future__ import annotations

import contextlib
import copy
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import hooks
from games.engines.base import Engine, State
from games.errors import StaleSeq
from games.models import Event, Game, LegacySeal, Seat, Snapshot
from games.stream import chain, replay, spectators, sql
from games.stream.lru import LRU


def chain_problems(game: Game, events: list[Event]) -> list[str]:
    """Every break in a game's stored chain (games.stream.chain.problems)."""
    legacy_seal = LegacySeal.objects.filter(game=game).first()
    return chain.problems(
        events, game.chain_version, legacy_seal, imported_unverified=game.imported_unverified
    )


@dataclass
class Loaded:
    """A game's engine state at its head."""

    state: State
    seq: int
    head_hash: str
    snapshot_seq: int | None = None


def undo_map(game: Game, head: int) -> dict[int, int]:
    # No ordering: the model's default ("game" first) would join the game
    # row to sort by the game's own ordering, for a dict.
    rows = Event.objects.filter(game=game, kind=Event.Kind.UNDO, seq__lte=head).order_by()
    return {seq: payload["to_seq"] for seq, payload in rows.values_list("seq", "payload")}


def _usable_snapshot(game: Game, engine: Engine, ranges, head: int) -> Snapshot | None:
    candidates = Snapshot.objects.filter(
        game=game, seq__lte=head, engine_version=engine.VERSION
    ).order_by("-seq")
    newest = candidates.first()
    if newest is None or replay.is_live(newest.seq, ranges):
        return newest  # the usual case: one query, state included
    for snapshot in candidates[1:10]:
        if replay.is_live(snapshot.seq, ranges):
            return snapshot
    return None


# Per game (by pk), the newest state this process has seen (with its seq
# and hash), beside the engine it was made by.  Keyed by the pk alone so
# that a game's read can ask for the events since it (`known_seq`) before
# the game, and so its engine, is known.
_newest = LRU(settings.CORREO_STATE_CACHE_SIZE)


def load(
    game: Game,
    engine: Engine,
    *,
    head: int | None = None,
    use_snapshots: bool = True,
    memo: bool = True,
) -> Loaded:
    """Replay `game` to `head` (default: the head recorded on the given row).

    At the row's own head the newest state this process holds is used: as it
    is when its hash matches the head's, or brought up to the head by folding
    the few events since (each worker process sees only some of a game's
    moves).  Either way the result is exactly what a replay would give.
    """
    at_row_head = memo and head in (None, game.seq) and use_snapshots and game.head_hash
    if not at_row_head:
        return _replay(game, engine, game.seq if head is None else head, use_snapshots)
    known = _known(game.pk, engine)
    if known is not None and (known.seq, known.head_hash) == (game.seq, game.head_hash):
        return known
    caught_up = _catch_up(game, engine, known) if known and known.seq < game.seq else None
    loaded = caught_up or _replay(game, engine, game.seq, True)
    # The last state loaded or written wins: rows are read fresh, so it is the
    # newest but for a rare stale row, which costs the next load a catch-up.
    remember(game, engine, loaded)
    return loaded


def remember(game: Game, engine: Engine, loaded: Loaded) -> None:
    """Hold the state a writer just produced at the game's new head (the next
    move then starts from it instead of replaying)."""
    _newest.put(game.pk, (_engine_key(engine), loaded))


def known_seq(pk: int) -> int | None:
    """The seq of the newest state this process holds of game `pk`, if any:
    what a read of the game asks the events after (sql.game's `after`)."""
    held = _newest.get(pk)
    return None if held is None else held[1].seq


def forget_all() -> None:
    _newest.clear()


def _known(pk: int, engine: Engine) -> Loaded | None:
    held = _newest.get(pk)
    return held[1] if held is not None and held[0] == _engine_key(engine) else None


def _engine_key(engine: Engine) -> tuple[str, int]:
    return (engine.NAME, engine.VERSION)


def _catch_up(game: Game, engine: Engine, known: Loaded) -> Loaded | None:
    """`known` folded forward to the row's head, or None when the events since
    do not simply extend it (an undo among them, or another chain).  The
    events come with the game's read when it asked for them (`known_seq`)."""
    events = sql.events_after(game, known.seq)
    if events is None:
        events = sql.events_between(game.pk, known.seq, game.seq)
    extends = (
        len(events) == game.seq - known.seq
        and events[0].prev_hash == known.head_hash
        and events[-1].hash == game.head_hash
        and all(event.kind != Event.Kind.UNDO for event in events)
    )
    if not extends:
        return None
    # The events extend this process's own state along the chain, and every
    # action among them passed apply's checks when it was appended.
    state = replay.fold(engine, known.state, events, recorded=True)
    return Loaded(state, game.seq, game.head_hash, known.snapshot_seq)


def _replay(game: Game, engine: Engine, head: int, use_snapshots: bool) -> Loaded:
    started = time.perf_counter()
    loaded = _rebuild(game, engine, head, use_snapshots)
    hooks.replayed(engine.NAME, time.perf_counter() - started)
    return loaded


def _rebuild(game: Game, engine: Engine, head: int, use_snapshots: bool) -> Loaded:
    ranges = replay.live_ranges(head, undo_map(game, head))
    snapshot = _usable_snapshot(game, engine, ranges, head) if use_snapshots else None
    start = snapshot.seq if snapshot else 1
    events = list(
        Event.objects.filter(game=game, seq__gte=start, seq__lte=head)
        .only("seq", "kind", "seat", "payload", "hash")
        .order_by("seq")
    )
    if snapshot and (not events or events[0].hash != snapshot.event_hash):
        # The chain no longer matches this cache entry: ignore it entirely.
        return _rebuild(game, engine, head, False)
    live = [e for e in events if replay.is_live(e.seq, ranges)]
    if snapshot:
        state = snapshot.state
        live = live[1:]
    else:
        state = {}
    state = replay.fold(engine, state, live)
    head_hash = events[-1].hash if events else chain.GENESIS_HASH
    return Loaded(state, head, head_hash, snapshot.seq if snapshot else None)


def append(
    game: Game,
    *,
    expected_seq: int,
    kind: str,
    source: str,
    payload: dict[str, Any],
    seat: int | None = None,
    actor=None,
    head_hash: str,
    derived: dict[str, Any] | None = None,
) -> Event:
    """Append one event after `expected_seq`, or raise StaleSeq.

    `derived` holds the Game columns recomputed from the new state (status,
    to_act, result); they are written in the same conditional UPDATE, with
    the spectators' point where the event moves it (games.stream.spectators).
    """
    derived = dict(derived or {})
    event = Event(game=game, seq=expected_seq + 1, kind=kind, seat=seat, actor=actor,
                  source=source, payload=payload, created_at=timezone.now())  # fmt: skip
    chain.link(event, head_hash, game.chain_version)
    # Appends are the only writers of to_act, so a row read at the seq being
    # extended knows who was to act before this event.
    before = list(game.to_act or []) if game.seq == expected_seq else _seats_flagged(game)
    flags = derived["to_act"] if derived.get("to_act", before) != before else None
    values = {"seq": event.seq, "head_hash": event.hash, "updated_at": event.created_at}
    values.update(derived)
    # Where the spectators stand moves with the stream, so it is written in
    # the same statement as the event: never a moment where the two disagree.
    values.update(spectators.columns_after(game, event, expected_seq))
    after = _as_left_by(game, values)
    rows = hooks.rows_for(after, event, before)
    listeners = hooks.append.applying(after)
    with transaction.atomic() if listeners else contextlib.nullcontext():
        appended = sql.append(event, expected_seq, values, flags, rows)
        if appended is None:
            current = Game.objects.values_list("seq", flat=True).get(pk=game.pk)
            raise StaleSeq(expected_seq, current)
        game.__dict__.update(values)
        game.__dict__.update(appended.read_back)
        for row in appended.rows:
            if row.written is not None:
                row.written(row.instance)
        for listener in listeners:
            listener(game, event, before)
        transaction.on_commit(partial(hooks.event_committed, game, event))
    return event


def write_new(row: hooks.Row) -> bool:
    """Write `row` on its own, outside an append, under the rule an append's
    rows follow: skipped where a row with its `unique` value exists (no
    savepoint needed), else written and `row.written(instance)` called.
    True if it was written."""
    if not sql.insert_new(row.instance, row.unique):
        return False
    if row.written is not None:
        row.written(row.instance)
    return True


def _as_left_by(game: Game, values: dict[str, Any]) -> Game:
    """A copy of `game` with `values` set, for listeners to plan with before
    the event is written: `game` itself changes only once it is."""
    after = copy.copy(game)
    for name, value in values.items():
        setattr(after, name, value)
    return after


def _seats_flagged(game: Game) -> list[int]:
    return sorted(Seat.objects.filter(game=game, to_act=True).values_list("index", flat=True))


def save_snapshot(game: Game, engine: Engine, seq: int, event_hash: str, state: State) -> None:
    """Cache `state` at `seq`, keeping only the game's newest few snapshots."""
    snapshot = Snapshot(
        game=game, seq=seq, engine_version=engine.VERSION, event_hash=event_hash, state=state
    )
    kept = settings.CORREO_SNAPSHOT_EVERY * settings.CORREO_SNAPSHOTS_KEPT
    sql.save_snapshot(snapshot, prune_upto=seq - kept)


def snapshot_due(seq: int) -> bool:
    """Snapshots fall on every CORREO_SNAPSHOT_EVERY-th seq: whichever process
    writes that event takes it, so workers never double them.  After an undo
    the live events since the newest live snapshot stay under twice that."""
    return seq % settings.CORREO_SNAPSHOT_EVERY == 0
