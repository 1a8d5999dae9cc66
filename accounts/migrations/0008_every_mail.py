"""A player may ask for every turn mail at once (no pacing: notifications.pacing)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_username_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="every_mail",
            field=models.BooleanField(
                default=False,
                help_text="Send each turn mail at once, even while this player is at the game's page.",
            ),
        ),
    ]
