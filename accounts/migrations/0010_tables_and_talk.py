# Tables and table talk were built side by side; this joins their migrations.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_every_mail"),
        ("accounts", "0009_email_verified"),
    ]

    operations = []
