"""Thin HTTP views of tables (games being gathered), invitations,
rematches and players' profiles: parse, call the service's check_* or a selector, shape the answer
(games.selectors.tables)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import schema
from games.api import serializers as s
from games.selectors import profile, tables, viewers
from games.services.invitations import (
    check_accept_invitation,
    check_decline_invitation,
    check_invite,
    check_make_link,
    check_revoke_links,
)
from games.services.rematch import check_rematch
from games.services.seat_offers import check_offer_seat, check_take_seat, check_withdraw_offer
from games.services.tables import (
    check_create_table,
    check_join_table,
    check_leave_table,
    check_remove_from_table,
    check_start_table,
)
from ops.throttling import CreateRateThrottle, CreationThrottled


class TablesPagination(PageNumberPagination):
    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100


def _detail(request, pk: int, status_code: int = status.HTTP_200_OK) -> Response:
    table = tables.visible(pk, request.user)
    return Response(tables.detail(table, request.user), status=status_code)


class TablesView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="The lobby: waiting tables with free seats, newest first",
        operation_id="tables_list",
        parameters=[
            OpenApiParameter("title", str, description="only tables of this title"),
            OpenApiParameter(
                "open", bool,
                description="only the open tables with free seats (else mine and the "
                "tables I am invited to as well)",
            ),
            OpenApiParameter("page", {"type": "integer", "minimum": 1}),
            OpenApiParameter(
                "page_size", {"type": "integer", "minimum": 1},
                description="25 unless given; 100 at most",
            ),
        ],
        responses={200: schema.TABLE_PAGE},
    )  # fmt: skip
    def get(self, request):
        query = s.validated(s.TablesQuery, request.query_params)
        found = tables.lobby(request.user, title=query.get("title"), open_only=query["open"])
        paginator = TablesPagination()
        page = paginator.paginate_queryset(tables.with_seats(found), request, self)
        return paginator.get_paginated_response(tables.listed(page))

    @extend_schema(
        summary="Open a table; the host takes its first seat",
        description="The answer carries `invite_url`, the page link to hand out, and its "
        "`invite_token` (what `join` takes as `{token}`).",
        request=s.CreateTableIn,
        responses={201: schema.TABLE},
    )
    def post(self, request):
        starts = CreateRateThrottle()
        if not starts.allow_request(request, self):
            raise CreationThrottled(starts.wait())
        data = s.validated(s.CreateTableIn, request.data)
        table = check_create_table(request.user, **data)
        return _detail(request, table.pk, status.HTTP_201_CREATED)


class TableView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A table as the requester may see it",
        description="An unlisted table is found by its players, its invitees, moderators, "
        "and with `token` (a link's) by anyone.",
        parameters=[OpenApiParameter("token", str, description="a link's invite_token")],
        responses={200: schema.TABLE},
    )
    def get(self, request, pk: int):
        query = s.validated(s.TableQuery, request.query_params)
        table = tables.visible(pk, request.user, token=query.get("token"))
        return Response(tables.detail(table, request.user))


class TableJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Take a seat (an open table, a link's token, or my invitation)",
        description="The seat that fills the table starts its game (`game` in the answer).",
        request=s.JoinIn,
        responses={200: schema.TABLE},
    )
    def post(self, request, pk: int):
        data = s.validated(s.JoinIn, request.data)
        check_join_table(pk, request.user, token=data.get("token"))
        return _detail(request, pk)


class TableLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Leave a table before its game starts",
        request=None,
        responses={200: schema.TABLE},
    )
    def post(self, request, pk: int):
        s.validated(s.EmptyIn, request.data)
        table = check_leave_table(pk, request.user)
        return Response(tables.detail(tables.table(table.pk), request.user))


class TableStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The host starts the game once the minimum is seated",
        request=s.StartIn,
        responses={200: schema.TABLE},
    )
    def post(self, request, pk: int):
        data = s.validated(s.StartIn, request.data)
        check_start_table(pk, request.user, order=data.get("order"))
        return _detail(request, pk)


class TableRemoveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The host removes a seated player before the start",
        request=s.RemoveIn,
        responses={200: schema.TABLE},
    )
    def post(self, request, pk: int):
        data = s.validated(s.RemoveIn, request.data)
        check_remove_from_table(pk, request.user, data["username"])
        return _detail(request, pk)


class TableInviteView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The host invites accounts by name and people by address",
        description="Each invitee hears of it by mail and answers it (accept takes the "
        "seat); an address without an account gets a link that leads to sign-up. "
        "`bot:random` or `bot:greedy` among the usernames seats a bot at once.",
        request=s.InviteIn,
        responses={201: schema.TABLE},
    )
    def post(self, request, pk: int):
        data = s.validated(s.InviteIn, request.data)
        check_invite(pk, request.user, usernames=data["usernames"], emails=data["emails"])
        return _detail(request, pk, status.HTTP_201_CREATED)


class TableLinksView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The host makes another link to hand out (single-use, expiring)",
        request=s.LinkIn,
        responses={201: schema.LINK},
    )
    def post(self, request, pk: int):
        data = s.validated(s.LinkIn, request.data)
        link = check_make_link(
            pk, request.user, single_use=data["single_use"], expires_in=data.get("expires_in")
        )
        return Response(tables.link_record(link), status=status.HTTP_201_CREATED)


class TableRevokeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The host revokes a link, or every link of the table",
        request=s.RevokeIn,
        responses={200: schema.REVOKED},
    )
    def post(self, request, pk: int):
        data = s.validated(s.RevokeIn, request.data)
        revoked = check_revoke_links(pk, request.user, token=data.get("token"))
        return Response({"revoked": revoked})


class InvitationsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="My invitations, newest first (pending unless all=1)",
        parameters=[OpenApiParameter("all", bool, description="answered ones too")],
        responses={200: schema.INVITATIONS},
    )
    def get(self, request):
        query = s.validated(s.InvitationsQuery, request.query_params)
        found = tables.invitations_for(request.user, pending_only=not query["all"])
        return Response({"invitations": found})


class AcceptView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Accept an invitation: take the seat",
        request=s.EmptyIn,
        responses={200: schema.TABLE},
    )
    def post(self, request, pk: int):
        s.validated(s.EmptyIn, request.data)
        table = check_accept_invitation(pk, request.user)
        return _detail(request, table.pk)


class DeclineView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Decline an invitation",
        request=s.EmptyIn,
        responses={200: schema.INVITATION},
    )
    def post(self, request, pk: int):
        s.validated(s.EmptyIn, request.data)
        invitation = check_decline_invitation(pk, request.user)
        return Response(tables.invitation_record(invitation))


class RematchView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="A player of an ended game opens a table for a rematch",
        description="The same title, options, clock and players; each other player is "
        "invited and must accept (bots are seated at once). The table is unlisted; its "
        "seats are rotated by one unless `order` says otherwise.",
        request=s.RematchIn,
        responses={201: schema.TABLE},
    )
    def post(self, request, pk: int):
        data = s.validated(s.RematchIn, request.data)
        table = check_rematch(viewers.game(pk), request.user, order=data["order"])
        return _detail(request, table.pk, status.HTTP_201_CREATED)


class UserView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A player's public profile",
        description="Member since, games played, finished and won per title, current public "
        "games, and reliability as the event log shows it: moves made, timeouts per 100 "
        "moves, the median time to move with vacations and server outages left out.",
        responses={200: schema.PROFILE},
    )
    def get(self, request, username: str):
        return Response(profile.profile(profile.account(username)))


class OfferSeatView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Moderators: offer a seat of a running public game in the lobby",
        description="Whoever takes it over gets the seat as `replace-seat` gives it (clock, "
        "turn order and view go with it).",
        request=s.OfferSeatIn,
        responses={201: schema.SEAT_OFFER},
    )
    def post(self, request, pk: int):
        data = s.validated(s.OfferSeatIn, request.data)
        offer = check_offer_seat(
            viewers.game(pk), request.user, seat=data["seat"], reason=data["reason"]
        )
        return Response({"id": offer.pk, "game": offer.game_id, "seat": offer.seat},
                        status=status.HTTP_201_CREATED)  # fmt: skip


class SeatOffersView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Seats of running games offered to whoever takes them over",
        responses={200: schema.SEAT_OFFERS},
    )
    def get(self, request):
        return Response({"seats": tables.seat_offers(request.user)})


class TakeSeatView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Take an offered seat over (its clock, turn order and view)",
        request=s.EmptyIn,
        responses={201: dict},
    )
    def post(self, request, pk: int):
        s.validated(s.EmptyIn, request.data)
        event = check_take_seat(pk, request.user)
        return Response({"seq": event.seq, "game": event.game_id}, status=status.HTTP_201_CREATED)


class WithdrawOfferView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Moderators: withdraw a seat's offer", request=s.EmptyIn,
                   responses={200: schema.SEAT_OFFER})  # fmt: skip
    def post(self, request, pk: int):
        s.validated(s.EmptyIn, request.data)
        offer = check_withdraw_offer(pk, request.user)
        return Response({"id": offer.pk, "game": offer.game_id, "seat": offer.seat})
