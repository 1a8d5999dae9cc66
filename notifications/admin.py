"""The outbox and the inbound ledger in the Django admin (read mostly)."""

from __future__ import annotations

from django.contrib import admin

from notifications.models import InboundMessage, Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "to_email", "game", "seq", "status", "attempts", "created_at")
    list_filter = ("status", "kind")
    search_fields = ("to_email", "key")
    readonly_fields = ("key", "created_at", "sent_at", "webhook_sent_at", "claimed_at")


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "received_at", "door", "sender", "game", "status", "reason")
    list_filter = ("status", "door", "reason")
    search_fields = ("message_id", "sender", "subject")
    readonly_fields = [field.name for field in InboundMessage._meta.fields]
