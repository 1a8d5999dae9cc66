"""What a forger with the table owner's rights does to the event table."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection


@contextmanager
def triggers_disabled():
    """The event table's triggers off (PostgreSQL; SQLite has none), as an
    attacker who owns the table would turn them off first."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        # The test's own inserts leave deferred FK checks pending; ALTER TABLE
        # refuses to run until they have fired.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE games_event DISABLE TRIGGER USER")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER USER")


def cut_off(game, to_seq: int) -> None:
    """The events of `game` after `to_seq` deleted, and the game row and its
    seats moved back to where the stream now ends: what someone with the
    table owner's rights does to unsay the end of a game.  Every hash and
    seal of what is left holds; only what was written beside the events
    (snapshots, the outbox) and what the players were told still remember."""
    from games.models import Event, Game, Seat
    from games.stream import store
    from games.stream.derived import derived_fields, engine_for

    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM games_event WHERE game_id = %s AND seq > %s", [game.pk, to_seq]
        )
    store.forget_all()
    engine = engine_for(game)
    state = store.load(game, engine, head=to_seq, use_snapshots=False, memo=False).state
    derived = derived_fields(engine, state)
    head = Event.objects.get(game=game, seq=to_seq)
    Game.objects.filter(pk=game.pk).update(seq=to_seq, head_hash=head.hash, **derived)
    for seat in Seat.objects.filter(game=game):
        Seat.objects.filter(pk=seat.pk).update(to_act=seat.index in derived["to_act"])
    game.refresh_from_db()
