"""Logins and sessions refuse suspended accounts as they refuse inactive ones."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend


class CorreoBackend(ModelBackend):
    def user_can_authenticate(self, user) -> bool:
        # Also asked for every request's session (get_user): a suspension
        # ends the sessions the account has open.
        return super().user_can_authenticate(user) and not getattr(user, "suspended", False)
