"""The custom user model, in place from the first migration."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player; `is_moderator` grants audit and undo on every game."""

    email = models.EmailField("email address", blank=True)
    is_moderator = models.BooleanField(
        default=False,
        help_text="Moderators may audit any game's events and undo by appending events.",
    )
