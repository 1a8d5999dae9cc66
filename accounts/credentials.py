"""Changing what proves an account is yours: its password and its address.

A stolen API token or a browser left open must not become the account: the
address is where a password reset goes, so whoever changes it owns the
account.  Both changes therefore ask for the current password, end every
API token of the account (a leaked one dies with the change), and tell the
account holder by mail, an address change at the OLD address, so that a
change they did not make does not go unnoticed.

The password part runs from User.save whatever door set the password (the
API, Django's password change and reset pages, the admin), which sends
accounts.signals.password_changed; the address change has two doors, the
API and the settings page, and both call do_change_email, which sends
email_changed.  The mails are the notifications' receivers of those.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.db import transaction

from accounts import tokens, verification
from accounts.models import User
from accounts.signals import email_changed

WRONG_PASSWORD = "the current password is wrong"
NO_PASSWORD = "give your current password to change this"


def password_is_right(request, user: User, password: str | None) -> bool:
    """Whether `password` is the account's current one.  Asked through the
    authentication backends, as a log-in is: a wrong guess counts as a
    failed log-in (and is seen by whatever watches those), and a suspended
    or inactive account proves nothing."""
    if not password:
        return False
    found = authenticate(request, username=user.get_username(), password=password)
    return found is not None and found.pk == user.pk


def check_new_password(user: User, password: str) -> str:
    """Django's password validators, judged against this account (raises
    Django's ValidationError)."""
    password_validation.validate_password(password, user)
    return password


def do_change_password(user: User, password: str) -> None:
    """Set a new password; User.save then sends accounts.signals.password_changed."""
    user.set_password(password)
    user.save(update_fields=["password"])


def end_tokens_on_new_password(sender, user: User, **kwargs) -> None:
    """accounts.signals.password_changed receiver: every token ends, in the
    transaction that stored the password (the mail to the holder is the
    notifications' receiver)."""
    tokens.revoke_all(user)


def do_change_email(user: User, email: str) -> bool:
    """Give the account a new address: every token ends and the old address
    hears of it.  False when the address is the one it has (nothing done)."""
    old = user.email
    if email == old:
        return False
    with transaction.atomic():
        user.email = email
        user.save(update_fields=["email"])
        tokens.revoke_all(user)
        email_changed.send(sender=User, user=user, old_address=old)
        verification.start(user)
    return True
