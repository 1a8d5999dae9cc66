from django.urls import path, register_converter

from games.api import views


class GameId:
    """A game id as the database can hold it (a 64-bit key): a larger number
    names no game, so it is a 404 instead of an overflow in the driver."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number >= 2**63:
            raise ValueError("beyond a 64-bit key")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameId, "game_id")

urlpatterns = [
    path("ping/", views.PingView.as_view(), name="ping"),
    path("titles/", views.TitlesView.as_view(), name="titles"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<game_id:pk>/", views.GameDetailView.as_view(), name="game"),
    path("games/<game_id:pk>/actions/", views.ActionsView.as_view(), name="game-actions"),
    path("games/<game_id:pk>/events/", views.EventsView.as_view(), name="game-events"),
    path("games/<game_id:pk>/audit/", views.AuditView.as_view(), name="game-audit"),
    path("games/<game_id:pk>/undo/", views.UndoView.as_view(), name="game-undo"),
    path("games/<game_id:pk>/takeback/", views.TakebackView.as_view(), name="game-takeback"),
    path("games/<game_id:pk>/clock/", views.ClockView.as_view(), name="game-clock"),
    path("vacation/", views.VacationView.as_view(), name="vacation"),
    path("games/<game_id:pk>/verify/", views.VerifyView.as_view(), name="game-verify"),
]
