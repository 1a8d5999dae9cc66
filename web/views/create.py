"""Starting a game from the dashboard's form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from games.engines import base
from games.errors import InvalidRequest
from games.selectors import people
from games.services.creation import check_create_game
from web.views.common import attempt, int_or_none


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    def start():
        title = request.POST.get("title", "")
        try:
            engine = base.get(title)
        except KeyError:
            raise InvalidRequest(gettext_noop("unknown title %(title)r"), title=title) from None
        names = [request.user.username, *_names(request.POST.get("players", ""))]
        return check_create_game(
            request.user, title=title, players=people.users_in_order(names),
            options=options_from(engine, request.POST), public="public" in request.POST,
            spectator_delay=int_or_none(request.POST.get("spectator_delay")) or 0,
            clock=clock_from(request.POST), press=request.POST.get("press", "full"),
            reveal_private="reveal_private" in request.POST,
        )  # fmt: skip

    game = attempt(request, start, "Game started.")
    if game is None:
        return redirect("web:home")
    return redirect("web:game", pk=game.pk)


def _names(text: str) -> list[str]:
    """The other players, separated by commas or spaces, in seat order."""
    return [name for name in text.replace(",", " ").split() if name]


def options_from(engine: base.Engine, form) -> dict[str, Any]:
    """The title's options as the form gave them (`<title>-<key>` fields);
    a value outside the title's choices is left for the engine to refuse."""
    options: dict[str, Any] = {}
    for key, spec in engine.OPTIONS.items():
        raw = form.get(f"{engine.NAME}-{key}", "").strip()
        if not raw:
            continue
        choices = spec.get("choices")
        if choices:
            by_text = {str(choice): choice for choice in choices}
            options[key] = by_text.get(raw, raw)
        elif spec.get("type", "").startswith("list[int]"):
            try:
                options[key] = [int(part) for part in raw.replace(",", " ").split()]
            except ValueError:
                raise InvalidRequest(
                    gettext_noop("%(key)s: whole numbers, separated by commas"), key=key
                ) from None
        else:
            options[key] = raw
    return options


def clock_from(form) -> dict[str, Any] | None:
    per_move = form.get("per_move", "").strip()
    if not per_move:
        return None
    clock: dict[str, Any] = {"per_move": per_move}
    on_timeout = form.get("on_timeout", "").strip()
    if on_timeout:
        clock["on_timeout"] = on_timeout
    return clock
