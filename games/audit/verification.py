"""Checking stored games: hash chains intact and sealed, every event by whom it
may be, streams replay with today's engines.

`verify_games` checks every game, so it reads them in chunks: one query per
table per CHUNK games, events as plain rows rather than model instances
(the release gate runs it over the whole database before a release).  About
half its time is the replay (the engines' checked moves, played on one
private state: `golden.replay_steps`), a quarter the chain (one
serialisation of each payload, `chain._v2_hash`), the rest reading
(payloads decoded once, snapshots left as text); `make bench`
(bench_verify) keeps the count.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.apps import apps
from django.db import connection
from django.db.models import F, QuerySet, TextField
from django.db.models.functions import Cast

from games import fields
from games.audit import golden
from games.engines import base
from games.engines.base import State
from games.models import Event, Game, LegacySeal, Seat, Snapshot
from games.stream import chain, replay, spectators
from games.stream.derived import derived_fields

# A bot's move is by the bot's account, which holds the seat (accounts.bots);
# a standing order's by the seat's player who wrote it (games.services.orders).
PLAYER_SOURCES = (
    Event.Source.API, Event.Source.EMAIL, Event.Source.WEB, Event.Source.BOT, Event.Source.ORDER,
)  # fmt: skip
MACHINE_SOURCES = (Event.Source.TIMER, Event.Source.SYSTEM)
CHUNK = 200
# A Row's columns before its payload, which is read as text (stored()).
EVENT_FIELDS = ("game_id", "seq", "kind", "seat", "actor_id", "source",
                "created_at", "prev_hash", "hash", "nonce", "key_id", "mac")  # fmt: skip


@dataclass(slots=True)
class Row:
    """A stored event as the checks read it: the columns, no model."""

    game_id: int
    seq: int
    kind: str
    seat: int | None
    actor_id: int | None
    source: str
    created_at: datetime
    prev_hash: str
    hash: str
    nonce: str
    key_id: str
    mac: str
    payload: dict[str, Any]  # last: read apart, as text (stored())


@dataclass
class Stored:
    """Everything the checks read of one game."""

    events: list[Row] = field(default_factory=list)
    seats: dict[int, tuple[int, bool]] = field(default_factory=dict)  # index: (user, to_act)
    snapshots: list[tuple[int, int, str, str]] = field(default_factory=list)
    garbled: list[int] = field(default_factory=list)  # seqs whose payload is not a JSON object
    legacy_seal: LegacySeal | None = None
    # The seqs of outbox rows past the game row's head (mails about events
    # the stream no longer holds).
    mailed_beyond: list[int] = field(default_factory=list)


def stored(games: list[Game]) -> dict[int, Stored]:
    """What the checks need of `games`, one query per table.

    Payloads are read as text and decoded here, without a model's
    converters; snapshots stay text, compared with the replay as written
    (`snapshot_agrees`).
    """
    ids = [game.pk for game in games]
    found: dict[int, Stored] = defaultdict(Stored)
    # Snapshots before events: a move that lands between the two reads then
    # adds events, never a snapshot past the events read (trace_problems).
    snapshots = Snapshot.objects.filter(game_id__in=ids).order_by("game_id", "seq")
    for game_id, version, seq, event_hash, state in snapshots.values_list(
        "game_id", "engine_version", "seq", "event_hash", _text("state")
    ):
        found[game_id].snapshots.append((version, seq, event_hash, state))
    events = Event.objects.filter(game_id__in=ids).order_by("game_id", "seq")
    for *columns, text in _values(events, *EVENT_FIELDS, _text("payload")):
        facts = found[columns[0]]
        payload = _decoded(text)
        if payload is None:
            facts.garbled.append(columns[1])
            payload = {}
        facts.events.append(Row(*columns, payload))
    seats = Seat.objects.filter(game_id__in=ids)
    for game_id, index, user_id, to_act in seats.values_list(
        "game_id", "index", "user_id", "to_act"
    ):
        found[game_id].seats[index] = (user_id, to_act)
    for seal in LegacySeal.objects.filter(game_id__in=ids):
        found[seal.game_id].legacy_seal = seal
    for game_id, seq in _mailed_beyond_the_head(ids):
        found[game_id].mailed_beyond.append(seq)
    return found


def _mailed_beyond_the_head(ids: list[int]) -> Iterable[tuple[int, int]]:
    """The outbox rows of `games` naming a seq past the game row's head: none
    unless events were cut off the end (a row is written with its event).
    The outbox is the notifications app's: read by name, so that games
    imports nothing of it, and skipped where it is not installed."""
    if not apps.is_installed("notifications"):
        return []
    notification = apps.get_model("notifications", "Notification")
    rows = notification.objects.filter(game_id__in=ids, seq__gt=F("game__seq"))
    return rows.order_by("game_id", "seq").values_list("game_id", "seq").distinct()


def _values(queryset: QuerySet, *columns: str | Cast) -> Iterable[tuple[Any, ...]]:
    """`queryset.values_list(*columns)`.  On PostgreSQL the rows come
    through psycopg's compiled timestamp loader rather than Django's, a Python
    subclass of it that took a sixth of a verification to read the events'
    times; both give the instant in the session's time zone (UTC)."""
    if connection.vendor != "postgresql":
        return queryset.values_list(*columns)
    from psycopg.types.datetime import TimestamptzLoader

    sql, params = queryset.values_list(*columns).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
        cursor.execute(sql, params)
        return cursor.fetchall()


def _text(column: str) -> Cast:
    """A JSON column as its stored text, which the model would decode."""
    return Cast(column, output_field=TextField())


def _decoded(text: str) -> dict[str, Any] | None:
    """A stored payload, or None when it is not a JSON object."""
    try:
        payload = fields.from_text(text)
    except (ValueError, RecursionError):
        return None
    return payload if isinstance(payload, dict) else None


def snapshot_agrees(state: State, stored_text: str) -> bool:
    """Does a stored snapshot hold the replayed state?  Written the same way
    it is the same, byte for byte; failing that (another key order, written
    by an older build), the same canonical JSON will do."""
    if fields.as_text(state) == stored_text:
        return True
    try:
        return golden.state_hash(json.loads(stored_text)) == golden.state_hash(state)
    except ValueError:
        return False


def game_problems(game: Game, facts: Stored | None = None) -> Iterator[str]:
    """Every problem found in one game, as readable lines."""
    facts = facts if facts is not None else stored([game])[game.pk]
    events = facts.events
    if facts.garbled:
        yield from (f"seq {seq}: the payload is not a JSON object" for seq in facts.garbled)
        return
    yield from chain.problems(
        events, game.chain_version, facts.legacy_seal,
        imported_unverified=game.imported_unverified,
    )  # fmt: skip
    if not events:
        yield "no events"
        return
    yield from actor_problems(game, events, facts.seats)
    if (game.seq, game.head_hash) != (events[-1].seq, events[-1].hash):
        yield f"game row says head {game.seq}, the stream ends at {events[-1].seq}"
    yield from trace_problems(events, facts)
    yield from _spectator_problems(game, events)
    try:
        engine = base.get(game.title)
    except KeyError:
        yield f"no engine for title {game.title!r}"
        return
    yield from _replay_problems(game, engine, facts)


def _spectator_problems(game: Game, events: list[Row]) -> Iterator[str]:
    """Where the row says the spectators stand must be where the stream puts
    them: a point ahead would show a delayed spectator moves they may not
    see yet (games.stream.spectators)."""
    try:
        seq, at = spectators.walked(events, game.spectator_delay)
    except (KeyError, TypeError):
        return  # an undo without a target the stream holds: the chain check says why
    if (game.spectator_seq, game.spectator_at) != (seq, at):
        yield f"game row puts the spectators at seq {game.spectator_seq}, the stream at {seq}"


def _replay_problems(game: Game, engine, facts: Stored) -> Iterator[str]:
    """The stream folded with today's engine (games.audit.golden, as the golden
    games are): every snapshot of this VERSION must match the replay at its
    seq byte for byte, and the game row must match the replay's end."""
    events = facts.events
    if events[0].kind != Event.Kind.CREATED:
        yield "the stream does not start with its created event"
        return
    undos = {e.seq: e.payload["to_seq"] for e in events if e.kind == Event.Kind.UNDO}
    ranges = replay.live_ranges(events[-1].seq, undos)
    on_path = [e for e in events if replay.is_live(e.seq, ranges)] if undos else events
    live = [e for e in on_path if e.kind in replay.ENGINE_KINDS]
    steps = [(e.kind, e.seat, e.payload.get("action")) for e in live]
    step_at = _step_numbers(on_path, live)
    checkpoints = {}
    for version, seq, event_hash, state in facts.snapshots:
        if version == engine.VERSION and seq in step_at and event_hash == step_at[seq][1]:
            checkpoints[step_at[seq][0]] = state
    replayed = golden.replay_steps(
        engine, events[0].payload["setup"], steps, checkpoints, first_only=False,
        agrees=snapshot_agrees,
    )  # fmt: skip
    if replayed.failed is not None:
        number, exc = replayed.failed
        yield f"no longer replays: {type(exc).__name__}: {exc} (seq {live[number - 1].seq})"
        return
    seq_of = {number: seq for seq, (number, _) in step_at.items()}
    for number in replayed.differing:
        yield f"snapshot at seq {seq_of[number]} differs from a full replay"
    if game.status == Game.Status.ABORTED:
        return
    derived = derived_fields(engine, replayed.state)
    recorded = {name: getattr(game, name) for name in derived}
    if base.canonical_json(derived) != base.canonical_json(recorded):
        yield "replay gives another state than the game row records (to_act/status/result)"
    flagged = sorted(index for index, (_, to_act) in facts.seats.items() if to_act)
    if flagged != derived["to_act"]:
        yield f"seats flagged to act {flagged} differ from the replay's {derived['to_act']}"


def trace_problems(events: list[Row], facts: Stored) -> Iterator[str]:
    """What the rest of the database remembers of the stream, against it.
    Cutting the newest events off and moving the game row back leaves a
    shorter chain whose every seal holds; but a snapshot and an outbox row
    are written with their event, and stay: one past the head, or a
    snapshot taken at a hash the chain no longer has at its seq, tells."""
    hashes = {event.seq: event.hash for event in events}
    head = events[-1].seq
    for _, seq, event_hash, _ in facts.snapshots:
        if seq > head:
            yield f"a snapshot at seq {seq} lies past the head {head} (events cut off the end?)"
        elif hashes.get(seq) != event_hash:
            yield f"a snapshot at seq {seq} was taken at another event than the chain has there"
    if facts.mailed_beyond:
        yield (
            f"notifications were written for seq {chain.runs_text(facts.mailed_beyond)}, past the "
            f"head {head}: their mails told of events the stream no longer holds (cut off "
            f"the end?)"
        )


def _step_numbers(on_path: list[Row], live: list[Row]) -> dict[int, tuple[int, str]]:
    """For each seq on the live path: how many engine steps the state there
    has folded, and that event's hash (a snapshot is compared only while it
    matches the chain, as the store uses it)."""
    number_of = {e.seq: n for n, e in enumerate(live, 1)}
    out: dict[int, tuple[int, str]] = {}
    number = 0
    for event in on_path:
        number = number_of.get(event.seq, number)
        out[event.seq] = (number, event.hash)
    return out


def actor_problems(
    game: Game, events: list[Row], seats: dict[int, tuple[int, bool]]
) -> Iterator[str]:
    """Each event is by whom it may be: a seat's by the player who held the
    seat then, a player's seatless one (a vacation) by one of the game's
    players, a moderator's by someone, the timer's and the system's by
    nobody.  Who held each seat comes from the stream itself (the created
    event, then any seat replacement), and must end where the seat rows are.

    A moderator's role at the time is not checked: roles change, and the
    seal shows the server wrote the event, after checking the role then.
    """
    holders = list(events[0].payload.get("seats", []))
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            holders[event.payload["seat"]] = event.payload["user"]
        problem = _actor_problem(event, holders)
        if problem:
            yield f"seq {event.seq}: {problem}"
    seated = {index: user for index, (user, _) in seats.items()}
    if seated != dict(enumerate(holders)):
        yield f"the seats' players {seated} differ from the stream's {dict(enumerate(holders))}"


def _actor_problem(event: Row, holders: list[int]) -> str | None:
    if event.seat is not None and not 0 <= event.seat < len(holders):
        return f"seat {event.seat} does not exist"
    if event.source in MACHINE_SOURCES:
        return None if event.actor_id is None else f"a {event.source} event has an actor"
    if event.source == Event.Source.MODERATOR:
        return None if event.actor_id is not None else "a moderator's event has no actor"
    if event.source == Event.Source.TALK:
        return _sender_problem(event, holders)
    if event.source not in PLAYER_SOURCES:
        return f"unknown source {event.source!r}"
    if event.kind == Event.Kind.CREATED:
        return None
    if event.seat is None:
        if event.actor_id in holders:
            return None
        return f"user {event.actor_id} acted without a seat in the game"
    if event.actor_id != holders[event.seat]:
        return f"user {event.actor_id} acted for seat {event.seat}, held by {holders[event.seat]}"
    return None


def _sender_problem(event: Row, holders: list[int]) -> str | None:
    """A message is someone's, and one sent from a seat is by its player then."""
    if event.kind != Event.Kind.MESSAGE:
        return f"a {event.kind} event from talk"
    if event.actor_id is None:
        return "a message has no sender"
    seat = event.payload.get("from")
    if seat is None:
        return None
    if type(seat) is not int or not 0 <= seat < len(holders):
        return f"a message from seat {seat!r}, which does not exist"
    if event.actor_id != holders[seat]:
        return f"user {event.actor_id} wrote for seat {seat}, held by {holders[seat]}"
    return None


def unverified_imports(status: str | None = None) -> Iterator[tuple[Game, list[int]]]:
    """The games imported unverified (of one `status`), each with the seqs
    whose own seals say so: not a problem, the moderator accepted them, but
    nothing here vouches for those events, and whoever relies on the
    verification should know which they are."""
    chosen = Game.objects.filter(imported_unverified=True)
    if status is not None:
        chosen = chosen.filter(status=status)
    for game in chosen.order_by("pk").iterator():
        rows = Event.objects.filter(game=game).order_by("seq").only("seq", "hash", "key_id", "mac")
        yield game, chain.unverified_seqs(list(rows))
