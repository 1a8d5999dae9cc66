"""Keep where each game's spectators stand on its row (games.spectators).

A game with `spectator_delay: N` shows those without a seat the game as it
stood just before the N-th latest live move (seq 1 while there are fewer);
without a delay, its head.  From here on every append that moves that point
writes it; this fills it for the games there are, from their streams: the
live path is walked back from the head (an undo's parent is its `to_seq`,
any other event's the one before it) counting moves.  The walk is a frozen
copy, so a later change to the service cannot change what this writes.

Reversing drops the columns.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

MOVE_KINDS = ("action", "timeout")
BATCH = 500


def point(events, delay):
    """(seq, created_at) of the point, from a game's whole stream."""
    stream = {seq: (kind, payload, created_at) for seq, kind, payload, created_at in events}
    moves, seq = 0, max(stream)
    while seq >= 1:
        kind, payload, _ = stream[seq]
        if kind in MOVE_KINDS:
            moves += 1
            if moves == delay:
                return seq - 1, stream[seq - 1][2]
        seq = payload["to_seq"] if kind == "undo" else seq - 1
    return 1, stream[1][2]


def fill(apps, schema_editor):
    game_model = apps.get_model("games", "Game")
    event_model = apps.get_model("games", "Event")
    head_time = event_model.objects.filter(game_id=OuterRef("pk"), seq=OuterRef("seq"))
    game_model.objects.filter(spectator_delay=0, seq__gte=1).update(
        spectator_seq=models.F("seq"),
        spectator_at=Subquery(head_time.values("created_at")[:1]),
    )
    delayed = game_model.objects.filter(spectator_delay__gt=0, seq__gte=1).order_by("pk")
    batch = []
    for game in delayed.only("pk", "seq", "spectator_delay").iterator(chunk_size=BATCH):
        events = event_model.objects.filter(game_id=game.pk, seq__lte=game.seq)
        rows = events.values_list("seq", "kind", "payload", "created_at")
        game.spectator_seq, game.spectator_at = point(rows, game.spectator_delay)
        batch.append(game)
        if len(batch) == BATCH:
            game_model.objects.bulk_update(batch, ["spectator_seq", "spectator_at"])
            batch = []
    game_model.objects.bulk_update(batch, ["spectator_seq", "spectator_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_imported_unverified"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="spectator_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="spectator_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
    ]
