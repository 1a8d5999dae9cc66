from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from . import rules, tokens
from .models import ApiToken, Suspension, User


class CorreoUserCreationForm(AdminUserCreationForm):
    """A name made in the admin follows the sign-up's rules (accounts.rules)."""

    def clean_username(self) -> str:
        return rules.check_new_username(self.cleaned_data["username"])


class CorreoUserChangeForm(UserChangeForm):
    """A new name given in the admin follows the sign-up's rules; a name kept
    is not judged again (it may predate them)."""

    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        if name == self.instance.username:
            return name
        return rules.check_new_username(name, instance=self.instance)


class ReasonActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=500)


@admin.register(User)
class CorreoUserAdmin(UserAdmin):
    form = CorreoUserChangeForm
    add_form = CorreoUserCreationForm
    list_display = ("username", "email", "is_moderator", "suspended", "is_staff", "is_active")
    list_filter = ("is_moderator", "suspended", "is_staff", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Correo", {"fields": ("is_moderator",)}))
    action_form = ReasonActionForm
    actions = ["suspend", "unsuspend"]

    def _each(self, request, queryset, act) -> None:
        from games.errors import ServiceError, in_words

        reason = request.POST.get("reason", "")
        for user in queryset:
            try:
                act(user, request.user, reason=reason)
            except ServiceError as error:
                self.message_user(request, f"{user}: {in_words(error)}", messages.ERROR)

    @admin.action(description="Suspend (reason)")
    def suspend(self, request, queryset):
        from games.services.suspension import check_suspend

        self._each(request, queryset, check_suspend)

    @admin.action(description="Lift the suspension (reason)")
    def unsuspend(self, request, queryset):
        from games.services.suspension import check_unsuspend

        self._each(request, queryset, check_unsuspend)


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ("user", "reason", "suspended_by", "created_at", "lifted_at", "lifted_by")
    list_filter = ("lifted_at",)

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Suspension._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens as their owners see them (never a key: only its hash is kept);
    staff may revoke them, e.g. every token of an account that leaked one."""

    list_display = ("user", "name", "prefix", "created", "last_used", "expires")
    search_fields = ("user__username", "name", "prefix")
    list_select_related = ("user",)
    exclude = ("digest",)

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in ApiToken._meta.fields if field.name != "digest"]

    def has_add_permission(self, request) -> bool:
        return False  # a token is issued for a password (POST /api/auth/token/)

    def delete_model(self, request, obj) -> None:
        tokens.revoke(obj.user, ApiToken.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset) -> None:
        for user in User.objects.filter(api_tokens__in=queryset).distinct():
            tokens.revoke(user, queryset.filter(user=user))
