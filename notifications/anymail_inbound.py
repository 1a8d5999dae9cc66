"""The anymail door: django-anymail turns each provider's inbound webhook into
an AnymailInboundMessage (an email.message.Message) and sends the `inbound`
signal; this receiver hands the message to the same parser as the other doors.

Routes: /anymail/<esp>/inbound/ (see config/urls.py); the provider's webhook
credentials are anymail's (ANYMAIL["WEBHOOK_SECRET"], see anymail's docs).
"""

from __future__ import annotations

from notifications import inbound


def handle_inbound(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    if message is None:
        return
    try:
        raw = message.as_bytes()
    except Exception:
        raw = str(message).encode("utf-8", errors="replace")
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    inbound.receive(raw, door=f"anymail:{esp_name}".lower()[:16], recipients=recipients)


def connect() -> bool:
    try:
        from anymail.signals import inbound as inbound_signal
    except ImportError:
        return False
    inbound_signal.connect(handle_inbound, dispatch_uid="correo-notifications-inbound")
    return True
