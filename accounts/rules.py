"""What a new account and its settings must satisfy, in one place for every
door that writes them (the API's serializers, the web pages' forms).

Each check raises Django's ValidationError: forms take it as it is, and DRF
turns it into its own in a serializer's validate_<field>.
"""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator

from accounts.models import User

# \Z, not $: a username never ends in a newline.
USERNAME_PATTERN = r"^[\w.@+-]{1,150}\Z"
USERNAME_HELP = "Up to 150 letters, digits and the characters @ . + - _"

check_username_form = RegexValidator(
    USERNAME_PATTERN, "a username has up to 150 letters, digits and @ . + - _ only"
)


def check_new_username(value: str) -> str:
    """A well-formed name nobody has, in any letter case (so that "Alice" is
    not mistaken for alice in a list of players or a mail)."""
    check_username_form(value)
    if User.objects.filter(username__iexact=value).exists():
        raise ValidationError("that username is taken", code="taken")
    return value


def check_new_password(password: str, *, username: str, email: str) -> str:
    """Django's password validators, judged against the account to be made
    (a password like its username or email is refused)."""
    validate_password(password, User(username=username, email=email))
    return password


def check_webhook_url(value: str) -> str:
    """Blank, or a URL that delivery may POST to (http or https only)."""
    if value and not value.lower().startswith(("http://", "https://")):
        raise ValidationError("the webhook URL must be http or https", code="scheme")
    return value
