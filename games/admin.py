"""Games and the moderators' queue in the Django admin.  Rows are read only:
every act is an admin action that calls the game service, as the API does,
with the reason (and seat, player) typed into the action bar."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm

from games.errors import IllegalAction, ServiceError, in_words
from games.models import Game, ModerationItem
from games.services.abort import check_abort
from games.services.clocks import check_lock, check_unlock
from games.services.notes import check_pin_note
from games.services.queue import check_close, check_take
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign


class ModerationActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=500, help_text="reason, note or text")
    seat = forms.IntegerField(required=False, min_value=0, max_value=10)
    username = forms.CharField(required=False, max_length=150, help_text="the new player")


def act_on_each(modeladmin, request, queryset, act: Callable) -> None:
    """`act(row, form data)` for each chosen row; each refusal is reported
    and leaves that row as it was."""
    seat = request.POST.get("seat", "").strip()
    data = {
        "reason": request.POST.get("reason", ""),
        # The service refuses what is not a seat's number (a clear message).
        "seat": int(seat) if seat.isascii() and seat.isdigit() else seat,
        "username": request.POST.get("username", "").strip(),
    }
    done = 0
    for row in queryset:
        try:
            act(row, data)
            done += 1
        except (ServiceError, IllegalAction) as error:
            modeladmin.message_user(request, f"{row}: {in_words(error)}", messages.ERROR)
    if done:
        modeladmin.message_user(request, f"done for {done} of {len(queryset)}")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "status", "seq", "locked", "paused", "flagged", "updated_at")
    list_filter = ("status", "locked", "flagged", "title")
    action_form = ModerationActionForm
    actions = ["lock", "unlock", "abort", "pin_note", "force_resign", "replace_seat"]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Game._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description="Lock (reason)")
    def lock(self, request, queryset):
        act_on_each(
            self,
            request,
            queryset,
            lambda game, d: check_lock(game, request.user, reason=d.get("reason")),
        )

    @admin.action(description="Unlock (reason)")
    def unlock(self, request, queryset):
        act_on_each(
            self,
            request,
            queryset,
            lambda game, d: check_unlock(game, request.user, reason=d.get("reason")),
        )

    @admin.action(description="Abort (reason)")
    def abort(self, request, queryset):
        act_on_each(
            self,
            request,
            queryset,
            lambda game, d: check_abort(game, request.user, reason=d.get("reason")),
        )

    @admin.action(description="Pin a note (reason = the note)")
    def pin_note(self, request, queryset):
        act_on_each(
            self,
            request,
            queryset,
            lambda game, d: check_pin_note(game, request.user, text=d.get("reason")),
        )

    @admin.action(description="Force resignation (seat, reason)")
    def force_resign(self, request, queryset):
        act_on_each(self, request, queryset, lambda game, d: check_force_resign(
            game, request.user, seat=d.get("seat"), reason=d.get("reason")))  # fmt: skip

    @admin.action(description="Replace a seat's player (seat, username, reason)")
    def replace_seat(self, request, queryset):
        act_on_each(self, request, queryset, lambda game, d: check_replace_seat(
            game, request.user, seat=d.get("seat"), username=d.get("username"),
            reason=d.get("reason")))  # fmt: skip


@admin.register(ModerationItem)
class ModerationItemAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "game", "state", "reported_by", "taken_by", "created_at")
    list_filter = ("state", "kind")
    action_form = ModerationActionForm
    actions = ["take", "close"]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in ModerationItem._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Take")
    def take(self, request, queryset):
        act_on_each(self, request, queryset, lambda item, d: check_take(item.pk, request.user))

    @admin.action(description="Close (reason = the note)")
    def close(self, request, queryset):
        act_on_each(
            self,
            request,
            queryset,
            lambda item, d: check_close(item.pk, request.user, note=d.get("reason") or ""),
        )
