"""Inbound records are written with their outcome: no "processing" state.

Rows left "processing" by the earlier code were mails whose processing broke
after their Message-ID was committed; their senders were told the mail had
been taken (and will not send it again), so they are closed as rejected with
the reason, for the operator to see.
"""

from django.db import migrations, models


def close_interrupted(apps, schema_editor):
    InboundMessage = apps.get_model("notifications", "InboundMessage")
    InboundMessage.objects.filter(status="processing").update(
        status="rejected",
        reason="interrupted",
        detail="processing broke off before this record could say how it ended",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0004_drop_turnwatch"),
    ]

    operations = [
        migrations.RunPython(close_interrupted, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="inboundmessage",
            name="status",
            field=models.CharField(
                choices=[
                    ("applied", "Applied"),
                    ("answered", "Answered"),
                    ("rejected", "Rejected"),
                ],
                max_length=16,
            ),
        ),
    ]
