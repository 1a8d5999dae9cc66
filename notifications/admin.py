"""The outbox and the inbound ledger in the Django admin (read mostly)."""

from __future__ import annotations

from django.contrib import admin

from notifications import delivery, webhooks
from notifications.models import InboundMessage, Notification, WebhookBreaker


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "to_email", "game", "seq", "status", "needs_attention",
                    "attempts", "webhook_status", "created_at")  # fmt: skip
    list_filter = ("needs_attention", "status", "webhook_status", "kind")
    search_fields = ("to_email", "key")
    readonly_fields = ("key", "created_at", "sent_at", "claimed_at", "needs_attention",
                       "last_error", "webhook_status", "webhook_claimed_at", "webhook_attempts",
                       "webhook_sent_at", "webhook_error")  # fmt: skip
    actions = ["send_again"]

    @admin.action(description="Send again (failed rows, once the cause is fixed)")
    def send_again(self, request, queryset):
        count = delivery.send_again(queryset.values_list("pk", flat=True))
        self.message_user(request, f"{count} notification(s) pending again; the sweep sends them.")


@admin.register(WebhookBreaker)
class WebhookBreakerAdmin(admin.ModelAdmin):
    """Whose webhook keeps failing or is paused; resuming is the owner's
    (or, here, a moderator's) fresh start."""

    list_display = ("user", "failures", "paused_at", "last_error")
    list_filter = (("paused_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username",)
    readonly_fields = ("user", "failures", "last_error", "paused_at", "paused_url")
    actions = ["resume"]

    @admin.action(description="Resume (the next notification is posted)")
    def resume(self, request, queryset):
        count = sum(webhooks.resume(user_id) for user_id in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{count} webhook(s) resumed.")


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "received_at", "door", "sender", "game", "status", "reason")
    list_filter = ("status", "door", "reason")
    search_fields = ("message_id", "sender", "subject")
    readonly_fields = [field.name for field in InboundMessage._meta.fields]
