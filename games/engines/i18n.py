"""The titles' own words in the reader's language.

Engines import nothing from Django, so a title's board in words, its
narration, glosses and move headings are translated with the standard
library's gettext: one catalogue per title, compiled to
``<title folder>/locale/<language>/LC_MESSAGES/<domain>.mo`` (``make
messages`` extracts, merges and compiles).  The msgids are the English texts,
so English needs no catalogue and a missing translation reads in English.

The protocol methods take ``language`` explicitly; inside a title the
language is held for the length of one call (``speaking``) so the title's
helpers say ``_("...")`` without passing it down through every function.
A move's line (``text``) is never translated: it is what the player replies
with, and the parser knows one set of words.
"""

from __future__ import annotations

import contextvars
import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import IllegalAction

ENGINES = Path(__file__).resolve().parent
DEFAULT = "en"
# The folders with catalogues: a domain read back from a mail's ledger is
# only ever one of these, never a path.
FOLDERS = frozenset({"havana", "estates", "pointcity", "cuba"})

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=DEFAULT)


def normalise(language: str | None) -> str:
    """Django's ``de-at`` as gettext's ``de_AT``; nothing is English."""
    if not language:
        return DEFAULT
    code, _, region = language.partition("-")
    return f"{code.lower()}_{region.upper()}" if region else code.lower()


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Say every ``Words`` call inside in ``language``."""
    token = _language.set(normalise(language))
    try:
        yield
    finally:
        _language.reset(token)


@lru_cache(maxsize=64)
def catalogue(folder: str, language: str) -> gettext.NullTranslations:
    """The compiled catalogue of a title's folder, or the English msgids."""
    if folder not in FOLDERS:
        return gettext.NullTranslations()
    return gettext.translation(
        folder, localedir=ENGINES / folder / "locale", languages=[language], fallback=True
    )


class Words:
    """One title's catalogue, in the language being spoken.

    ``_ = Words("havana").gettext`` at a module's top; the call looks the
    language up each time, so the module-level name serves every reader."""

    def __init__(self, folder: str) -> None:
        self.folder = folder  # the catalogue's file is named after it too

    def _catalogue(self) -> gettext.NullTranslations:
        return catalogue(self.folder, _language.get())

    def gettext(self, message: str) -> str:
        return self._catalogue().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalogue().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._catalogue().pgettext(context, message)

    def refuse(self, template: str, **params: Any) -> Refusal:
        """An ``IllegalAction`` saying `template` (English, ``{name}``
        placeholders) with `params` (str or int: a mail keeps them as JSON),
        that a mail can say again in its reader's language.  ``raise
        refuse("no building {id} at a row end", id=7)``."""
        return Refusal(
            template.format(**params), template=template, params=params, domain=self.folder
        )


class Refusal(IllegalAction):
    """A refusal in a title's catalogue: it says itself in a language."""

    def said(self, language: str | None) -> str:
        return said(self, language)


def said(error: IllegalAction, language: str | None) -> str:
    """A refusal in `language` where its title's catalogue has it, else its
    English message."""
    return translated(error.domain, error.template, error.params, language) or error.message


def translated(
    domain: str | None, template: str | None, params: dict[str, Any], language: str | None
) -> str | None:
    """A refusal kept as msgid and values, said in `language`; None when it
    was not kept so (an engine's plain English message)."""
    if not domain or not template:
        return None
    words = Words(domain)
    with speaking(language):
        try:
            return words.gettext(template).format(**params)
        except (KeyError, IndexError, ValueError):
            # A catalogue whose placeholders drifted from the msgid's: the
            # English still says it right.
            return template.format(**params)


def N_(message: str) -> str:
    """Mark a text for extraction (an xgettext keyword) where it is written
    as a constant; it is translated where it is said."""
    return message


def language() -> str:
    """The language being spoken (``en`` outside ``speaking``)."""
    return _language.get()
