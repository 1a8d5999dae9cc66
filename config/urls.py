from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularSwaggerView,
)

from accounts import api as accounts_api
from config.docs import OfflineRedocView
from notifications import views as notification_views
from ops import health, metrics
from ratings import api as ratings_api
from tournaments import api as tournaments_api
from web.forms import LiftingSetPasswordForm, OutboxPasswordResetForm
from web.throttle import auth_throttled, password_throttled

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    # The admin's log-in is a log-in like the others: the "auth" rate per
    # address, and accounts.lockout per account (in the backend).
    path("admin/login/", auth_throttled(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/auth/register/", accounts_api.RegisterView.as_view(), name="register"),
    path("api/auth/token/", accounts_api.TokenView.as_view(), name="token"),
    path("api/auth/tokens/", accounts_api.TokensView.as_view(), name="tokens"),
    path("api/auth/tokens/<int:pk>/", accounts_api.TokenItemView.as_view(), name="token-item"),
    path("api/auth/password/", accounts_api.PasswordView.as_view(), name="password"),
    path("api/auth/me/", accounts_api.MeView.as_view(), name="me"),
    path("api/blocks/", accounts_api.BlocksView.as_view(), name="blocks"),
    path("api/blocks/<str:username>/", accounts_api.BlockItemView.as_view(), name="block-item"),
    path("api/inbound/email/", notification_views.inbound_email, name="inbound-email"),
    path(
        "email/unsubscribe/<str:token>/",
        notification_views.unsubscribe,
        name="email-unsubscribe",
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", OfflineRedocView.as_view(url_name="schema"), name="redoc"),
    path(
        "api/titles/<str:title>/ratings/",
        ratings_api.LeaderboardView.as_view(),
        name="title-ratings",
    ),
    path(
        "api/users/<str:username>/ratings/",
        ratings_api.PlayerRatingsView.as_view(),
        name="user-ratings",
    ),
    path("api/tournaments/", tournaments_api.TournamentsView.as_view(), name="tournaments"),
    path("api/tournaments/<int:pk>/", tournaments_api.TournamentView.as_view(), name="tournament"),
    path(
        "api/tournaments/<int:pk>/signup/",
        tournaments_api.SignUpView.as_view(),
        name="tournament-signup",
    ),
    path(
        "api/tournaments/<int:pk>/withdraw/",
        tournaments_api.WithdrawView.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "api/tournaments/<int:pk>/start/",
        tournaments_api.StartView.as_view(),
        name="tournament-start",
    ),
    path(
        "api/tournaments/<int:pk>/advance/",
        tournaments_api.AdvanceView.as_view(),
        name="tournament-advance",
    ),
    path("api/", include("games.api.urls")),
    # The web pages: Django's own auth views (the standard names and fields
    # that clients and browser tests rely on), then the game pages.  The
    # reset mail goes through the outbox like every other mail.
    path(
        "accounts/password_reset/",
        auth_throttled(auth_views.PasswordResetView.as_view(form_class=OutboxPasswordResetForm)),
        name="password_reset",
    ),
    path("accounts/login/", auth_throttled(auth_views.LoginView.as_view()), name="login"),
    path(
        "accounts/password_change/",
        password_throttled(auth_views.PasswordChangeView.as_view()),
        name="password_change",
    ),
    # A password set from a reset mail also ends any wait on the account.
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=LiftingSetPasswordForm),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("web.urls")),
]

# django-anymail's inbound webhooks, only when their basic-auth secret is set
# (its views, answering 503 for a mail that must come again).
if settings.ANYMAIL.get("WEBHOOK_SECRET"):
    urlpatterns += [path("anymail/", include("notifications.anymail_urls"))]

handler400 = "web.errors.bad_request"
handler403 = "web.errors.permission_denied"
handler404 = "web.errors.not_found"
handler500 = "web.errors.server_error"
