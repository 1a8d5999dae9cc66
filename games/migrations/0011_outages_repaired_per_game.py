"""Outages and vacations are applied one game at a time.

An outage is recorded with the sweep's last run and repaired game by game
until `repaired_at` is set; a vacation is announced game by game until
`announced_at` is.  Vacations that exist already were announced in the same
transaction that created them, so they count as announced then.
"""

from django.db import migrations, models


def mark_vacations_announced(apps, schema_editor):
    vacation = apps.get_model("games", "Vacation")
    vacation.objects.update(announced_at=models.F("created_at"))


class Migration(migrations.Migration):
    dependencies = [("games", "0010_legacy_seals")]

    operations = [
        migrations.CreateModel(
            name="Outage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField()),
                ("repaired_at", models.DateTimeField(blank=True, null=True)),
                ("held_until", models.DateTimeField(blank=True, null=True)),
            ],
            options={"ordering": ["started_at"]},
        ),
        migrations.AddField(
            model_name="vacation",
            name="announced_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(mark_vacations_announced, migrations.RunPython.noop),
    ]
