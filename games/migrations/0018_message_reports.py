"""A report may name one message of the game (its seq), not the whole game."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_table_talk"),
    ]

    operations = [
        migrations.AddField(
            model_name="moderationitem",
            name="message_seq",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
