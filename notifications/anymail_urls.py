"""django-anymail's webhook routes (/anymail/<esp>/...), each view wrapped so
that an inbound mail is never answered 500: 503 with Retry-After when it
cannot be processed now (the provider delivers it again), and a recorded
permanent refusal (200, "rejected") when anymail's own parser breaks on it
(nesting past the stack, text that no codec encodes)."""

from __future__ import annotations

import functools
import hashlib

from anymail import urls
from django.urls import URLPattern

from notifications import inbound
from notifications.anymail_inbound import TryAgain
from notifications.views import inbound_answer

app_name = "anymail"


def _answering(view, esp: str):
    """anymail's `view`, answering TryAgain with 503, and a mail that anymail's
    own parser breaks on (nesting past the stack, text no codec encodes) with
    a recorded permanent refusal."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except TryAgain as again:
            return inbound_answer(again.outcome)
        except (RecursionError, UnicodeError) as error:
            key = hashlib.sha256(request.body).hexdigest()
            raw = f"Message-ID: <provider.{key}@correo.invalid>\r\n\r\n".encode()
            return inbound_answer(inbound.refuse(
                raw, door=f"anymail:{esp}"[:16], reason="malformed",
                message=f"the provider's copy of the mail cannot be read: {type(error).__name__}",
            ))  # fmt: skip

    return wrapped


def _wrapped_patterns() -> list[URLPattern]:
    patterns = []
    for pattern in urls.urlpatterns:
        esp = str(pattern.pattern).split("/")[0].strip("^")
        view = _answering(pattern.callback, esp)
        patterns.append(URLPattern(pattern.pattern, view, pattern.default_args, pattern.name))
    return patterns


urlpatterns = _wrapped_patterns()
