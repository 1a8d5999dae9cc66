"""The moderator's page: the audit, undo with a reason, the clock actions."""

from __future__ import annotations

import pytest

from games.engines import base
from games.models import Event
from games.services.creation import do_create_game
from games.services.moves import do_submit_action


@pytest.fixture
def played(alice, bob):
    """A Point City game with a clock, two moves in."""
    game = do_create_game(
        title="pointcity", players=[alice, bob], seed=3, clock={"per_move": "72h"}
    )
    engine = base.get("pointcity")
    from games.stream import store

    for _ in range(2):
        state = store.load(game, engine).state
        seat = sorted(engine.to_act(state))[0]
        action = engine.legal_actions(state, seat)[0]
        do_submit_action(
            game, seat, actor=None, action=action, text=None, expected_seq=game.seq,
            source="api", kind="action",
        )  # fmt: skip
        game.refresh_from_db()
    return game


def test_only_moderators_see_the_audit(page_as, alice, mo, played):
    assert page_as(alice).get(f"/games/{played.pk}/moderate/").status_code == 403
    html = page_as(mo).get(f"/games/{played.pk}/moderate/").content.decode()
    assert 'data-valid="true"' in html
    assert html.count("<tr class=") == played.seq


def test_a_moderator_undoes_with_a_reason_and_the_undone_moves_stay_in_the_log(
    page_as, mo, played
):
    client = page_as(mo)
    refused = client.post(f"/games/{played.pk}/undo/", {"to_seq": 1, "reason": " "}, follow=True)
    assert "needs a reason" in refused.content.decode()
    assert Event.objects.filter(game=played).count() == played.seq
    client.post(f"/games/{played.pk}/undo/", {"to_seq": 1, "reason": "misclick"})
    undo = Event.objects.get(game=played, seq=played.seq + 1)
    assert undo.kind == "undo" and undo.payload["to_seq"] == 1 and undo.source == "moderator"
    html = client.get(f"/games/{played.pk}/moderate/").content.decode()
    assert html.count('class="inert"') == played.seq - 1


def test_a_player_cannot_undo_or_touch_the_clock(page_as, alice, played):
    client = page_as(alice)
    client.post(f"/games/{played.pk}/undo/", {"to_seq": 1, "reason": "mine"})
    client.post(f"/games/{played.pk}/clock/", {"action": "pause", "reason": "mine"})
    assert Event.objects.filter(game=played).count() == played.seq


def test_the_clock_actions_are_events(page_as, mo, played):
    client = page_as(mo)
    client.post(f"/games/{played.pk}/clock/", {"action": "pause", "reason": "outage"})
    client.post(f"/games/{played.pk}/clock/", {"action": "resume", "reason": "back"})
    client.post(f"/games/{played.pk}/clock/", {"action": "extend", "by": "24h", "reason": "ill"})
    bad = client.post(
        f"/games/{played.pk}/clock/",
        {"action": "extend", "by": "soon", "reason": "x"},
        follow=True,
    )
    assert "duration" in bad.content.decode()
    clocks = Event.objects.filter(game=played, kind="clock").order_by("seq")
    assert [e.payload["clock"] for e in clocks] == ["pause", "resume", "extend"]


def test_a_moderator_locks_replaces_and_unlocks_from_the_page(page_as, mo, charlie, played):
    page = page_as(mo)
    path = f"/games/{played.pk}/act/"
    page.post(path, {"act": "lock", "reason": "a dispute"})
    page.post(path, {"act": "replace_seat", "seat": "1", "username": "charlie", "reason": "left"})
    page.post(path, {"act": "unlock", "reason": "settled"})
    acts = Event.objects.filter(game=played, seq__gt=3).order_by("seq")
    assert [(e.kind, e.actor, e.payload["reason"]) for e in acts] == [
        ("clock", mo, "a dispute"), ("seat_replaced", mo, "left"), ("clock", mo, "settled"),
    ]  # fmt: skip


def test_an_act_from_the_page_by_a_player_or_without_a_reason_changes_nothing(
    page_as, alice, mo, played
):
    path = f"/games/{played.pk}/act/"
    refused = page_as(alice).post(path, {"act": "abort", "reason": "mine"}, follow=True)
    assert "only moderators" in refused.content.decode()
    page_as(mo).post(path, {"act": "abort", "reason": " "})
    page_as(mo).post(path, {"act": "explode", "reason": "why not"})
    assert Event.objects.filter(game=played).count() == played.seq
