"""Chain version 2: commitments with nonces, and seals keyed outside the database.

Games that exist already keep hashing under version 1 (their events cannot be
rewritten, and must keep verifying); games created from now on use version 2.
Adding the event columns with a constant default rewrites no rows, so the
immutability trigger is not touched.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0007_seat_to_act_unindexed")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.AddField(
            model_name="event",
            name="mac",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="event",
            name="nonce",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        # Existing games: version 1.  New games: the model's default, 2.
        migrations.AddField(
            model_name="game",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AlterField(
            model_name="game",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
    ]
