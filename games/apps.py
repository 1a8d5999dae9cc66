from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import importlib

        from django.conf import settings

        from games import (
            metrics,
            tasks,  # noqa: F401 - registers the bots' committed listener
        )
        from games.clocks import deadlines  # noqa: F401 - registers its append listener
        from games.engines import base
        from games.services import orders  # noqa: F401 - registers the orders' listeners

        metrics.install()
        _publish_checkpoints_as_games_end()
        for path in settings.CORREO_EXTRA_ENGINES:
            module, _, attribute = path.partition(":")
            base.register(getattr(importlib.import_module(module), attribute))


def _publish_checkpoints_as_games_end() -> None:
    """A game's last checkpoint goes out as it ends, not at the next round:
    a finished game is the one most worth holding to its history."""
    from games import hooks
    from games.audit import checkpoints

    hooks.on_committed(checkpoints.publish_final, only_if=_ended)


def _ended(game) -> bool:
    return game.status != "active"
