"""Drop the index on Seat.to_act: every query on it is also by game or by
user, which are indexed, and while it was indexed, flipping it (two seats
every turn) could never be an in-place (HOT) update."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_indexes_from_unique_keys"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="to_act",
            field=models.BooleanField(default=False),
        ),
    ]
