"""The account pages' forms.  Their rules are accounts.rules', the same the
API applies, so a name or a webhook the API refuses is refused here too."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

from accounts import credentials, lockout, rules
from accounts.models import User
from notifications.tasks import ask_password_reset


class SignupForm(forms.Form):
    username = forms.CharField(
        max_length=rules.USERNAME_INPUT_MAX,
        help_text=rules.USERNAME_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    email = forms.EmailField(
        max_length=254,
        help_text="For your turn mails and a lost password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label="Password", strip=False,
        help_text=password_validation.password_validators_help_text_html(),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip
    password2 = forms.CharField(
        label="Password again", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip

    def clean_username(self) -> str:
        return rules.check_new_username(self.cleaned_data["username"])

    def clean(self):
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "the two passwords differ")
        elif first and "username" in data and "email" in data:
            try:
                rules.check_new_password(first, username=data["username"], email=data["email"])
            except ValidationError as error:
                self.add_error("password1", error)
        return data


class SettingsForm(forms.Form):
    notify_mode = forms.ChoiceField(label="Game mail", choices=User.NotifyMode.choices,
                                    widget=forms.RadioSelect)  # fmt: skip
    # A CharField with the URL validator, as the API's URLField: a form's
    # URLField would quietly add a scheme the API insists on.
    webhook_url = forms.CharField(
        label="Webhook URL", required=False, max_length=500, validators=[URLValidator()],
        help_text="Optional: every game notification is also POSTed here as JSON.",
        widget=forms.URLInput(attrs={"placeholder": "https://chat.example.org/hook"}),
    )  # fmt: skip

    every_mail = forms.BooleanField(
        label="Every turn mail at once", required=False,
        help_text="Otherwise no turn mail comes while you have the game's page open, and "
        "turn mails that come close together about one game are gathered into one.",
    )  # fmt: skip
    language = forms.ChoiceField(label="Language of your mail", choices=settings.LANGUAGES)

    def clean_webhook_url(self) -> str:
        return rules.check_webhook_url(self.cleaned_data["webhook_url"])


class EmailChangeForm(forms.Form):
    """A new address, given with the current password: the address is where
    a password reset goes, so an open browser alone must not change it
    (accounts.credentials)."""

    email = forms.EmailField(
        label="New email address", max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )  # fmt: skip
    current_password = forms.CharField(
        label="Your current password", strip=False,
        help_text="Every API token of the account ends with the change, and the old address "
        "is told of it.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )  # fmt: skip

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if email == self.request.user.email:
            raise ValidationError("that is the address the account has already")
        return email

    def clean_current_password(self) -> str:
        password = self.cleaned_data["current_password"]
        if not credentials.password_is_right(self.request, self.request.user, password):
            raise ValidationError(credentials.WRONG_PASSWORD)
        return password


class VacationForm(forms.Form):
    days = forms.IntegerField(label="Days away")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Bounds read when the form is made (settings may change); the
        # service still has the last word, on the days left this year.
        self.fields["days"] = forms.IntegerField(
            label="Days away",
            min_value=settings.CORREO_VACATION_MIN_DAYS,
            max_value=settings.CORREO_VACATION_DAYS_PER_YEAR,
        )


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, its mail queued in the outbox instead of sent
    from the request: delivered, retried and logged as every other mail.

    The form answers the same whether or not the address has an account,
    and takes the same time: the request only counts the address
    (accounts.lockout: past the allowed requests an address waits, a 429)
    and hands it to a worker, which looks it up (notifications.tasks.ask_password_reset).
    """

    def save(self, *args, **kwargs) -> None:
        email = self.cleaned_data["email"]
        with lockout.attempt(lockout.RESET, email):
            ask_password_reset(email)


class LiftingSetPasswordForm(SetPasswordForm):
    """The form behind a reset mail's link: the new password also ends any
    wait on the account's log-ins and reset requests (accounts.lockout).
    Whoever holds the link owns the mailbox, so an attacker who keeps
    failing on purpose cannot keep the owner out."""

    def save(self, commit: bool = True):
        user = super().save(commit)
        lockout.forget(lockout.LOGIN, user.get_username())
        lockout.forget(lockout.RESET, user.email)
        return user
