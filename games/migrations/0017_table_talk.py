"""Table talk: each game's press setting (default full press, private
messages revealed at the end), the `message` event kind with its source
`talk`, an index for reading a game's messages alone, and the seats a
player muted.  Existing games get the defaults; their streams hold no
message."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_spectator_head"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Mute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.AddField(
            model_name="game",
            name="press",
            field=models.CharField(
                choices=[("full", "Full"), ("public", "Public"), ("none", "None")],
                default="full",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="reveal_private",
            field=models.BooleanField(default=True),
        ),
        migrations.AlterField(
            model_name="event",
            name="kind",
            field=models.CharField(
                choices=[
                    ("created", "Created"),
                    ("action", "Action"),
                    ("timeout", "Timeout"),
                    ("undo", "Undo"),
                    ("resign", "Resign"),
                    ("seat_replaced", "Seat Replaced"),
                    ("clock", "Clock"),
                    ("note", "Note"),
                    ("takeback_request", "Takeback Request"),
                    ("takeback_answer", "Takeback Answer"),
                    ("abort", "Abort"),
                    ("message", "Message"),
                ],
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="source",
            field=models.CharField(
                choices=[
                    ("api", "Api"),
                    ("email", "Email"),
                    ("web", "Web"),
                    ("timer", "Timer"),
                    ("moderator", "Moderator"),
                    ("system", "System"),
                    ("bot", "Bot"),
                    ("talk", "Talk"),
                ],
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                condition=models.Q(("kind", "message")),
                fields=["game", "seq"],
                name="event_message_idx",
            ),
        ),
        migrations.AddField(
            model_name="mute",
            name="game",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.game"
            ),
        ),
        migrations.AddField(
            model_name="mute",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="mute",
            constraint=models.UniqueConstraint(
                fields=("user", "game", "seat"), name="mute_unique_seat"
            ),
        ),
    ]
