"""The lobby, opening a table, a table's page and its acts, and the answers
to invitations (by id from the dashboard, by token from an invitation mail).

Every act goes through the service's check_* as the API's do; a refusal is a
message on a fresh page, never an error page, and the form that opens a
table comes back with what was typed in it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engines import base
from games.errors import IllegalAction, InvalidLink, InvalidRequest, ServiceError, in_words
from games.models import Table
from games.selectors import tables
from games.services.invitations import (
    check_accept_by_token,
    check_accept_invitation,
    check_decline_by_token,
    check_decline_invitation,
    check_invite,
    check_make_link,
    check_revoke_links,
)
from games.services.seat_offers import check_take_seat
from games.services.tables import (
    check_create_table,
    check_join_table,
    check_leave_table,
    check_remove_from_table,
    check_start_table,
)
from web import dashboard
from web.views.common import attempt, int_or_none, readable

LOBBY_PAGE = 25


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    title = request.GET.get("title", "")
    title = title if title in base.available() else ""
    found = tables.with_seats(tables.lobby(request.user, title=title or None))
    page = Paginator(found, LOBBY_PAGE).get_page(request.GET.get("page"))
    return render(request, "web/lobby.html", {
        "page": page, "rows": with_ratings(page), "title": title,
        "titles": dashboard.title_choices(), "offers": tables.seat_offers(request.user),
    })  # fmt: skip


def with_ratings(page) -> list[dict[str, Any]]:
    """The lobby's rows (`tables.listed`, which brings each seated player's
    rating in the table's title; bots have none), each player beside their
    rating as the page shows it (one decimal: formatted here, as the
    template's filter costs a millisecond a page)."""
    rows = tables.listed(page)
    for row in rows:
        row["rated_players"] = [
            {"name": name, "rating": _one_decimal(rating)}
            for name, rating in zip(row["players"], row["ratings"], strict=True)
        ]
    return rows


def _one_decimal(rating: float | None) -> str | None:
    return None if rating is None else f"{rating:.1f}"


@login_required
@require_POST
def take_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Take an offered seat over: the game is yours to play on from there."""
    event = attempt(request, lambda: check_take_seat(pk, request.user, source="web"),
                    "The seat is yours: the game goes on with you.")  # fmt: skip
    if event is None:
        return redirect("web:lobby")
    return redirect("web:game", pk=event.game_id)


@login_required
@require_http_methods(["GET", "POST"])
def new_table(request: HttpRequest) -> HttpResponse:
    """The form that opens a table; after a refusal it comes back with what
    was typed, and the reason."""
    if request.method == "GET":
        return render(request, "web/new_table.html", form_context(None, request.user))
    try:
        table = open_from_form(request.user, request.POST)
    except (IllegalAction, ServiceError) as error:
        messages.error(request, in_words(error))
        return render(
            request, "web/new_table.html", form_context(request.POST, request.user), status=400
        )
    messages.success(request, "Your table is open: hand out its link, or wait in the lobby.")
    if table.status == Table.Status.STARTED:
        return redirect("web:game", pk=table.game_id)
    return redirect("web:table", pk=table.pk)


def open_from_form(user, form) -> Table:
    """Open the table the form describes, then invite whom it names (the
    table and its invitations together, or neither)."""
    from django.db import transaction

    title = form.get("title", "")
    try:
        engine = base.get(title)
    except KeyError:
        raise InvalidRequest(gettext_noop("unknown title %(title)r"), title=title) from None
    least = int_or_none(form.get("min_seats")) or engine.MIN_PLAYERS
    most = int_or_none(form.get("max_seats")) or engine.MAX_PLAYERS
    names = [entry for entry in form.get("invite", "").replace(",", " ").split() if entry]
    with transaction.atomic():
        table = check_create_table(
            user, title=title, seats={"min": least, "max": most},
            options=options_from(engine, form), clock=clock_from(form),
            public="public" in form, open="open" in form,
            seat_order=form.get("seat_order", "random"),
            spectator_delay=int_or_none(form.get("spectator_delay")) or 0,
            press=form.get("press", "full"), reveal_private="reveal_private" in form,
            rated="rated" in form, requirements=requirements_from(form),
            offer_seats="offer_seats" in form, source="web",
        )  # fmt: skip
        if names and table.status == Table.Status.WAITING:
            check_invite(
                table.pk, user, usernames=[n for n in names if "@" not in n],
                emails=[n for n in names if "@" in n],
            )  # fmt: skip
            table.refresh_from_db()
    return table


def requirements_from(form) -> dict[str, Any]:
    """The table's requirements as typed: a blank field asks for nothing; a
    value that is no number is passed on for the service to refuse."""
    wanted: dict[str, Any] = {}
    for name in ("min_rating", "max_timeouts_per_100"):
        raw = form.get(name, "").strip()
        if raw:
            try:
                wanted[name] = float(raw)
            except ValueError:
                wanted[name] = raw
    return wanted


def form_context(typed, user) -> dict[str, Any]:
    """The form's titles and options, filled with what was typed (None: a
    fresh form with the defaults)."""
    titles = titles_typed(typed)
    return {"titles": titles, "typed": typed, "fresh": typed is None,
            "limits": dashboard.creation_limits(user)}  # fmt: skip


def titles_typed(typed) -> list[dict[str, Any]]:
    """The titles to choose from, each option holding what was typed for it
    (None: nothing typed, the defaults show)."""
    titles = dashboard.title_choices()
    if typed is not None:
        for title in titles:
            for option in title["options"]:
                option["value"] = typed.get(f"{title['name']}-{option['key']}", "")
    return titles


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
        elif spec.get("type") == "int":
            number = int_or_none(raw)
            options[key] = number if number is not None else raw
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


@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    token = request.GET.get("token") or None
    found = readable(lambda: tables.visible(pk, request.user, token=token))
    context = table_context(found, request.user, token)
    template = "web/_table.html" if request.htmx else "web/table.html"
    return render(request, template, context)


def table_context(found: Table, user, token: str | None) -> dict[str, Any]:
    detail = tables.detail(found, user)
    invitation = None
    if user.is_authenticated:
        invitation = found.invitations.filter(user=user, status="pending", hidden=False).first()
    can_join = (
        user.is_authenticated and not detail["your_seat"] and detail["status"] == "waiting"
        and detail["free"] > 0 and (found.open or token is not None or invitation is not None)
    )  # fmt: skip
    return {
        "t": detail, "token": token, "invitation": invitation, "can_join": can_join,
        "can_start": detail["host_is_you"] and detail["status"] == "waiting"
        and len(detail["players"]) >= found.min_seats,
        "poll": reverse("web:table", args=[found.pk])
        + (f"?{urlencode({'token': token})}" if token else ""),
    }  # fmt: skip


def _back(request: HttpRequest, pk: int) -> HttpResponse:
    """After an act: the game once the table started (for its players), else the table."""
    found = Table.objects.filter(pk=pk).only("status", "game_id").first()
    started = found is not None and found.status == Table.Status.STARTED and found.game_id
    if started and found.seats.filter(user=request.user).exists():
        return redirect("web:game", pk=found.game_id)
    if found is None or found.status != Table.Status.WAITING:
        return redirect("web:lobby")
    token = request.POST.get("token")
    url = reverse("web:table", args=[pk])
    return redirect(f"{url}?{urlencode({'token': token})}" if token else url)


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    token = request.POST.get("token") or None
    attempt(request, lambda: check_join_table(pk, request.user, token=token, source="web"),
            "You took a seat.")  # fmt: skip
    return _back(request, pk)


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: check_leave_table(pk, request.user), "You left the table.")
    return _back(request, pk)


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    order = request.POST.get("order", "").replace(",", " ").split() or None
    attempt(request, lambda: check_start_table(pk, request.user, order=order, source="web"),
            "The game has started.")  # fmt: skip
    return _back(request, pk)


@login_required
@require_POST
def remove(request: HttpRequest, pk: int) -> HttpResponse:
    username = request.POST.get("username", "")
    attempt(request, lambda: check_remove_from_table(pk, request.user, username),
            f"{username} no longer has a seat.")  # fmt: skip
    return _back(request, pk)


@login_required
@require_POST
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    names = [entry for entry in request.POST.get("invite", "").replace(",", " ").split() if entry]

    def send():
        return check_invite(
            pk, request.user, usernames=[n for n in names if "@" not in n],
            emails=[n for n in names if "@" in n],
        )  # fmt: skip

    attempt(request, send, "Invited.")
    return _back(request, pk)


@login_required
@require_POST
def make_link(request: HttpRequest, pk: int) -> HttpResponse:
    hours = int_or_none(request.POST.get("hours"))
    single = "single_use" in request.POST
    attempt(request, lambda: check_make_link(
        pk, request.user, single_use=single, expires_in=hours * 3600 if hours else None,
    ), "A new link is ready.")  # fmt: skip
    return _back(request, pk)


@login_required
@require_POST
def revoke_links(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: check_revoke_links(pk, request.user),
            "Every link to this table was withdrawn.")  # fmt: skip
    return _back(request, pk)


@login_required
@require_POST
def answer(request: HttpRequest, pk: int, verb: str) -> HttpResponse:
    """Accept or decline one of my invitations (the dashboard's buttons)."""
    if verb not in ("accept", "decline"):
        raise Http404("no such answer")
    if verb == "accept":
        found = attempt(request, lambda: check_accept_invitation(pk, request.user, source="web"),
                        "You took your seat.")  # fmt: skip
        if found is not None:
            return _back(request, found.pk)
    else:
        attempt(request, lambda: check_decline_invitation(pk, request.user), "Declined.")
    return redirect("web:home")


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation mail's link: who invites to what, then sign up (or log
    in) and take the seat, or decline (no account needed)."""
    try:
        found = tables.addressed(token)
    except InvalidLink as error:
        return render(request, "web/invitation.html", {"refused": in_words(error)}, status=404)
    if request.method == "POST":
        if request.POST.get("answer") == "decline":
            if attempt(request, lambda: check_decline_by_token(token), "Declined.") is not None:
                return redirect("web:home" if request.user.is_authenticated else "login")
        elif request.user.is_authenticated:
            seated = attempt(
                request, lambda: check_accept_by_token(token, request.user), "You took your seat."
            )
            if seated is not None:
                return _back(request, seated.pk)
    here = reverse("web:invitation", args=[token])
    return render(request, "web/invitation.html", {
        "invitation": tables.invitation_record(found), "token": token,
        "signup": f"{reverse('web:signup')}?{urlencode({'next': here, 'email': found.email})}",
        "login": f"{reverse('login')}?{urlencode({'next': here})}",
    })  # fmt: skip
