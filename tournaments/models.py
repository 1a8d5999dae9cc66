"""Tournaments: a title played over rounds of tables, with standings.

- Tournament: the title, its options and the clock of its games, the format
  (round robin or Swiss), the table size, the number of rounds, how long a
  round may last, who organises it, and the seed its pairings are drawn
  from (so they can be recomputed).
- Entry: a player signed up, in sign-up order (its id); `dropped` once the
  tournament's rule took them out of later rounds.
- Round: one round, its deadline, and when it finished.
- Seating: one player in one round: the game and seat they play, or a bye
  (no game).  The seats played so far are the history the pairings balance.

Points are never stored: the standings are computed from the games'
results (tournaments.standings), so they cannot drift from them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.fields import JSONTextField


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"

    class Status(models.TextChoices):
        SIGNUP = "signup"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=100)
    title = models.CharField(max_length=32)
    options = JSONTextField(default=dict)
    # The per-move clock of every game, as a table's (games.clocks.options).
    clock = JSONTextField(null=True, blank=True)
    format = models.CharField(max_length=16, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    # A round's deadline is this many days after it started.
    round_days = models.PositiveSmallIntegerField(default=14)
    rated = models.BooleanField(default=True)
    # The organiser's own words for players who come late or leave, shown
    # beside the rule the server applies (docs/tournaments.md).
    rules = models.TextField(blank=True, default="")
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SIGNUP)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "-id"], name="tournament_status_idx")]

    def __str__(self) -> str:
        return f"{self.name} ({self.title})"


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    dropped = models.BooleanField(default=False)
    # The round whose game took the player out (resigned or out of time).
    dropped_in = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Seating(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seatings")
    # The table's number in its round, from 1; 0 for a bye.
    table = models.PositiveSmallIntegerField()
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT,
        related_name="tournament_seatings",
    )  # fmt: skip
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seating_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} at table {self.table} of {self.round}"
