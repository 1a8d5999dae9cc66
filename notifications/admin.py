"""The outbox and the inbound ledger in the Django admin (read mostly)."""

from __future__ import annotations

from django.contrib import admin

from notifications import delivery
from notifications.models import InboundMessage, Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "to_email", "game", "seq", "status", "needs_attention",
                    "attempts", "created_at")  # fmt: skip
    list_filter = ("needs_attention", "status", "kind")
    search_fields = ("to_email", "key")
    readonly_fields = ("key", "created_at", "sent_at", "webhook_sent_at", "claimed_at",
                       "needs_attention", "last_error")  # fmt: skip
    actions = ["send_again"]

    @admin.action(description="Send again (failed rows, once the cause is fixed)")
    def send_again(self, request, queryset):
        count = delivery.send_again(queryset.values_list("pk", flat=True))
        self.message_user(request, f"{count} notification(s) pending again; the sweep sends them.")


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "received_at", "door", "sender", "game", "status", "reason")
    list_filter = ("status", "door", "reason")
    search_fields = ("message_id", "sender", "subject")
    readonly_fields = [field.name for field in InboundMessage._meta.fields]
