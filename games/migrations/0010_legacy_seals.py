"""Seal the head of every game that exists before seals do.

Those games' events carry no seal.  One seal on each game's head, made now
with CHAIN_KEY, vouches for every event up to it (each hash covers the chain
before it), and is what tells an old unsealed game from one whose later seals
were stripped.  Run `manage.py verify_games` before upgrading: this seals
the chains as they stand.
"""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 1000


def seal_heads(apps, schema_editor):
    from games.stream.chain import seal

    event_model = apps.get_model("games", "Event")
    legacy_seal = apps.get_model("games", "LegacySeal")
    heads = event_model.objects.filter(seq=models.F("game__seq"), mac="")
    batch = []
    for game_id, seq, hash_ in heads.values_list("game_id", "seq", "hash").iterator():
        key_id, mac = seal(hash_)
        batch.append(legacy_seal(game_id=game_id, seq=seq, hash=hash_, key_id=key_id, mac=mac))
        if len(batch) >= BATCH:
            legacy_seal.objects.bulk_create(batch)
            batch = []
    legacy_seal.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [("games", "0009_event_no_truncate_trigger")]

    operations = [
        migrations.CreateModel(
            name="LegacySeal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seq", models.PositiveIntegerField()),
                ("hash", models.CharField(max_length=64)),
                ("key_id", models.CharField(max_length=16)),
                ("mac", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="legacy_seal",
                        to="games.game",
                    ),
                ),
            ],
        ),
        migrations.RunPython(seal_heads, migrations.RunPython.noop),
    ]
