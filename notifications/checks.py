"""Start-up checks of the mail's settings (Django's check framework): a
base URL that is missing or cannot be a link is said when the server
starts (`runserver`, `check`, `migrate`), rather than every mail quietly
linking to http://127.0.0.1:8000."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.compatibility)
def base_url(app_configs=None, **kwargs) -> list[Warning]:
    url = settings.CORREO_BASE_URL
    if not getattr(settings, "CORREO_BASE_URL_GIVEN", True):
        return [
            Warning(
                f"CORREO_BASE_URL is not set: links in mails point at {url}.",
                hint="Set CORREO_BASE_URL to the address players open (make run sets it "
                "from PORT).",
                id="notifications.W001",
            )
        ]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [
            Warning(
                f"CORREO_BASE_URL {url!r} is not an http(s) address: "
                "links in mails will not work.",
                hint="Give the scheme and host, e.g. https://correo.example.org",
                id="notifications.W002",
            )
        ]
    hosts = settings.ALLOWED_HOSTS
    if "*" not in hosts and not any(
        parts.hostname == h.strip("[]") or (h.startswith(".") and parts.hostname.endswith(h))
        for h in hosts
    ):
        return [
            Warning(
                f"CORREO_BASE_URL's host {parts.hostname!r} is not in ALLOWED_HOSTS: "
                "links in mails would be refused.",
                hint="Add the host to ALLOWED_HOSTS or correct CORREO_BASE_URL.",
                id="notifications.W003",
            )
        ]
    return []
