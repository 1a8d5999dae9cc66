"""The custom user model, in place from the first migration."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models, transaction
from django.utils import timezone

from accounts import usernames


class CorreoUserManager(UserManager):
    def get_by_natural_key(self, username):
        """The account a log-in names, in any letter case and after Unicode
        normalisation (sign-up refuses names that differ only so).  Every
        log-in goes through here: the web's, the admin's and the API's token
        (Django's ModelBackend).  The exact name wins: accounts made before
        the rules may share a folded name, and each still logs in by its own.
        At most two rows come back (the exact name, and the one account
        whose name has this skeleton: the key column is unique)."""
        if not isinstance(username, str):
            return super().get_by_natural_key(username)
        wanted = usernames.folded(username)
        found = list(
            self.filter(
                models.Q(username=username) | models.Q(username_key=usernames.key(username))
            )[:2]
        )
        for user in found:
            if user.username == username:
                return user
        for user in found:
            if usernames.folded(user.username) == wanted:
                return user
        raise self.model.DoesNotExist(f"no account named {username!r}")


class User(AbstractUser):
    """A player; `is_moderator` grants audit and undo on every game."""

    # The digests of the name's skeletons (accounts.usernames), unique: two
    # names that would pass for each other (a letter case, a look-alike
    # letter of another script, a capital I for a small L) cannot both be
    # taken, even by sign-ups at the same moment.  Set on every save from the
    # username.  Accounts that were twins before these columns keep their
    # key with "#<id>" after the digest.
    # Django's own, without its validator (letters, digits and @ . + - _,
    # no combining marks): the rules (accounts.rules) judge a new name at
    # every door that makes one, the admin's included, and a name from before
    # them stays editable in the admin as it is.
    username = models.CharField(
        "username", max_length=usernames.MAX_LENGTH, unique=True, help_text=usernames.HELP,
        error_messages={"unique": "A user with that username already exists."},
    )  # fmt: skip
    username_key = models.CharField(max_length=100, unique=True, editable=False)
    username_look_key = models.CharField(max_length=100, unique=True, editable=False)
    email = models.EmailField("email address", blank=True)
    is_moderator = models.BooleanField(
        default=False,
        help_text="Moderators may audit any game's events and undo by appending events.",
    )

    class NotifyMode(models.TextChoices):
        EVERY_TURN = "every_turn", "a mail for every turn"
        DAILY_DIGEST = "daily_digest", "one daily digest"
        OFF = "off", "no mail"

    notify_mode = models.CharField(
        max_length=16,
        choices=NotifyMode.choices,
        default=NotifyMode.EVERY_TURN,
        help_text="How game notifications reach this player by mail.",
    )
    # Every mail at once: no holding back while at the game's page, and no
    # gathering of turn mails that come close together (notifications.pacing).
    every_mail = models.BooleanField(
        default=False,
        help_text="Send each turn mail at once, even while this player is at the game's page.",
    )
    webhook_url = models.URLField(
        blank=True,
        max_length=500,
        help_text="Optional: notifications are also POSTed here as JSON (for chat tools).",
    )
    # Mirrors an open Suspension, so that every login and token check reads
    # it with the user row instead of asking for the suspension.
    suspended = models.BooleanField(
        default=False, help_text="Suspended by a moderator: no login, no API, no mail."
    )
    # The built-in player this account is (accounts.bots), blank for a person.
    bot = models.CharField(
        max_length=16,
        blank=True,
        default="",
        choices=[("random", "random bot"), ("greedy", "greedy bot")],
        help_text="Blank for a person; else the built-in bot that plays this account's seats.",
    )
    # Whether the address is known to reach the account holder: game mail
    # goes only to a verified address (notifications.outbox).  A sign-up
    # starts unverified and verifies by a signed link (accounts.verification);
    # accounts made otherwise (by the admin, a moderator's script, before
    # verification existed) were made by someone who vouched for the address.
    email_verified = models.BooleanField(
        default=True, help_text="The address was confirmed (game mail goes only to such)."
    )
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default="en",
        help_text="The language of this player's mail.",
    )

    objects = CorreoUserManager()

    def save(self, *args, **kwargs):
        self._keep_username_keys(kwargs)
        # A new password ends every API token of the account and tells its
        # holder, whichever door set it: the API, the password change and
        # reset pages, the admin, manage.py changepassword.  Hash upgrades at
        # log-in are no change: Django saves them with _password cleared.
        changed = self._password is not None and not self._state.adding
        if not changed:
            return super().save(*args, **kwargs)
        from accounts.signals import password_changed

        with transaction.atomic():
            super().save(*args, **kwargs)
            password_changed.send(sender=User, user=self)
        return None

    def _keep_username_keys(self, kwargs: dict) -> None:
        """The name's two digests follow the name (a save of other fields,
        such as a log-in's last_login, leaves them be)."""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" not in update_fields:
            return
        changed = []
        for field, digest in (("username_key", usernames.key),
                              ("username_look_key", usernames.look_key)):  # fmt: skip
            wanted = digest(self.username)
            # A twin's key kept from before the columns still names its username.
            if not getattr(self, field).startswith(wanted):
                setattr(self, field, wanted)
                changed.append(field)
        if changed and update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *changed}


class Suspension(models.Model):
    """A moderator's suspension of an account: who, why, when, and when and
    by whom it was lifted (null while it holds)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="suspensions")
    reason = models.CharField(max_length=500)
    suspended_by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    lift_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(lifted_at__isnull=True),
                name="suspension_one_open_per_user",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        state = "lifted" if self.lifted_at else "open"
        return f"{self.user} suspended {self.created_at:%Y-%m-%d} ({state})"


class ApiToken(models.Model):
    """One of an account's API tokens (`Authorization: Token <key>`).

    Only the SHA-256 of the key is stored: a copy of the database (a
    backup, a dump for a bug report) holds no key that would open an
    account.  The key is 160 random bits, so a plain hash is enough; a slow
    password hash would only slow down every request.  `prefix` is the
    key's first characters, which the owner sees in the list to tell their
    tokens apart; the rest of the key stays secret.

    A token expires CORREO_TOKEN_TTL_DAYS after it was last used (or made),
    so `expires` follows from `last_used` rather than being stored: a
    change of the setting applies to every token at once.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, help_text="The owner's word for it.")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex.")
    prefix = models.CharField(max_length=8, help_text="The key's first characters.")
    created = models.DateTimeField(default=timezone.now)
    # Written at most once per accounts.tokens.TOUCH_EVERY, not per request.
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… {self.name}".rstrip()

    @property
    def expires(self) -> datetime.datetime:
        days = settings.CORREO_TOKEN_TTL_DAYS
        return (self.last_used or self.created) + datetime.timedelta(days=days)


class Block(models.Model):
    """One account's block of another: the blocked account cannot invite
    the blocker, join a table where the blocker sits, or see such a table
    in the lobby, and the blocker does not see the blocked account's tables
    either.  Private: nobody but the blocker is ever told of it."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked_idx")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"
