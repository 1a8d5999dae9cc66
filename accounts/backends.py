"""Logins and sessions refuse suspended accounts as they refuse inactive ones,
and every password check counts against its account name (accounts.lockout).

Every log-in goes through here: the web form, the admin's, the API's
`POST /api/auth/token/` (each calls django.contrib.auth.authenticate), so
counting in the backend covers them all and any door added later.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from accounts import lockout


class CorreoBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        # Raises LockedOut (a 429) while the name waits, before any password
        # is looked at; ModelBackend already hashes for unknown names too, so
        # the time taken tells nothing either.
        with lockout.attempt(lockout.LOGIN, username) as attempt:
            user = super().authenticate(request, username=username, password=password, **kwargs)
            attempt.succeeded = user is not None
        return user

    async def aauthenticate(self, request, username=None, password=None, **kwargs):
        # ModelBackend's own async variant would skip the count.
        return await sync_to_async(self.authenticate)(
            request, username=username, password=password, **kwargs
        )

    def user_can_authenticate(self, user) -> bool:
        # Also asked for every request's session (get_user): a suspension
        # ends the sessions the account has open.
        return super().user_can_authenticate(user) and not getattr(user, "suspended", False)
