import functools

from django.urls import path

from games.api import errors, views

# Game ids are 64-bit keys; SQLite's driver overflows on a larger parameter.
LARGEST_ID = 2**63 - 1


def game_view(view_class):
    """The view, answering 404 for a game id beyond any key without a query.

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


urlpatterns = [
    path("ping/", views.PingView.as_view(), name="ping"),
    path("titles/", views.TitlesView.as_view(), name="titles"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<int:pk>/", game_view(views.GameDetailView), name="game"),
    path("games/<int:pk>/actions/", game_view(views.ActionsView), name="game-actions"),
    path("games/<int:pk>/events/", game_view(views.EventsView), name="game-events"),
    path("games/<int:pk>/audit/", game_view(views.AuditView), name="game-audit"),
    path("games/<int:pk>/undo/", game_view(views.UndoView), name="game-undo"),
    path("games/<int:pk>/hand-to-bot/", game_view(views.HandToBotView), name="game-hand-to-bot"),
    path("games/<int:pk>/takeback/", game_view(views.TakebackView), name="game-takeback"),
    path("games/<int:pk>/clock/", game_view(views.ClockView), name="game-clock"),
    path("vacation/", views.VacationView.as_view(), name="vacation"),
    path("games/<int:pk>/verify/", game_view(views.VerifyView), name="game-verify"),
]
