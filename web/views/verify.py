"""The verify page: the game's commitment and head as the viewer may see
them, and a box to paste a head a mail carried, to check it is still the
chain's (games.selectors.verify_record)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.selectors import verify_record
from web import pages
from web.views.common import readable

MAX_PASTE = 400


@require_GET
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    page = readable(lambda: pages.page_for(pk, request.user))
    pasted = request.GET.get("seen", "")[:MAX_PASTE]
    seen = verify_record.parse_seen(pasted) if pasted.strip() else None
    record = verify_record.verification(page.game, page.viewer, seen)
    context = {
        "game": page.game,
        "record": record,
        "pasted": pasted,
        "unreadable": bool(pasted.strip()) and seen is None,
    }
    status = 400 if context["unreadable"] else 200
    return render(request, "web/verify.html", context, status=status)
