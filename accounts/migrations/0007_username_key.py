"""The username key columns (accounts.usernames.key and look_key), filled
for the accounts already there.  Accounts whose names would now be twins (the
same in another letter case, or a look-alike: made before sign-up compared
them, or by the admin or a script) all keep working: the first by id holds
the plain key, each later one the key followed by "#<its id>", which no
name's key can be.  Each such twin is reported when the migration runs, and
logs in by its exact name (the others' folded names find the first)."""

import sys

from django.db import migrations, models

import accounts.models

KEYS = ("username_key", "username_look_key")


def fill_keys(apps, schema_editor):
    from accounts import usernames

    digests = {"username_key": usernames.key, "username_look_key": usernames.look_key}
    User = apps.get_model("accounts", "User")
    held: dict[str, dict[str, str]] = {field: {} for field in KEYS}
    rows = User.objects.order_by("pk").values_list("pk", "username")
    for pk, username in rows.iterator(chunk_size=2000):
        values = {}
        for field in KEYS:
            key = digests[field](username)
            if key in held[field]:
                twin = held[field][key]
                sys.stdout.write(
                    f"\n  accounts: {username!r} (id {pk}) passes for {twin!r} ({field}): "
                    f"kept, with {key}#{pk}"
                )
                key = f"{key}#{pk}"
            else:
                held[field][key] = username
            values[field] = key
        User.objects.filter(pk=pk).update(**values)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_api_tokens"),
    ]

    operations = [
        # Django's username validator gives way to accounts.rules (no SQL).
        migrations.AlterField(
            model_name="user",
            name="username",
            field=models.CharField(
                error_messages={"unique": "A user with that username already exists."},
                help_text=(
                    "Up to 150 letters and digits of one script, and . _ - ; "
                    "it starts with a letter or a digit."
                ),
                max_length=150,
                unique=True,
                verbose_name="username",
            ),
        ),
        migrations.AlterModelManagers(
            name="user",
            managers=[
                ("objects", accounts.models.CorreoUserManager()),
            ],
        ),
        *[
            migrations.AddField(
                model_name="user",
                name=field,
                field=models.CharField(editable=False, max_length=100, null=True),
            )
            for field in KEYS
        ],
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
        *[
            migrations.AlterField(
                model_name="user",
                name=field,
                field=models.CharField(editable=False, max_length=100, unique=True),
            )
            for field in KEYS
        ],
    ]
