"""Dates and times as a reader reads them.

`{{ value|when }}` writes an instant (a datetime, or the ISO string a
selector gives) as "27 Nov 2026, 05:25 UTC": readable without a script, and
the same on every server.  The page's script (correo.js) then says it in
the reader's own time zone and language, from the `<time datetime>` around
it (`{% when value %}` writes that element whole).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html

register = template.Library()


def _instant(value) -> datetime | None:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and value:
        moment = parse_datetime(value)
        if moment is None:
            return None
    else:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@register.filter
def when(value) -> str:
    moment = _instant(value)
    if moment is None:
        return "" if value in (None, "") else str(value)
    return f"{moment.day} {moment:%b %Y, %H:%M} UTC"


@register.simple_tag(name="when")
def when_tag(value, css: str = ""):
    """`<time datetime=... data-local>27 Nov 2026, 05:25 UTC</time>`."""
    moment = _instant(value)
    if moment is None:
        return when(value)
    return format_html(
        '<time datetime="{}" data-local{}>{}</time>',
        moment.isoformat(),
        format_html(' class="{}"', css) if css else "",
        when(moment),
    )
