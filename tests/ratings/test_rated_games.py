"""Ratings as games finish, and the recompute check (rate_games --verify)."""

from __future__ import annotations

from functools import partial

import pytest
from django.core.management import call_command

from accounts import bots
from games.models import Event, Game
from games.services.abort import do_abort
from games.services.replacement import do_replace_seat
from games.services.undo import check_undo
from ratings import ledger, skill
from ratings.models import Rating, RatingChange, RatingEvent
from tests.support.threads import failures_at_once

# Real commits: a game is rated once the move that finished it has committed.
pytestmark = pytest.mark.django_db(transaction=True)


def _rating(user, title="duel") -> skill.Skill:
    row = Rating.objects.get(user=user, title=title)
    return skill.Skill(row.mu, row.sigma)


def test_a_finished_game_rates_its_players_from_its_places(make_game, finish, alice, bob, carol):
    game = make_game(players=[alice, bob, carol], options={"rounds": 1})
    finish(game, cards={0: 1})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    places = game.result["places"]
    expected = skill.update([[(skill.Skill(), 1.0)]] * 3, places)
    for seat, user in enumerate([alice, bob, carol]):
        mine = _rating(user)
        assert (mine.mu, mine.sigma) == pytest.approx(
            (expected[seat][0].mu, expected[seat][0].sigma), abs=1e-12
        )
        assert Rating.objects.get(user=user).games == 1
    event = RatingEvent.objects.get(game=game)
    assert event.places == places
    assert event.finish_seq == Event.objects.filter(game=game, kind="action").last().seq


def test_a_second_game_starts_from_the_first_games_ratings(make_game, finish, alice, bob):
    first = make_game(players=[alice, bob], options={"rounds": 1})
    finish(first)
    after_first = _rating(alice)
    second = make_game(players=[alice, bob], options={"rounds": 1}, seed=2)
    finish(second)
    change = RatingChange.objects.get(event__game=second, user=alice)
    assert (change.mu_before, change.sigma_before) == pytest.approx(
        (after_first.mu, after_first.sigma)
    )
    assert Rating.objects.get(user=alice).games == 2


def test_unrated_tables_aborted_games_and_bots_are_not_rated(make_game, finish, alice, bob, mo):
    unrated = make_game(players=[alice, bob], options={"rounds": 1}, rated=False)
    finish(unrated)
    aborted = make_game(players=[alice, bob], options={"rounds": 1})
    do_abort(aborted, actor=mo, reason="test", source=Event.Source.MODERATOR)
    bot = bots.account("random", 1)
    with_bot = make_game(players=[alice, bob], options={"rounds": 1}, seed=3)
    finish(with_bot)
    # a bot that held a seat at any time keeps the game unrated: seen in the stream
    assert unrated.events.get(seq=1).payload["rated"] is False
    assert not RatingEvent.objects.filter(game__in=[unrated, aborted]).exists()
    assert ledger.facts(Game.objects.get(pk=unrated.pk)).reason == "unrated game"
    assert ledger.facts(Game.objects.get(pk=aborted.pk)).reason == "not finished"
    played_by_bot = make_game(players=[alice, bob], options={"rounds": 2}, seed=4)
    do_replace_seat(
        played_by_bot, 1, bot, actor=mo, reason="hand to bot", source="moderator", bot="random"
    )
    assert ledger.facts(Game.objects.get(pk=played_by_bot.pk)).reason == "not finished"
    assert RatingEvent.objects.filter(game=with_bot).exists()


def test_a_game_a_bot_played_is_not_rated(make_game, alice):
    bot = bots.account("random", 1)
    game = make_game(players=[alice, bot], options={"rounds": 1})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert ledger.facts(Game.objects.get(pk=game.pk)).reason == "a bot held a seat"


def test_a_solo_game_is_not_rated(make_game, alice):
    game = make_game("pointcity", players=[alice])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert ledger.facts(Game.objects.get(pk=game.pk)).reason == "solo game"


def test_a_failing_rating_never_blocks_the_finishing_move(
    make_game, finish, alice, bob, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("rating broke")

    monkeypatch.setattr(skill, "update", broken)
    game = make_game(players=[alice, bob], options={"rounds": 1})
    finish(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RatingEvent.objects.filter(game=game).exists()
    monkeypatch.undo()
    call_command("rate_games", "--pending")
    assert RatingEvent.objects.filter(game=game).exists()
    call_command("rate_games", "--verify")


def test_replacement_seats_rate_each_holder_by_their_share_of_turns(
    make_game, finish, alice, bob, carol, mo
):
    game = make_game(players=[alice, bob], options={"rounds": 2})
    # seat 1 acts four times (commit and pass, two rounds): bob commits in
    # round 1, then carol takes the seat over and makes its other three turns
    finish(game, turns=2)
    do_replace_seat(game, 1, carol, actor=mo, reason="bob left", source="moderator")
    game.refresh_from_db()
    finish(game)
    game.refresh_from_db()
    event = RatingEvent.objects.get(game=game)
    assert event.holders == [[[alice.pk, 1.0]], [[bob.pk, 0.25], [carol.pk, 0.75]]]
    seats = [[(skill.Skill(), 1.0)], [(skill.Skill(), 0.25), (skill.Skill(), 0.75)]]
    expected = skill.update(seats, game.result["places"])
    whole = skill.update([[(skill.Skill(), 1.0)]] * 2, game.result["places"])[1][0]
    assert _rating(bob).mu == pytest.approx(expected[1][0].mu, abs=1e-12)
    assert _rating(carol).mu == pytest.approx(expected[1][1].mu, abs=1e-12)
    # each moves by their share of what a whole seat would have moved
    assert _rating(bob).mu - skill.MU == pytest.approx(0.25 * (whole.mu - skill.MU), abs=1e-9)
    assert _rating(carol).mu - skill.MU == pytest.approx(0.75 * (whole.mu - skill.MU), abs=1e-9)
    call_command("rate_games", "--verify")


def test_verify_passes_on_honest_ratings_and_names_each_tampering(
    make_game, finish, alice, bob, carol, capsys
):
    finish(make_game(players=[alice, bob, carol], options={"rounds": 1}))
    finish(make_game(players=[alice, bob], options={"rounds": 1}, seed=7))
    call_command("rate_games", "--verify")
    assert "every rating recomputes" in capsys.readouterr().out

    Rating.objects.filter(user=bob).update(mu=40.0)
    with pytest.raises(SystemExit) as exit_:
        call_command("rate_games", "--verify")
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert f"duel rating of player {bob.pk}: mu is 40.0" in out

    call_command("rate_games")  # the rebuild puts it right
    call_command("rate_games", "--verify")
    capsys.readouterr()

    change = RatingChange.objects.filter(user=carol).first()
    RatingChange.objects.filter(pk=change.pk).update(mu_after=change.mu_after + 0.5)
    with pytest.raises(SystemExit):
        call_command("rate_games", "--verify")
    assert f"player {carol.pk}: mu after is" in capsys.readouterr().out

    call_command("rate_games")
    event = RatingEvent.objects.first()
    # as if every seat had shared first place
    RatingEvent.objects.filter(pk=event.pk).update(places=[1] * len(event.places))
    with pytest.raises(SystemExit):
        call_command("rate_games", "--verify")
    assert f"game {event.game_id}: the rating event's places" in capsys.readouterr().out


def test_the_rebuild_gives_the_ratings_the_games_gave_as_they_finished(
    make_game, finish, alice, bob, carol
):
    for seed in (1, 2, 3):
        finish(make_game(players=[alice, bob, carol], options={"rounds": 1}, seed=seed))
    live = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    call_command("rate_games")
    rebuilt = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert rebuilt == live
    assert RatingEvent.objects.count() == 3


@pytest.mark.postgres
def test_two_games_finishing_at_once_rate_one_after_the_other(
    make_game, finish, alice, bob, carol
):
    """alice ends two games at the same instant: without the title's lock both
    ratings would start from her rating before either, and one game's change
    would be lost."""
    games = [
        make_game(players=[alice, bob], options={"rounds": 1}),
        make_game(players=[alice, carol], options={"rounds": 1}, seed=2),
    ]
    for game in games:
        finish(game, turns=3)  # one pass to go: the second seat's

    def last_move(game) -> None:
        finish(Game.objects.get(pk=game.pk))

    assert failures_at_once(*(partial(last_move, game) for game in games)) == []
    first, second = RatingChange.objects.filter(user=alice).order_by("event_id")
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
    assert Rating.objects.get(user=alice).games == 2
    call_command("rate_games", "--verify")


def _stored() -> dict:
    return {
        (r.title, r.user_id): (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in Rating.objects.all()
    }


def test_an_undo_that_reopens_a_rated_game_takes_its_rating_back(
    make_game, finish, alice, bob, mo
):
    game = make_game(players=[alice, bob], options={"rounds": 1})
    finish(game)
    game.refresh_from_db()
    assert RatingEvent.objects.filter(game=game).exists()
    check_undo(game, mo, to_seq=game.seq - 1, reason="a wrong last move")
    assert not RatingEvent.objects.exists() and not Rating.objects.exists()
    call_command("rate_games", "--verify")


def test_after_an_undo_the_titles_later_games_are_rated_again_as_a_rebuild_would(
    make_game, finish, alice, bob, carol, mo
):
    first = make_game(players=[alice, bob], options={"rounds": 1})
    finish(first)
    second = make_game(players=[alice, carol], options={"rounds": 1}, seed=2)
    finish(second, cards={0: 1})
    third = make_game(players=[bob, carol], options={"rounds": 1}, seed=3)
    finish(third)
    before = _stored()
    first.refresh_from_db()
    check_undo(first, mo, to_seq=first.seq - 1, reason="a wrong last move")
    assert not RatingEvent.objects.filter(game=first).exists()
    assert RatingEvent.objects.filter(game__in=[second, third]).count() == 2
    # alice and carol met first in the second game now: both start new there.
    change = RatingChange.objects.get(event__game=second, user=alice)
    assert (change.mu_before, change.sigma_before) == (skill.Skill().mu, skill.Skill().sigma)
    assert Rating.objects.get(user=alice).games == 1
    taken_back = _stored()
    assert taken_back != before
    call_command("rate_games", "--verify")
    call_command("rate_games")  # a rebuild from the streams gives the same
    assert _stored() == taken_back
    # Finished again, the game is rated anew, after the others.
    first.refresh_from_db()
    finish(first)
    assert RatingEvent.objects.get(game=first).id > RatingEvent.objects.get(game=third).id
    assert Rating.objects.get(user=alice).games == 2
    call_command("rate_games", "--verify")
