from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="imported_unverified",
            field=models.BooleanField(default=False),
        ),
    ]
