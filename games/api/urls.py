from django.urls import path

from games.api import views

urlpatterns = [
    path("ping/", views.PingView.as_view(), name="ping"),
    path("titles/", views.TitlesView.as_view(), name="titles"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:pk>/actions/", views.ActionsView.as_view(), name="game-actions"),
    path("games/<int:pk>/events/", views.EventsView.as_view(), name="game-events"),
    path("games/<int:pk>/audit/", views.AuditView.as_view(), name="game-audit"),
    path("games/<int:pk>/undo/", views.UndoView.as_view(), name="game-undo"),
    path("games/<int:pk>/takeback/", views.TakebackView.as_view(), name="game-takeback"),
    path("games/<int:pk>/clock/", views.ClockView.as_view(), name="game-clock"),
    path("vacation/", views.VacationView.as_view(), name="vacation"),
    path("games/<int:pk>/verify/", views.VerifyView.as_view(), name="game-verify"),
]
