from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from notifications import anymail_inbound, embedded, outbox

        hooks.on_append(outbox.on_event)
        # Clock reminders, where games.hooks offers them (the clocks issue).
        if hasattr(hooks, "on_reminder"):
            hooks.on_reminder(outbox.on_reminder)
        anymail_inbound.connect()
        if embedded.serving_embedded():
            embedded.start()
