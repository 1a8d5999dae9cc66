"""A seat's standing orders on a page of their own: the orders in words,
the notes of those dropped or lapsed, a form for each kind of order the
title offers, and a cancel beside each.  Only the seat's own player is
shown it; anyone else gets 404, as from the API, whether orders exist or
not.  The game page links here for every seat alike, so nothing another
viewer receives tells whether a seat has orders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Event
from games.selectors import orders as selected
from games.selectors import viewers
from games.services.orders import check_cancel_order, check_write_order
from games.stream.derived import engine_for
from web import orders_form
from web.views.common import attempt, int_or_none, readable


@login_required
@require_http_methods(["GET", "POST"])
def orders(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    seat = readable(lambda: selected.owner_seat(game, request.user))
    if request.method == "POST":
        _write(request, game, seat)
        return redirect("web:orders", pk=pk)
    mine = selected.for_owner(game, engine_for(game), seat)
    programmes = [{**p, "inputs": orders_form.fields_for(p)} for p in mine["programmes"]]
    context = {"game": game, "seat": seat, "orders": mine["orders"], "notes": mine["notes"],
               "programmes": programmes, "running": game.status == game.Status.ACTIVE}  # fmt: skip
    response = render(request, "web/orders.html", context)
    response["Cache-Control"] = "no-store"  # one player's own, never kept by a browser or proxy
    return response


# What became of an order just written, when it is more than "written".
BECAME_OF = {
    selected.PLAYED_AND_STANDING: (
        "It was your turn: order {id} was played at once, and stands on."
    ),
    selected.PLAYED: "It was your turn: order {id} was played at once.",
    selected.DROPPED: "It was your turn: order {id} was dropped at once (its note says why).",
}


def _write(request: HttpRequest, game, seat: int) -> None:
    kinds = {p["kind"]: p for p in selected.programme_list(engine_for(game))}
    programme = kinds.get(request.POST.get("kind", ""))
    if programme is None:
        messages.error(request, "Choose one of the kinds of order this page offers.")
        return
    try:
        order = orders_form.order_from(programme, request.POST)
    except orders_form.Unreadable as unreadable:
        messages.error(request, str(unreadable))
        return
    before = game.seq
    written = attempt(
        request,
        lambda: check_write_order(game, request.user, order=order, source=Event.Source.WEB),
        "Your order is written.",
    )
    if written is None:
        return
    game.refresh_from_db()
    said = BECAME_OF.get(selected.became_of(game, seat, written["id"], before))
    if said:
        messages.info(request, said.format(id=written["id"]))


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel one order (`id`), or all of the seat's (`id=all`)."""
    game = readable(lambda: viewers.game(pk))
    readable(lambda: selected.owner_seat(game, request.user))
    asked = request.POST.get("id", "")
    number = None if asked == "all" else int_or_none(asked)
    if number is None and asked != "all":
        messages.error(request, "Say which order to cancel.")
        return redirect("web:orders", pk=pk)
    attempt(
        request,
        lambda: check_cancel_order(game, request.user, number=number),
        "Cancelled." if number is not None else "All your orders are cancelled.",
    )
    return redirect("web:orders", pk=pk)
