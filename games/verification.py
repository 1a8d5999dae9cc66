"""Checking stored games: hash chains intact, streams replay with today's engines."""

from __future__ import annotations

from collections.abc import Iterator

from games import service, store
from games.engines import base
from games.models import Event, Game


def game_problems(game: Game) -> Iterator[str]:
    """Every problem found in one game, as readable lines."""
    events = list(Event.objects.filter(game=game).order_by("seq"))
    yield from store.chain_problems(events)
    if not events:
        yield "no events"
        return
    if (game.seq, game.head_hash) != (events[-1].seq, events[-1].hash):
        yield f"game row says head {game.seq}, the stream ends at {events[-1].seq}"
    try:
        engine = base.get(game.title)
    except KeyError:
        yield f"no engine for title {game.title!r}"
        return
    yield from _replay_problems(game, engine)


def _replay_problems(game: Game, engine) -> Iterator[str]:
    try:
        full = store.load(game, engine, use_snapshots=False)
        cached = store.load(game, engine, memo=False)
    except Exception as exc:
        yield f"no longer replays: {type(exc).__name__}: {exc}"
        return
    if base.canonical_json(full.state) != base.canonical_json(cached.state):
        yield f"snapshot at seq {cached.snapshot_seq} differs from a full replay"
    if game.status == Game.Status.ABORTED:
        return
    derived = service.derived_fields(engine, full.state)
    recorded = {name: getattr(game, name) for name in derived}
    if base.canonical_json(derived) != base.canonical_json(recorded):
        yield "replay gives another state than the game row records (to_act/status/result)"
    flagged = sorted(game.seats.filter(to_act=True).values_list("index", flat=True))
    if flagged != derived["to_act"]:
        yield f"seats flagged to act {flagged} differ from the replay's {derived['to_act']}"


def all_problems() -> Iterator[tuple[Game, str]]:
    for game in Game.objects.order_by("pk").iterator():
        for problem in game_problems(game):
            yield game, problem
