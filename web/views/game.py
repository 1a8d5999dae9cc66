"""The game page: the board as the viewer's seat sees it, the moves, the log."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from games.errors import InvalidRequest
from games.selectors import viewers
from games.services.moves import check_submit_action_by_id
from games.services.queue import check_report
from games.services.rematch import check_rematch
from games.services.takeback import check_answer_takeback, check_request_takeback
from notifications import pacing
from tournaments import selectors as tournaments
from web import moves, pages
from web.views.common import attempt, int_or_none, readable


@require_GET
def game(request: HttpRequest, pk: int) -> HttpResponse:
    page = readable(
        lambda: pages.page_for(pk, request.user, at=int_or_none(request.GET.get("at")))
    )
    _at_the_table(request, page)
    if request.htmx:
        return _render(request, "web/_game.html", page)
    # Read for the whole page only: the polled part never shows it.
    return _render(request, "web/game.html", page, tournament=tournaments.of_game(pk))


@require_GET
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """Polled by the page: 204 (htmx leaves the page alone) while the
    viewer's ETag is unchanged, else the fresh game."""
    page = readable(lambda: pages.page_for(pk, request.user))
    _at_the_table(request, page)
    if pages.etag(page) == request.GET.get("etag"):
        return HttpResponse(status=204, headers={"ETag": pages.etag(page)})
    return _render(request, "web/_game.html", page)


@login_required
@require_POST
def move(request: HttpRequest, pk: int) -> HttpResponse:
    seq = int_or_none(request.POST.get("seq"))
    text = request.POST.get("text", "").strip() or None

    def submit():
        if seq is None:
            raise InvalidRequest(gettext_noop("the form carried no seq; reload the page"))
        try:
            action = moves.decode(
                request.POST.get("action"), request.POST.get("field"), request.POST.get("number"),
                posted=request.POST,
            )  # fmt: skip
        except moves.BadNumber:
            raise InvalidRequest(gettext_noop("give a whole number")) from None
        if action is None and text is None:
            raise InvalidRequest(gettext_noop("choose a move"))
        return check_submit_action_by_id(
            pk, request.user, action=action, text=None if action else text,
            expected_seq=seq, source="web",
        )  # fmt: skip

    attempt(request, submit, "Move made.")
    return _after_write(request, pk)


@login_required
@require_POST
def takeback(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    seq = int_or_none(request.POST.get("seq"))
    answer = request.POST.get("answer")

    def write():
        if seq is None:
            raise InvalidRequest(gettext_noop("the form carried no seq; reload the page"))
        if answer:
            return check_answer_takeback(
                game, request.user, answer=answer, expected_seq=seq, source="web"
            )
        return check_request_takeback(game, request.user, expected_seq=seq, source="web")

    done = f"Takeback {answer}d." if answer in ("approve", "refuse") else "Takeback requested."
    attempt(request, write, done)
    return _after_write(request, pk)


def _at_the_table(request: HttpRequest, page: pages.GamePage) -> None:
    """A player with the game's page open gets no turn mail for it meanwhile
    (notifications.pacing): each view and poll says they are here."""
    if page.viewer.seat is not None:
        pacing.seen(page.game.pk, request.user.pk)


@login_required
@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of an ended game opens a table for a rematch."""
    game = readable(lambda: viewers.game(pk))
    table = attempt(request, lambda: check_rematch(game, request.user),
                    "Your rematch table is open: each player is asked again.")  # fmt: skip
    if table is None:
        return redirect("web:game", pk=pk)
    return redirect("web:table", pk=table.pk)


@login_required
@require_POST
def report(request: HttpRequest, pk: int) -> HttpResponse:
    """Anyone who may see the game reports it to the moderators (as by the
    API, or by mail with `report <reason>`)."""
    game = readable(lambda: viewers.game(pk))
    reason = request.POST.get("reason", "")
    attempt(request, lambda: check_report(game, request.user, reason=reason),
            "Thank you: the moderators will look at this game.")  # fmt: skip
    return redirect("web:game", pk=pk)


def _after_write(request: HttpRequest, pk: int) -> HttpResponse:
    """The fresh game (for htmx), or the game page again (post/redirect/get)."""
    if request.htmx:
        return _render(
            request, "web/_game.html", readable(lambda: pages.page_for(pk, request.user))
        )
    return redirect("web:game", pk=pk)


def _render(request: HttpRequest, template: str, page: pages.GamePage, **extra) -> HttpResponse:
    response = render(request, template, {**pages.context(page), **extra})
    response["ETag"] = pages.etag(page)
    response["Vary"] = "Cookie, HX-Request"
    # no-store: Back and Forward must fetch the game again, never show a
    # copy (the whole page or the htmx partial at the same address) older
    # than the state the reader left.
    response["Cache-Control"] = "private, no-store"
    return response
