from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as accounts_api
from config import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/auth/register/", accounts_api.RegisterView.as_view(), name="register"),
    path("api/auth/token/", accounts_api.TokenView.as_view(), name="token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("games.api.urls")),
]

handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.permission_denied"
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
