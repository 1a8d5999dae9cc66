from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Ratings per title and the requirements tables set on them.

    An app of its own rather than a module of `accounts` or `games`: a
    rating is derived from finished games (it reads their streams, so it sits
    above `games` in the house's layers, where `accounts` cannot reach), and
    `games` learns of it only through its hooks (a game that finished, a seat
    asked for at a table with requirements, a page of the lobby to list
    players' ratings on), so the game service keeps no
    knowledge of how players are rated."""

    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from ratings import requirements, selectors, updates

        hooks.on_committed(updates.rate_after_commit, only_if=updates.just_finished)
        hooks.on_committed(updates.rerate_after_undo)
        hooks.on_seat_requirement(requirements.check_requirements)
        hooks.on_table_rows(selectors.add_to_table_rows)
