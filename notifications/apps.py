from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts import signals
        from games import hooks
        from notifications import (
            anymail_inbound,
            checks,  # noqa: F401  (registers the start-up checks)
            metrics,
            outbox,
            tasks,
            webhooks,
        )

        hooks.on_rows(outbox.rows_for_event)
        outbox.deliver_with(tasks.queue_after_commit)
        hooks.on_reminder(outbox.on_reminder)
        hooks.on_table_notice(outbox.on_table_notice)
        hooks.on_order_note(outbox.on_order_note)
        anymail_inbound.connect()
        signals.password_changed.connect(outbox.password_changed, dispatch_uid="correo-mail-pw")
        signals.email_changed.connect(outbox.email_changed, dispatch_uid="correo-mail-email")
        signals.email_to_verify.connect(outbox.email_to_verify, dispatch_uid="correo-mail-verify")
        metrics.install()
        post_save.connect(
            webhooks.resume_on_save, sender=get_user_model(), dispatch_uid="correo-webhook-resume"
        )
