from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from games import hooks
        from notifications import anymail_inbound, outbox, webhooks

        hooks.on_rows(outbox.rows_for_event)
        hooks.on_reminder(outbox.on_reminder)
        anymail_inbound.connect()
        post_save.connect(
            webhooks.resume_on_save, sender=get_user_model(), dispatch_uid="correo-webhook-resume"
        )
