"""The one error a player sees from an engine: a move the rules refuse.

The error only carries its data: the English message and, for a refusal a
title's catalogue words (``i18n.Words.refuse``), its msgid, values and
catalogue.  Saying it in another language is ``i18n``'s job
(``i18n.said``), so this module imports nothing of the engines and
``i18n`` imports it one way.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """An action the rules do not allow now; the message is shown to the player.

    ``message`` is English.  A refusal made with a title's ``Words.refuse``
    also keeps its msgid (``template``), its values (``params``, plain JSON)
    and the catalogue it is in (``domain``), so a mail can say it in its
    reader's language later; the API answers in English."""

    def __init__(
        self,
        message: str,
        *,
        template: str | None = None,
        params: dict[str, Any] | None = None,
        domain: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = dict(params or {})
        self.domain = domain

    def said(self, language: str | None) -> str:
        """The message in `language`: a plain refusal knows no catalogue, so
        English (``i18n.Refusal``, made by ``Words.refuse``, translates)."""
        return self.message

    def kept(self) -> dict[str, Any]:
        """What a mail's ledger keeps to say it again in another language."""
        if not (self.template and self.domain):
            return {}
        return {"template": self.template, "params": self.params, "domain": self.domain}
