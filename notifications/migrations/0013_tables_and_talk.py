# Tables and table talk were built side by side; this joins their migrations.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0011_talk_in_digests"),
        ("notifications", "0012_verify_email"),
    ]

    operations = []
