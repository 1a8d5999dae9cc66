"""ReDoc served offline: drf-spectacular's template links Google Fonts, and
ReDoc's side menu shows a logo from Redocly's CDN; ours uses the system's
fonts, and its Content-Security-Policy keeps images (and everything else) to
our own origin, so the page makes no request to anyone else."""

from drf_spectacular.views import SpectacularRedocView

OWN_ORIGIN_ONLY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline' blob:; worker-src 'self' blob:; font-src 'self' data:"
)


class OfflineRedocView(SpectacularRedocView):
    template_name = "config/redoc.html"
    # A page about the API, not a part of it (as the Swagger UI page).
    schema = None

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = OWN_ORIGIN_ONLY
        return response
