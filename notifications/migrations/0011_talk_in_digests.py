"""Messages at the table are held for the daily digest (kind `talk`)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0010_webhook_delivery"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "Your Turn"),
                    ("game_over", "Game Over"),
                    ("undone", "Undone"),
                    ("reminder", "Reminder"),
                    ("takeback", "Takeback"),
                    ("clock", "Clock"),
                    ("reply", "Reply"),
                    ("rejection", "Rejection"),
                    ("digest", "Digest"),
                    ("password_reset", "Password Reset"),
                    ("joined", "Joined"),
                    ("webhook_paused", "Webhook Paused"),
                    ("password_changed", "Password Changed"),
                    ("email_changed", "Email Changed"),
                    ("talk", "Talk"),
                ],
                max_length=16,
            ),
        ),
    ]
