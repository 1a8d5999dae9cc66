"""Ratings: derived data, recomputable from the finished games' streams.

- RatingEvent: one rated game, in the order the games were rated (its id),
  with the facts taken from the game's stream (places, who held each seat
  and for what share of its turns).  `manage.py rate_games --verify`
  recomputes every change from these facts as the streams give them.
- RatingChange: one player's rating before and after one rated game.
- Rating: a player's current rating in a title, the last change's `after`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.fields import JSONTextField


class RatingEvent(models.Model):
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="rating_event"
    )
    title = models.CharField(max_length=32)
    # The seq of the event that ended the game and when it was appended: the
    # order `rate_games` rebuilds in (then the game's id).
    finish_seq = models.PositiveIntegerField()
    finished_at = models.DateTimeField()
    # 1-based places per seat, as the result gives them (ties shared).
    places = JSONTextField(default=list)
    # Per seat, [[user id, share of the seat's turns], ...].
    holders = JSONTextField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"rating of {self.title} game {self.game_id}"


class RatingChange(models.Model):
    event = models.ForeignKey(RatingEvent, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    title = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    share = models.FloatField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["event_id", "seat"]
        indexes = [
            # A player's history in a title, newest first (the profile).
            models.Index(fields=["user", "title", "-event"], name="rating_change_history_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.event}"


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    title = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: the number shown and ranked by (a new player's is 0).
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["title", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["user", "title"], name="rating_once_per_title"),
        ]
        indexes = [
            # The leaderboard: a title's ratings, best first.
            models.Index(fields=["title", "-ordinal", "user"], name="rating_board_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.title} {self.ordinal:.1f}"
