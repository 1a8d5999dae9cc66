from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments: rounds of tables of one title, and their standings.

    An app of its own above `notifications` in the house's layers: it
    creates games through the game service (`do_create_game`), writes its
    own mail to the outbox ("your round-N table is ready"), reads ratings
    for a tie-break, and hears of a game that finished only through
    `games.hooks.on_committed`, so the game service knows nothing of it;
    its round's deadline limits a game's deadlines through
    `games.hooks.on_deadline_limit` (docs/tournaments.md)."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from tournaments import services, tasks

        hooks.on_committed(tasks.advance_after_commit, only_if=tasks.just_ended)
        hooks.on_deadline_limit(services.round_deadline, only_if=services.made_by_the_server)
