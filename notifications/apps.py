from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from notifications import anymail_inbound, outbox

        hooks.on_rows(outbox.rows_for_event)
        hooks.on_reminder(outbox.on_reminder)
        anymail_inbound.connect()
