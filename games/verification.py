"""Checking stored games: hash chains intact and sealed, every event by whom it
may be, streams replay with today's engines."""

from __future__ import annotations

from collections.abc import Iterator

from games import golden, replay, store
from games.engines import base
from games.models import Event, Game, Seat, Snapshot
from games.services.common import derived_fields

PLAYER_SOURCES = (Event.Source.API, Event.Source.EMAIL, Event.Source.WEB)
MACHINE_SOURCES = (Event.Source.TIMER, Event.Source.SYSTEM)


def game_problems(game: Game) -> Iterator[str]:
    """Every problem found in one game, as readable lines."""
    events = list(Event.objects.filter(game=game).order_by("seq"))
    yield from store.chain_problems(game, events)
    if not events:
        yield "no events"
        return
    yield from actor_problems(game, events)
    if (game.seq, game.head_hash) != (events[-1].seq, events[-1].hash):
        yield f"game row says head {game.seq}, the stream ends at {events[-1].seq}"
    try:
        engine = base.get(game.title)
    except KeyError:
        yield f"no engine for title {game.title!r}"
        return
    yield from _replay_problems(game, engine, events)


def _replay_problems(game: Game, engine, events: list[Event]) -> Iterator[str]:
    """The stream folded with today's engine (games.golden, as the golden
    games are): every snapshot of this VERSION must match the replay at its
    seq byte for byte, and the game row must match the replay's end."""
    if events[0].kind != Event.Kind.CREATED:
        yield "the stream does not start with its created event"
        return
    undos = {e.seq: e.payload["to_seq"] for e in events if e.kind == Event.Kind.UNDO}
    ranges = replay.live_ranges(events[-1].seq, undos)
    on_path = [e for e in events if replay.is_live(e.seq, ranges)]
    live = [e for e in on_path if e.kind in replay.ENGINE_KINDS]
    steps = [(e.kind, e.seat, e.payload.get("action")) for e in live]
    step_at = _step_numbers(on_path, live)
    kept = Snapshot.objects.filter(game=game, engine_version=engine.VERSION)
    checkpoints = {}
    for seq, event_hash, state in kept.values_list("seq", "event_hash", "state"):
        if seq in step_at and event_hash == step_at[seq][1]:
            checkpoints[step_at[seq][0]] = golden.state_hash(state)
    replayed = golden.replay_steps(
        engine, events[0].payload["setup"], steps, checkpoints, first_only=False
    )
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
    flagged = sorted(game.seats.filter(to_act=True).values_list("index", flat=True))
    if flagged != derived["to_act"]:
        yield f"seats flagged to act {flagged} differ from the replay's {derived['to_act']}"


def _step_numbers(on_path: list[Event], live: list[Event]) -> dict[int, tuple[int, str]]:
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


def actor_problems(game: Game, events: list[Event]) -> Iterator[str]:
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
    seated = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
    if seated != dict(enumerate(holders)):
        yield f"the seats' players {seated} differ from the stream's {dict(enumerate(holders))}"


def _actor_problem(event: Event, holders: list[int]) -> str | None:
    if event.seat is not None and not 0 <= event.seat < len(holders):
        return f"seat {event.seat} does not exist"
    if event.source in MACHINE_SOURCES:
        return None if event.actor_id is None else f"a {event.source} event has an actor"
    if event.source == Event.Source.MODERATOR:
        return None if event.actor_id is not None else "a moderator's event has no actor"
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


def all_problems() -> Iterator[tuple[Game, str]]:
    for game in Game.objects.order_by("pk").iterator():
        for problem in game_problems(game):
            yield game, problem
