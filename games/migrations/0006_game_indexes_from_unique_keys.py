"""Drop the game_id indexes that the (game, seq) and (game, index) unique keys
already serve: every event insert paid for a second index.

Only the indexes go: letting AlterField do it would also drop and re-add the
foreign keys, which checks every row of the events table under a lock.
"""

import django.db.models.deletion
from django.db import migrations, models

# Django's own names for these indexes (the same on SQLite and PostgreSQL).
INDEXES = [
    ("games_event", "games_event_game_id_afa0391c"),
    ("games_seat", "games_seat_game_id_ad720f5b"),
    ("games_snapshot", "games_snapshot_game_id_9fa1b8a5"),
]


def unindexed_game(on_delete, related_name):
    return models.ForeignKey(
        db_index=False, on_delete=on_delete, related_name=related_name, to="games.game"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_clocks"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="game",
                    field=unindexed_game(django.db.models.deletion.PROTECT, "events"),
                ),
                migrations.AlterField(
                    model_name="seat",
                    name="game",
                    field=unindexed_game(django.db.models.deletion.CASCADE, "seats"),
                ),
                migrations.AlterField(
                    model_name="snapshot",
                    name="game",
                    field=unindexed_game(django.db.models.deletion.CASCADE, "snapshots"),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    f'CREATE INDEX "{name}" ON "{table}" ("game_id")',
                )
                for table, name in INDEXES
            ],
        ),
    ]
