import functools

from django.urls import path

from games.api import checkpoints, errors, moderation, orders, tables, talk, views
from ops.keys import LARGEST_ID


def game_view(view_class):
    """The view, answering 404 for an id (a game's, a table's) beyond any key
    without a query.

    A converter of its own would do the same, but it would rename the route
    (`<int:pk>`) that metrics and access logs label requests with.
    """
    view = view_class.as_view()

    @functools.wraps(view)
    def bounded(request, pk: int):
        if pk > LARGEST_ID:
            return errors.not_found(request)
        return view(request, pk=pk)

    return bounded


def bounded(view_class):
    """`game_view` for a route naming more than the game (a message, a seat):
    any number beyond a 64-bit key is no such thing."""
    view = view_class.as_view()

    @functools.wraps(view)
    def within(request, **kwargs):
        if any(value > LARGEST_ID for value in kwargs.values()):
            return errors.not_found(request)
        return view(request, **kwargs)

    return within


urlpatterns = [
    path("ping/", views.PingView.as_view(), name="ping"),
    path("titles/", views.TitlesView.as_view(), name="titles"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<int:pk>/", game_view(views.GameDetailView), name="game"),
    path("games/<int:pk>/actions/", game_view(views.ActionsView), name="game-actions"),
    path("games/<int:pk>/events/", game_view(views.EventsView), name="game-events"),
    path("games/<int:pk>/audit/", game_view(views.AuditView), name="game-audit"),
    path("games/<int:pk>/messages/", game_view(talk.MessagesView), name="game-messages"),
    path(
        "games/<int:pk>/messages/<int:seq>/report/",
        bounded(talk.ReportMessageView),
        name="game-message-report",
    ),
    path(
        "games/<int:pk>/messages/<int:seq>/hide/",
        bounded(talk.HideMessageView),
        name="game-message-hide",
    ),
    path("games/<int:pk>/orders/", game_view(orders.OrdersView), name="game-orders"),
    path("games/<int:pk>/mutes/", game_view(talk.MutesView), name="game-mutes"),
    path("games/<int:pk>/mutes/<int:seat>/", bounded(talk.MuteView), name="game-mute"),
    path("games/<int:pk>/undo/", game_view(views.UndoView), name="game-undo"),
    path("games/<int:pk>/hand-to-bot/", game_view(views.HandToBotView), name="game-hand-to-bot"),
    path("games/<int:pk>/takeback/", game_view(views.TakebackView), name="game-takeback"),
    path("games/<int:pk>/clock/", game_view(views.ClockView), name="game-clock"),
    path(
        "games/<int:pk>/replace-seat/",
        game_view(moderation.ReplaceSeatView),
        name="game-replace-seat",
    ),
    path(
        "games/<int:pk>/force-resign/",
        game_view(moderation.ForceResignView),
        name="game-force-resign",
    ),
    path("games/<int:pk>/abort/", game_view(moderation.AbortView), name="game-abort"),
    path("games/<int:pk>/note/", game_view(moderation.NoteView), name="game-note"),
    path("games/<int:pk>/lock/", game_view(moderation.LockView), name="game-lock"),
    path("games/<int:pk>/unlock/", game_view(moderation.UnlockView), name="game-unlock"),
    path("games/<int:pk>/report/", game_view(moderation.ReportView), name="game-report"),
    path("users/<str:username>/", tables.UserView.as_view(), name="user"),
    path("users/<str:username>/suspend/", moderation.SuspendView.as_view(), name="user-suspend"),
    path(
        "users/<str:username>/unsuspend/",
        moderation.UnsuspendView.as_view(),
        name="user-unsuspend",
    ),
    path("moderation/queue/", moderation.QueueView.as_view(), name="moderation-queue"),
    path(
        "moderation/queue/<int:item>/take/",
        moderation.TakeItemView.as_view(),
        name="moderation-take",
    ),
    path(
        "moderation/queue/<int:item>/close/",
        moderation.CloseItemView.as_view(),
        name="moderation-close",
    ),
    path("vacation/", views.VacationView.as_view(), name="vacation"),
    path("tables/", tables.TablesView.as_view(), name="tables"),
    path("tables/<int:pk>/", game_view(tables.TableView), name="table"),
    path("tables/<int:pk>/join/", game_view(tables.TableJoinView), name="table-join"),
    path("tables/<int:pk>/leave/", game_view(tables.TableLeaveView), name="table-leave"),
    path("tables/<int:pk>/start/", game_view(tables.TableStartView), name="table-start"),
    path("tables/<int:pk>/remove/", game_view(tables.TableRemoveView), name="table-remove"),
    path("tables/<int:pk>/invite/", game_view(tables.TableInviteView), name="table-invite"),
    path("tables/<int:pk>/links/", game_view(tables.TableLinksView), name="table-links"),
    path("tables/<int:pk>/links/revoke/", game_view(tables.TableRevokeView), name="table-revoke"),
    path("games/<int:pk>/rematch/", game_view(tables.RematchView), name="game-rematch"),
    path("games/<int:pk>/offer-seat/", game_view(tables.OfferSeatView), name="game-offer-seat"),
    path("seats/", tables.SeatOffersView.as_view(), name="seat-offers"),
    path("seats/<int:pk>/take/", game_view(tables.TakeSeatView), name="seat-take"),
    path("seats/<int:pk>/withdraw/", game_view(tables.WithdrawOfferView), name="seat-withdraw"),
    path("invitations/", tables.InvitationsView.as_view(), name="invitations"),
    path("invitations/<int:pk>/accept/", game_view(tables.AcceptView), name="invitation-accept"),
    path(
        "invitations/<int:pk>/decline/", game_view(tables.DeclineView), name="invitation-decline"
    ),
    path("games/<int:pk>/verify/", game_view(views.VerifyView), name="game-verify"),
    path("games/<int:pk>/export/", game_view(views.ExportView), name="game-export"),
    path("games/import/", views.ImportView.as_view(), name="games-import"),
    path("checkpoints/", checkpoints.CheckpointsView.as_view(), name="checkpoints"),
]
