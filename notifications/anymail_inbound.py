"""The anymail door: django-anymail turns each provider's inbound webhook into
an AnymailInboundMessage (an email.message.Message) and sends the `inbound`
signal; this receiver hands the message to the same parser as the other doors.

Routes: /anymail/<esp>/inbound/ (notifications/anymail_urls.py, included by
config/urls.py); a mail that cannot be processed now raises TryAgain through
anymail's view, which those routes answer with 503 and Retry-After.  The
provider's webhook credentials are anymail's (ANYMAIL["WEBHOOK_SECRET"], see
anymail's docs).
"""

from __future__ import annotations

from notifications import inbound


class TryAgain(Exception):
    """Raised through anymail's view to make its provider deliver the mail again."""

    def __init__(self, outcome: inbound.Outcome) -> None:
        super().__init__(outcome.detail)
        self.outcome = outcome


def handle_inbound(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    if message is None:
        return
    door = f"anymail:{esp_name}".lower()[:16]
    try:
        raw = message.as_bytes()
    except (RecursionError, UnicodeError, LookupError) as error:
        # anymail parsed a mail that cannot be written out again
        raw = _headers_only(message)
        why = f"the mail cannot be read: {type(error).__name__}"
        outcome = inbound.refuse(raw, door=door, reason="malformed", message=why)
    else:
        recipients = [message.envelope_recipient] if message.envelope_recipient else []
        outcome = inbound.receive(raw, door=door, recipients=recipients)
    if outcome.retry:
        raise TryAgain(outcome)


def _headers_only(message) -> bytes:
    lines = [f"{name}: {value}" for name, value in message.raw_items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "replace")


def connect() -> bool:
    try:
        from anymail.signals import inbound as inbound_signal
    except ImportError:
        return False
    inbound_signal.connect(handle_inbound, dispatch_uid="correo-notifications-inbound")
    return True
