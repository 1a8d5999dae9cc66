"""Tournaments in the Django admin, to read: every act on one goes through
tournaments.services (the API and the pages), so the admin changes
nothing.  Who may organise is the permission `tournaments.add_tournament`,
given on the account's page of the admin."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    """Read-only with its tournament: Django offers no add, change or delete
    in the inlines of an object the user may only view."""

    model = Entry
    fields = ["user", "dropped", "dropped_in", "created_at"]
    readonly_fields = fields
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "title", "format", "table_size", "rounds", "status", "organiser"]
    list_filter = ["status", "format", "title"]
    inlines = [EntryInline]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
