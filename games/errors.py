"""The service's typed errors; each knows its API error code and HTTP status."""

from __future__ import annotations

import math

from django.utils.translation import get_language, gettext, gettext_noop

from games.engines.base import IllegalAction


class ServiceError(Exception):
    """``template`` is the English msgid (marked with ``gettext_noop`` where
    it is written, so ``make messages-mail`` finds it) and ``params`` its
    values: the API answers in English, a mail in its reader's language."""

    code = "error"
    status = 400

    def __init__(self, template: str, **params: object) -> None:
        message = template % params if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params


class StaleSeq(ServiceError):
    """The writer's expected seq is not the game's current seq."""

    code = "stale_seq"
    status = 409

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            gettext_noop(
                "the game has moved on: you expected seq %(expected)s, it is now at "
                "%(current)s; reload and try again"
            ),
            expected=expected,
            current=current,
        )
        self.expected = expected
        self.current = current


class NotASeat(ServiceError):
    code = "not_a_seat"
    status = 403


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    status = 409


class Forbidden(ServiceError):
    code = "forbidden"
    status = 403


class GameNotActive(ServiceError):
    code = "game_not_active"
    status = 409


class GameLocked(ServiceError):
    """A moderator locked the game while a dispute is open."""

    code = "game_locked"
    status = 409


class NotConsented(Forbidden):
    """A player named for a game never agreed to play with its creator."""

    code = "no_consent"


class Suspended(ServiceError):
    """The account is suspended by a moderator."""

    code = "suspended"
    status = 403


class RequirementsNotMet(Forbidden):
    """The table asks for a rating or a reliability the player does not have
    (the detail says which, and what they have)."""

    code = "requirements_not_met"


class Conflict(ServiceError):
    """The request is well formed but the thing it names is not in a state for it."""

    code = "conflict"
    status = 409


class TooFast(ServiceError):
    """Over a rate the service keeps whatever the door (messages): `wait`
    seconds until the next window."""

    code = "throttled"
    status = 429

    def __init__(self, template: str, seconds: float, **params: object) -> None:
        super().__init__(template, **params)
        self.wait = max(1, math.ceil(seconds))


class InvalidRequest(ServiceError):
    code = "invalid"
    status = 400


class TooManyGames(InvalidRequest):
    """The account already runs as many games it started as one may at once."""

    code = "too_many_games"


class TooManyTables(InvalidRequest):
    """The account already sits at as many waiting tables as one may."""

    code = "too_many_tables"


class InvalidLink(ServiceError):
    """An invitation link or token that seats nobody: not one this server
    signed, or expired, revoked or already used (the detail says which)."""

    code = "invalid_link"
    status = 403


class ImportRefused(InvalidRequest):
    """A game export that cannot be imported whole (nothing of it is written)."""

    code = "import_refused"


class NotFound(ServiceError):
    """No such game (or nothing else the request names)."""

    code = "not_found"
    status = 404


def describe(error: Exception) -> tuple[str, int, str]:
    """(code, http status, message) for any error the service raises."""
    if isinstance(error, IllegalAction):
        return "illegal_action", 400, error.message
    if isinstance(error, ServiceError):
        return error.code, error.status, error.message
    raise TypeError(f"not a service error: {error!r}")


def in_words(error: IllegalAction | ServiceError) -> str:
    """The refusal in the active language (a page's, a mail's), where its
    catalogue has it: a title's for an engine's, Django's for the service's."""
    if isinstance(error, IllegalAction):
        return error.said(get_language())
    text = gettext(error.template)
    try:
        return text % error.params if error.params else text
    except (KeyError, TypeError, ValueError):
        return error.message


__all__ = [
    "Conflict",
    "Forbidden",
    "GameLocked",
    "GameNotActive",
    "IllegalAction",
    "ImportRefused",
    "InvalidLink",
    "InvalidRequest",
    "NotASeat",
    "NotConsented",
    "NotFound",
    "NotYourTurn",
    "ServiceError",
    "StaleSeq",
    "Suspended",
    "TooFast",
    "TooManyGames",
    "TooManyTables",
    "describe",
    "in_words",
]
