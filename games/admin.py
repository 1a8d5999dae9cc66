"""Games and the moderators' queue in the Django admin.  Rows are read only:
every act is an admin action that calls the game service, as the API does,
with the reason (and seat, player or bot) typed into the action bar; a game
is exported by an action and imported on a page of its own."""

from __future__ import annotations

import json
from collections.abc import Callable

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from accounts.bots import KINDS
from games.audit import exchange
from games.audit.exchange import imported_lines
from games.errors import IllegalAction, ServiceError, in_words
from games.models import Game, ModerationItem
from games.selectors import viewers
from games.services.abort import check_abort
from games.services.bots import check_hand_to_bot
from games.services.clocks import check_lock, check_unlock
from games.services.importing import check_import_game
from games.services.notes import check_pin_note
from games.services.queue import check_close, check_take
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign


class ModerationActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=500, help_text="reason, note or text")
    seat = forms.IntegerField(required=False, min_value=0, max_value=10)
    username = forms.CharField(required=False, max_length=150, help_text="the new player")
    bot = forms.ChoiceField(required=False, choices=[("", "bot"), *((k, k) for k in KINDS)])


def act_on_each(modeladmin, request, queryset, act: Callable) -> None:
    """`act(row, form data)` for each chosen row; each refusal is reported
    and leaves that row as it was."""
    seat = request.POST.get("seat", "").strip()
    data = {
        "reason": request.POST.get("reason", ""),
        # The service refuses what is not a seat's number (a clear message).
        "seat": int(seat) if seat.isascii() and seat.isdigit() else seat,
        "username": request.POST.get("username", "").strip(),
        "bot": request.POST.get("bot", ""),
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


def game_action(description: str, act: Callable, **fields: str):
    """An admin action doing `act(game, moderator, **{arg: the action bar's
    field})` (a service's check_*) on each chosen game."""

    @admin.action(description=description)
    def action(modeladmin, request, queryset):
        def one(game, data):
            return act(game, request.user, **{arg: data.get(key) for arg, key in fields.items()})

        act_on_each(modeladmin, request, queryset, one)

    return action


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "status", "seq", "locked", "paused", "flagged", "updated_at")
    list_filter = ("status", "locked", "flagged", "imported_unverified", "title")
    action_form = ModerationActionForm
    actions = ["lock", "unlock", "abort", "pin_note", "force_resign", "replace_seat",
               "hand_to_bot", "export"]  # fmt: skip
    change_list_template = "admin/games/game/change_list.html"

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Game._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    lock = game_action("Lock (reason)", check_lock, reason="reason")
    unlock = game_action("Unlock (reason)", check_unlock, reason="reason")
    abort = game_action("Abort (reason)", check_abort, reason="reason")
    pin_note = game_action("Pin a note (reason = the note)", check_pin_note, text="reason")
    force_resign = game_action(
        "Force resignation (seat, reason)", check_force_resign, seat="seat", reason="reason"
    )
    replace_seat = game_action(
        "Replace a seat's player (seat, username, reason)", check_replace_seat,
        seat="seat", username="username", reason="reason",
    )  # fmt: skip
    hand_to_bot = game_action(
        "Hand a seat to a bot (seat, bot, reason)", check_hand_to_bot,
        seat="seat", kind="bot", reason="reason",
    )  # fmt: skip

    @admin.action(description="Export (one game, as JSON)")
    def export(self, request, queryset):
        if len(queryset) != 1:
            self.message_user(request, "export one game at a time", messages.ERROR)
            return None
        game = queryset[0]
        document = exchange.export(game, viewers.viewer_of(game, request.user))
        response = HttpResponse(json.dumps(document), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
        return response

    def get_urls(self):
        page = self.admin_site.admin_view(self.import_page)
        return [path("import/", page, name="games_game_import"), *super().get_urls()]

    def import_page(self, request):
        """A complete export uploaded, with the same choices as import_game."""
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                game = check_import_game(
                    request.user, form.cleaned_data["document"],
                    mapping=form.cleaned_data["mapping"],
                    placeholders=form.cleaned_data["placeholders"],
                    accept_unverified_seals=form.cleaned_data["accept_unverified_seals"],
                )  # fmt: skip
            except ServiceError as error:
                form.add_error(None, in_words(error))
            else:
                for line in imported_lines(game):
                    self.message_user(request, line)
                return redirect("admin:games_game_change", game.pk)
        context = {**self.admin_site.each_context(request), "form": form,
                   "title": "Import a game", "opts": self.model._meta}  # fmt: skip
        return TemplateResponse(request, "admin/games/game/import.html", context)


class ImportForm(forms.Form):
    document = forms.FileField(help_text="a complete export (docs/export-format.md)")
    mapping = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text="one old=new per line: the export's account, this server's",
    )  # fmt: skip
    placeholders = forms.BooleanField(
        required=False, help_text="an inactive account for each account not mapped"
    )
    accept_unverified_seals = forms.BooleanField(
        required=False,
        help_text="also a document whose seals this server cannot check (another server's "
        "key, or none): nothing then vouches for its events, and the game is marked "
        "imported unverified for good",
    )

    def clean_document(self):
        upload = self.cleaned_data["document"]
        if upload.size > settings.CORREO_IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                f"larger than {settings.CORREO_IMPORT_MAX_BYTES} bytes (CORREO_IMPORT_MAX_BYTES)"
            )
        try:
            return json.loads(upload.read().decode())
        except (UnicodeDecodeError, ValueError):
            raise forms.ValidationError("not a JSON document") from None

    def clean_mapping(self):
        pairs = [
            line.strip() for line in self.cleaned_data["mapping"].splitlines() if line.strip()
        ]
        if any(line.count("=") != 1 for line in pairs):
            raise forms.ValidationError("one old=new per line")
        return dict(line.split("=") for line in pairs)


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
