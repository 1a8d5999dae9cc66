from django.db import migrations, models


def mark_games_with_orders(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    OrderEvent = apps.get_model("games", "OrderEvent")
    Game.objects.filter(pk__in=OrderEvent.objects.values("game_id")).update(orders_written=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0027_listed_order")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="orders_written",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_games_with_orders, migrations.RunPython.noop),
    ]
