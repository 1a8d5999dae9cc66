"""A whole Swiss tournament: twelve players, three rounds of tables of four
of Point City (the title whose bots finish a four-player game fastest:
about 80 moves), every move chosen by the built-in bots on the players'
behalf and submitted through the move service as a player's would be.

The players are people's accounts, not bot accounts: a bot's account is
one per kind and seat number (accounts.bots), so it cannot be one entrant
across rounds.  Each player is given a bot kind here; the service sees
only the player's moves."""

from __future__ import annotations

import itertools
from io import StringIO

import pytest
from django.core.management import call_command

from games.audit.verification import game_problems
from games.engines import bots as engine_bots
from games.models import Game
from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications.models import Notification
from tests.conftest import make_user
from tournaments import selectors
from tournaments.models import Seating, Tournament
from tournaments.services import check_create_tournament, check_sign_up, check_start_tournament

SEED = 20261128
MOVES = 20_000


def play_round_by_bots(tournament: Tournament, kinds: dict[int, str]) -> int:
    """Every running game of the tournament's current round, one move of
    each seat to act at a time, until none is running; the moves made."""
    made = 0
    number = tournament.round_set.count()
    games = list(
        Game.objects.filter(
            tournament_seatings__round__tournament=tournament,
            tournament_seatings__round__number=number,
        ).distinct()
    )
    for game in games:
        while made < MOVES:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            engine = engine_for(game)
            state = store.load(game, engine).state
            seat = min(engine.to_act(state))
            user = game.seats.get(index=seat).user
            _, action = engine_bots.choose(engine, state, seat, kinds[user.pk], game.seq)
            check_submit_action(game, user, action=action, expected_seq=game.seq)
            made += 1
    return made


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_twelve_players_play_three_swiss_rounds_of_tables_of_four_to_the_end():
    organiser = make_user("olga", is_moderator=True)
    # Turn mail waits for a digest (never sent here), so the run is the
    # moves' and not the rendering of 700 mails; the round mail still goes.
    players = [make_user(f"player{n:02}", notify_mode="daily_digest") for n in range(1, 13)]
    kinds = {p.pk: ("greedy" if n % 2 else "random") for n, p in enumerate(players)}
    tournament = check_create_tournament(
        organiser, name="Twelve", title="pointcity", format="swiss", table_size=4, rounds=3,
        clock={"per_move": "72h", "on_timeout": "auto", "max_timeouts": 3},
    )  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(seed=SEED)
    for player in players:
        check_sign_up(tournament.pk, player)
    check_start_tournament(tournament.pk, organiser)

    for number in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RUNNING
        assert tournament.round_set.count() == number
        # all the round's tables were made at once, one game each, all running
        round_games = Game.objects.filter(
            tournament_seatings__round__tournament=tournament,
            tournament_seatings__round__number=number,
        ).distinct()
        assert round_games.count() == 3
        assert {g.status for g in round_games} == {Game.Status.ACTIVE}
        # the pairing is recomputable: the plan from the rounds before gives
        # the tables that were made
        plan = selectors.plan_round(tournament, number)
        made = Seating.objects.filter(round__tournament=tournament, round__number=number)
        tables: dict[int, list] = {}
        for s in made.order_by("table", "seat"):
            tables.setdefault(s.table, []).append(s.entry_id)
        assert [tables[t] for t in sorted(tables)] == plan.tables and plan.byes == []
        assert play_round_by_bots(tournament, kinds) > 0

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    games = Game.objects.filter(tournament_seatings__round__tournament=tournament).distinct()
    assert games.count() == 9
    assert {g.status for g in games} == {Game.Status.FINISHED}
    for game in games:
        assert list(game_problems(game)) == []

    # one mail per player per round
    mails = Notification.objects.filter(kind=Notification.Kind.ROUND_READY)
    assert mails.count() == 36
    for player in players:
        assert sorted(m.context["round"] for m in mails.filter(user=player)) == [1, 2, 3]

    shown = selectors.detail(tournament, organiser)
    standings = shown["standings"]
    assert len(standings) == 12 and all(row["played"] == 3 for row in standings)
    # each table hands out 3 + 2 + 1 + 0 points (shared ties add up the same)
    assert sum(row["points"] for row in standings) == pytest.approx(9 * 6)
    assert [row["rank"] for row in standings] == list(range(1, 13))

    sat_first: set[int] = set()
    met: dict[frozenset, int] = {}
    for number in (1, 2, 3):
        tables: dict[int, list[int]] = {}
        for s in Seating.objects.filter(round__tournament=tournament, round__number=number):
            tables.setdefault(s.game_id, []).append(s.entry_id)  # in seat order
        for table in tables.values():
            # the first seat goes to someone who never sat first, unless
            # everyone at the table did
            assert table[0] not in sat_first or set(table) <= sat_first
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        sat_first |= {table[0] for table in tables.values()}
        if number == 2:
            # round 2: the three repeated pairs that three tables drawn from
            # three tables cannot avoid, and no more
            assert sum(1 for n in met.values() if n == 2) == 3
    # nobody meets anyone three times
    assert max(met.values()) <= 2
    # every round pairs again from the seed and the results as recorded
    out = StringIO()
    call_command("verify_tournaments", tournament.pk, stdout=out)
    assert "every round pairs again as recorded" in out.getvalue()
