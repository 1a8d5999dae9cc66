"""What a new account and its settings must satisfy, in one place for every
door that writes them (the API's serializers, the web pages' forms, the
admin's user forms, an import's placeholder accounts).

Each check raises Django's ValidationError: forms take it as it is, and DRF
turns it into its own in a serializer's validate_<field>.
"""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db.models import Q

from accounts import bots, usernames
from accounts.models import User

USERNAME_HELP = usernames.HELP
# What a door accepts before the rules judge the normal form: longer than the
# limit, since NFKC may join characters (e + a combining accent is é), never
# long enough to matter.
USERNAME_INPUT_MAX = 4 * usernames.MAX_LENGTH
TAKEN = "that username is taken, or looks the same as one that is"


def check_new_username(value: str, *, instance: User | None = None) -> str:
    """The normal form (NFKC) of a well-made name that no account has, nor one
    it could pass for: the same in any letter case, or with a letter of
    another script that looks the same (Unicode's confusables).  `instance` is
    the account being renamed, whose own name is no obstacle."""
    name = usernames.normal(value)
    if not 1 <= len(name) <= usernames.MAX_LENGTH:
        raise ValidationError(
            "a username has 1 to %(limit)s characters (counted after Unicode normalisation)",
            code="length", params={"limit": usernames.MAX_LENGTH},
        )  # fmt: skip
    refused = sorted({char for char in name if not usernames.is_allowed_character(char)})
    if refused:
        shown = ", ".join(f"U+{ord(char):04X}" for char in refused[:5])
        raise ValidationError(
            "a username has letters, digits and . _ - only, not %(chars)s",
            code="characters", params={"chars": shown},
        )  # fmt: skip
    if not usernames.is_letter_or_digit(name[0]):
        raise ValidationError("a username starts with a letter or a digit", code="start")
    if usernames.longest_run_of_marks(name) > usernames.MAX_MARKS_IN_A_ROW:
        raise ValidationError(
            "a username has at most %(limit)s accents or marks on one letter",
            code="marks", params={"limit": usernames.MAX_MARKS_IN_A_ROW},
        )  # fmt: skip
    if usernames.mixes_scripts(name):
        raise ValidationError(
            "a username is written in one script (not, say, Latin and Cyrillic letters together)",
            code="mixed_script",
        )
    # A person's name may not pass for a bot's ("bot:greedy:0"): a colon is
    # refused, but a letter that looks like one (U+02D0) is not, and a bot
    # account is made on first use, which a look-alike taken before would block.
    if usernames.skeleton(name).startswith(usernames.skeleton(bots.PREFIX)):
        raise ValidationError("that username is kept for Correo's bots", code="reserved")
    others = User.objects.filter(
        Q(username_key=usernames.key(name)) | Q(username_look_key=usernames.look_key(name))
    )
    if instance is not None and instance.pk is not None:
        others = others.exclude(pk=instance.pk)
    if others.exists():
        raise ValidationError(TAKEN, code="taken")
    return name


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
