# Tables and table talk were built side by side; this joins their migrations.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_seat_offers"),
        ("games", "0018_message_reports"),
    ]

    operations = []
