"""The tournaments' doors: the API's refusals (bad input, the wrong
person, signing up twice, after the start), starting, the mail once per
player per round, the next round made by itself, the leavers' rule, and
the pages."""

from __future__ import annotations

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.models import Game
from games.services.seats import check_resign
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.ratings.conftest import play_out
from tests.tournaments.conftest import play_round
from tournaments import selectors
from tournaments.models import Entry, Seating, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.mail]

GOOD = {"name": "Autumn cup", "title": "duel", "table_size": 2, "rounds": 2}


def test_an_organiser_creates_a_tournament_and_a_player_may_not(olga, alice):
    made = client_for(olga).post("/api/tournaments/", GOOD, format="json")
    assert made.status_code == 201
    assert made.json()["status"] == "signup" and made.json()["organiser"] == "olga"
    refused = client_for(alice).post("/api/tournaments/", GOOD, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert Tournament.objects.count() == 1


def test_a_moderator_may_create_one(mo):
    assert client_for(mo).post("/api/tournaments/", GOOD, format="json").status_code == 201


@pytest.mark.parametrize(
    "change",
    [
        {"title": "nosuchgame"},
        {"table_size": 7},
        {"table_size": 5},  # duel seats at most four
        {"table_size": "four"},
        {"rounds": 0},
        {"format": "knockout"},
        {"name": ""},
        {"clock": {"per_move": "forever"}},
        {"options": [1]},
        {"round_days": 1000},
        {"rated": "maybe"},
    ],
)
def test_bad_input_is_a_clear_400_and_creates_nothing(olga, change):
    answer = client_for(olga).post("/api/tournaments/", {**GOOD, **change}, format="json")
    assert answer.status_code == 400, answer.content
    assert {"error", "detail"} <= set(answer.json())
    assert not Tournament.objects.exists()


def test_signing_up_twice_withdrawing_and_signing_up_after_the_start_are_refused(
    duel_tournament, players, olga
):
    tournament = duel_tournament()
    url = f"/api/tournaments/{tournament.pk}"
    first = client_for(players[0])
    assert first.post(f"{url}/signup/").status_code == 201
    again = first.post(f"{url}/signup/")
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    assert first.post(f"{url}/withdraw/").status_code == 200
    assert first.post(f"{url}/withdraw/").status_code == 409
    for player in players[:4]:
        assert client_for(player).post(f"{url}/signup/").status_code == 201
    # only the organiser (or a moderator) starts
    assert client_for(players[0]).post(f"{url}/start/").status_code == 403
    started = client_for(olga).post(f"{url}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    late = client_for(players[5]).post(f"{url}/signup/")
    assert late.status_code == 409 and "started" in late.json()["detail"]
    assert client_for(players[0]).post(f"{url}/withdraw/").status_code == 409
    assert client_for(olga).post(f"{url}/start/").status_code == 409
    assert Entry.objects.filter(tournament=tournament).count() == 4


def test_too_few_players_cannot_start_and_unknown_tournaments_are_not_found(
    duel_tournament, players, olga
):
    tournament = duel_tournament(table_size=4)
    for player in players[:3]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    refused = client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    assert refused.status_code == 409 and "at least 4" in refused.json()["detail"]
    for path in ("/api/tournaments/999999/", "/api/tournaments/99999999999999999999/"):
        assert client_for(olga).get(path).status_code == 404
    assert client_for(olga).post("/api/tournaments/999999/signup/").status_code == 404
    assert client_for(None).post(f"/api/tournaments/{tournament.pk}/signup/").status_code in (
        401,
        403,
    )


def test_each_player_gets_one_mail_per_round_and_the_next_round_starts_by_itself(
    duel_tournament, players, olga, django_capture_on_commit_callbacks
):
    tournament = duel_tournament()
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    mails = Notification.objects.filter(kind=Notification.Kind.ROUND_READY)
    assert sorted(mails.values_list("user__username", flat=True)) == ["p1", "p2", "p3", "p4"]
    games = Game.objects.filter(tournament_seatings__round__number=1).distinct()
    assert games.count() == 2 and {g.status for g in games} == {Game.Status.ACTIVE}
    # asking for the next round before the games end changes nothing
    early = client_for(olga).post(f"/api/tournaments/{tournament.pk}/advance/")
    assert early.status_code == 409 and mails.count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        play_round(tournament, 1)
    tournament.refresh_from_db()
    assert tournament.round_set.count() == 2
    assert mails.count() == 8
    for player in players[:4]:
        assert mails.filter(user=player).count() == 2
        assert {m.context["round"] for m in mails.filter(user=player)} == {1, 2}
    # round 2 pairs the two winners and the two losers of round 1
    shown = selectors.detail(tournament, olga)
    first = shown["standings"]
    top = {first[0]["username"], first[1]["username"]}
    second_round = [{p["username"] for p in t["players"]} for t in shown["rounds"][1]["tables"]]
    assert top in second_round
    with django_capture_on_commit_callbacks(execute=True):
        play_round(tournament, 2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert mails.count() == 8


def test_the_round_ready_mail_says_which_round_links_the_game_and_speaks_german(
    duel_tournament, players, olga, mailoutbox, django_capture_on_commit_callbacks
):
    tournament = duel_tournament()
    players[1].language = "de"
    players[1].save(update_fields=["language"])
    for player in players[:2]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    with django_capture_on_commit_callbacks(execute=True):
        client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    ready = {m.to[0]: m for m in mailoutbox if "Spring duel" in m.subject}
    assert len(ready) == 2
    english, german = ready["p1@example.org"], ready["p2@example.org"]
    assert "your round-1 table is ready" in english.subject
    assert "dein Tisch für Runde 1 ist bereit" in german.subject
    game = Seating.objects.filter(round__tournament=tournament).first().game_id
    for mail in (english, german):
        assert f"/games/{game}/" in mail.body and f"/tournaments/{tournament.pk}/" in mail.body


def test_a_player_who_resigns_plays_no_later_round_and_keeps_their_points(
    duel_tournament, players, olga, django_capture_on_commit_callbacks
):
    tournament = duel_tournament(rounds=3)
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    quitter = Seating.objects.filter(round__tournament=tournament).first()
    game = quitter.game
    check_resign(game, quitter.entry.user)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(tournament, 1)
    quitter.entry.refresh_from_db()
    assert quitter.entry.dropped and quitter.entry.dropped_in == 1
    second = Seating.objects.filter(round__tournament=tournament, round__number=2)
    assert quitter.entry_id not in {s.entry_id for s in second}
    # three left at tables of two: one table and a bye
    assert sorted(s.table for s in second) == [0, 1, 1]
    rows = {row["username"]: row for row in selectors.detail(tournament, None)["standings"]}
    assert rows[quitter.entry.user.username]["dropped_in"] == 1
    # the duel could not go on without the quitter: their opponent stayed
    # and takes first place's point, the quitter none
    opponent = Seating.objects.get(game=game, seat=1).entry.user.username
    assert (rows[opponent]["points"], rows[opponent]["firsts"]) == (1, 1)
    assert rows[quitter.entry.user.username]["points"] == 0
    # round 1 still pairs again as recorded, the quitter in it
    call_command("verify_tournaments", tournament.pk, stdout=StringIO())


def test_a_tournament_with_too_few_players_left_for_a_table_finishes(
    duel_tournament, players, olga, django_capture_on_commit_callbacks
):
    tournament = duel_tournament(rounds=3)
    for player in players[:2]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    seating = Seating.objects.get(round__tournament=tournament, seat=0)
    with django_capture_on_commit_callbacks(execute=True):
        check_resign(seating.game, seating.entry.user)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.round_set.count() == 1


def test_verify_tournaments_names_a_round_that_does_not_pair_again_as_recorded(
    duel_tournament, players, olga
):
    tournament = duel_tournament()
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    out = StringIO()
    call_command("verify_tournaments", stdout=out)
    assert "every round pairs again as recorded" in out.getvalue()
    # two players of different tables change places in the record
    first, second = Seating.objects.filter(round__tournament=tournament, seat=0).order_by("table")[
        :2
    ]
    Seating.objects.filter(pk=first.pk).update(table=second.table, game=second.game)
    Seating.objects.filter(pk=second.pk).update(table=first.table, game=first.game)
    out = StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("verify_tournaments", tournament.pk, stdout=out, stderr=StringIO())
    assert exit.value.code == 1
    assert f"tournament {tournament.pk} round 1" in out.getvalue()


def test_the_pages_list_show_and_sign_up_and_the_dashboard_lists_mine(
    duel_tournament, players, client
):
    tournament = duel_tournament()
    assert tournament.name in client.get("/tournaments/").content.decode()
    client.force_login(players[0])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Sign up" in page and "Buchholz" in page
    client.post(f"/tournaments/{tournament.pk}/signup/")
    assert Entry.objects.filter(tournament=tournament, user=players[0]).exists()
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Withdraw" in page
    client.post(f"/tournaments/{tournament.pk}/signup/")
    assert Entry.objects.filter(tournament=tournament).count() == 1
    dashboard = client.get("/").content.decode()
    assert "Your tournaments" in dashboard and f"/tournaments/{tournament.pk}/" in dashboard


def test_the_tournaments_doors_call_only_check_entry_points():
    root = Path(__file__).resolve().parents[2]
    for door in (root / "tournaments" / "api.py", root / "web" / "views" / "tournaments.py"):
        tree = ast.parse(door.read_text())
        acts = [
            node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("do_")
        ] + [
            alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for alias in node.names if alias.name.startswith("do_")
        ]  # fmt: skip
        assert acts == [], door


def test_the_admin_shows_tournaments_and_changes_none(duel_tournament, players, client):
    tournament = duel_tournament()
    client_for(players[0]).post(f"/api/tournaments/{tournament.pk}/signup/")
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    assert tournament.name in client.get("/admin/tournaments/tournament/").content.decode()
    page = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200 and "p1" in page.content.decode()
    assert "entries-0-DELETE" not in page.content.decode()
    client.post(f"/admin/tournaments/tournament/{tournament.pk}/delete/", {"post": "yes"})
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_an_organiser_creates_one_from_the_page_and_a_refusal_keeps_what_was_typed(
    olga, alice, client
):
    client.force_login(olga)
    assert "Create a tournament" in client.get("/tournaments/").content.decode()
    form = {"name": "Page cup", "title": "duel", "format": "round_robin", "table_size": "9",
            "rounds": "2", "per_move": "72h", "on_timeout": "auto", "max_timeouts": "2",
            "round_days": "7", "rated": "on", "rules": "be kind"}  # fmt: skip
    refused = client.post("/tournaments/new/", form)
    assert refused.status_code == 400 and not Tournament.objects.exists()
    page = refused.content.decode()
    assert "table_size must be from 2 to 4" in page and 'value="Page cup"' in page
    made = client.post("/tournaments/new/", {**form, "table_size": "2"})
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.format == "round_robin" and tournament.rounds == 2
    assert tournament.clock == {"per_move": "72h", "on_timeout": "auto", "max_timeouts": 2}
    assert tournament.rules == "be kind" and tournament.round_days == 7
    # a player without the permission is refused on the form
    client.force_login(alice)
    assert "Create a tournament" not in client.get("/tournaments/").content.decode()
    assert client.post("/tournaments/new/", {**form, "table_size": "2"}).status_code == 400
    assert Tournament.objects.count() == 1


def test_the_page_form_takes_the_titles_options_as_the_api_does_and_keeps_a_refused_one(
    olga, players, client
):
    client.force_login(olga)
    fresh = client.get("/tournaments/new/").content.decode()
    assert 'name="duel-rounds"' in fresh and "options_from" not in fresh  # no comment shown
    form = {"name": "Options cup", "title": "duel", "format": "swiss", "table_size": "2",
            "rounds": "1", "round_days": "7", "duel-rounds": "0"}  # fmt: skip
    refused = client.post("/tournaments/new/", form)
    assert refused.status_code == 400 and not Tournament.objects.exists()
    assert 'name="duel-rounds" value="0"' in refused.content.decode()
    made = client.post("/tournaments/new/", {**form, "duel-rounds": "5"})
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and tournament.options == {"rounds": 5}
    for player in players[:2]:
        tournament.entries.create(user=player)
    client.post(f"/tournaments/{tournament.pk}/start/")
    game = Seating.objects.filter(round__tournament=tournament).first().game
    assert game.options == {"rounds": 5}
    # a blank clock: the games' clock is the round's length
    assert game.clock["per_move"] == 7 * 86400


def test_the_organiser_starts_and_advances_from_the_page(duel_tournament, players, olga, client):
    tournament = duel_tournament()
    for player in players[:2]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client.force_login(olga)
    client.post(f"/tournaments/{tournament.pk}/start/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Round 1" in page and "/games/" in page and "Finish the round" in page
    game = Seating.objects.filter(round__tournament=tournament).first().game_id
    game_page = client.get(f"/games/{game}/").content.decode()
    assert "Table 1 of round 1 of 2 in the tournament" in game_page
    assert f"/tournaments/{tournament.pk}/" in game_page
    client.post(f"/tournaments/{tournament.pk}/advance/")
    after = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "has not ended yet" in after and tournament.round_set.count() == 1


def test_a_round_robin_of_four_at_tables_of_two_meets_every_pair_once(
    duel_tournament, players, olga, django_capture_on_commit_callbacks
):
    tournament = duel_tournament(format="round_robin", rounds=3)
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(tournament, number)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    pairs = [
        frozenset(Seating.objects.filter(game=game).values_list("entry_id", flat=True))
        for game in Game.objects.filter(
            tournament_seatings__round__tournament=tournament
        ).distinct()
    ]
    assert len(pairs) == 6 and len(set(pairs)) == 6
    call_command("verify_tournaments", tournament.pk, stdout=StringIO())


def test_the_sweep_seats_a_round_whose_message_was_lost(duel_tournament, players, olga, settings):
    from tournaments import tasks

    assert settings.CELERY_BEAT_SCHEDULE["sweep-tournament-rounds"]["task"] == (
        tasks.sweep_rounds.name
    )
    tournament = duel_tournament()
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    games = list(Game.objects.filter(tournament_seatings__round__tournament=tournament).distinct())
    # the first game ends: the round still waits for the second
    play_out(games[0])
    assert tasks.sweep_rounds() == 0
    # the second ends, and the message it sends is lost (no on_commit ran)
    play_out(games[1])
    assert tournament.round_set.count() == 1
    assert tasks.sweep_rounds() == 1
    assert tournament.round_set.count() == 2
    assert tasks.sweep_rounds() == 0


def test_the_public_seed_gives_away_no_games_secret_seed(duel_tournament, players, olga):
    tournament = duel_tournament()
    for player in players[:4]:
        client_for(player).post(f"/api/tournaments/{tournament.pk}/signup/")
    shown = client_for(None).get(f"/api/tournaments/{tournament.pk}/").json()
    assert shown["seed"] == str(tournament.seed)
    client_for(olga).post(f"/api/tournaments/{tournament.pk}/start/")
    seeds = set(Game.objects.values_list("seed", flat=True))
    assert len(seeds) == 2 and tournament.seed not in seeds
    # the pairing needs no game's seed: the public one gives the tables made
    again = selectors.plan_round(tournament, 1)
    made = Seating.objects.filter(round__tournament=tournament).order_by("table", "seat")
    assert [s.entry_id for s in made] == [key for table in again.tables for key in table]


@pytest.mark.parametrize("query", ["status=", "status=lost", "status=%00"])
def test_a_bad_filter_of_the_list_is_a_clear_400(query, client):
    answer = client_for(None).get(f"/api/tournaments/?{query}")
    assert answer.status_code == 400 and answer.json()["error"] == "invalid"
