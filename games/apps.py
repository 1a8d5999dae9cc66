from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import importlib

        from django.conf import settings

        from games import deadlines  # noqa: F401 - registers its append listener
        from games.engines import base

        for path in settings.CORREO_EXTRA_ENGINES:
            module, _, attribute = path.partition(":")
            base.register(getattr(importlib.import_module(module), attribute))
        if _serving_embedded(settings):
            from games import embedded

            embedded.start(settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["schedule"])


def _serving_embedded(settings) -> bool:
    """The development server's serving process (not its autoreloader), with
    no broker and so no beat."""
    import os
    import sys

    serving = "runserver" in sys.argv and os.environ.get("RUN_MAIN") == "true"
    return settings.CORREO_EMBEDDED_SWEEP and serving
