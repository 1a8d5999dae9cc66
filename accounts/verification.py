"""Email verification: an account's address is confirmed before game mail
goes to it.

A sign-up starts unverified and is sent a signed link (`token_for`); the
link's token names the account and the address it was made for, so it
stops working once the address changes, and is refused after
VERIFY_DAYS.  An invitation by mail that the account followed also proves
the address (games.services.invitations).
"""

from __future__ import annotations

from django.core import signing

SALT = "correo.accounts.verify-email"
VERIFY_DAYS = 7


def start(user) -> None:
    """The address is unconfirmed from now: no game mail goes to it until
    the link the account is sent has been followed."""
    from accounts.signals import email_to_verify

    if user.email_verified:
        user.email_verified = False
        user.save(update_fields=["email_verified"])
    if user.email:
        email_to_verify.send(sender=type(user), user=user)


def token_for(user, email: str | None = None) -> str:
    """The link's token for `email` (the account's address unless given: a
    mail names the address it went to, so that a link sent to an older
    address never confirms a newer one)."""
    address = (email if email is not None else user.email).lower()
    return signing.dumps({"user": user.pk, "email": address}, salt=SALT)


def user_for(token: object):
    """The account a valid, fresh token verifies, or None."""
    from accounts.models import User

    if not isinstance(token, str) or len(token) > 300:
        return None
    try:
        value = signing.loads(token, salt=SALT, max_age=VERIFY_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict):
        return None
    user = User.objects.filter(pk=value.get("user"), is_active=True).first()
    if user is None or user.email.lower() != value.get("email"):
        return None
    return user


def mark_verified(user) -> None:
    if not user.email_verified:
        user.email_verified = True
        user.save(update_fields=["email_verified"])
