"""Standing orders by mail: a reply's `orders:` section writes them through
the same service as the page and the API, and the answer says what was
written, to its writer alone."""

from __future__ import annotations

import pytest

from games import hooks
from games.models import Event, Game, OrderEvent
from games.selectors import orders as selected
from games.services.moves import check_submit_action
from games.services.orders import check_write_order
from games.services.replacement import check_replace_seat
from games.stream import store
from games.stream.derived import engine_for
from notifications import inbound, outbox, render
from notifications.models import Notification
from tests.notifications.conftest import reply_mail

pytestmark = pytest.mark.django_db


def seats(game: Game) -> tuple[int, int]:
    """(the seat to act, the other one)."""
    game.refresh_from_db()
    first = sorted(game.to_act)[0]
    return first, 1 - first


def mail(user, game: Game, body: str) -> inbound.Outcome:
    seat = game.seats.get(user=user).index
    return inbound.receive(reply_mail(user, game, seat, body), door="test")


def standing(game: Game, seat: int) -> list[dict]:
    game.refresh_from_db()
    return selected.for_owner(game, engine_for(game), seat)["orders"]


def answer_to(user) -> str:
    row = Notification.objects.filter(user=user, kind="reply").latest("pk")
    return render.build_message(row).body


def test_an_orders_section_leaves_an_order_that_stands(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    _, waiting = seats(game)
    player = [alice, bob][waiting]
    outcome = mail(player, game, "orders:\ndefault\n\n> your turn")
    assert outcome.status == "applied"
    assert [(o["id"], o["order"]) for o in standing(game, waiting)] == [(1, {"kind": "default"})]
    assert OrderEvent.objects.get().payload["via"] == "email"
    body = answer_to(player)
    assert "> orders: default" in body
    assert "standing order 1: take the default move every turn" in body
    game.refresh_from_db()
    assert game.seq == 1  # nothing in the game's stream


def test_an_order_written_on_ones_own_turn_is_played_at_once(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    to_act, _ = seats(game)
    player = [alice, bob][to_act]
    mail(player, game, "orders: default")
    [fired] = Event.objects.filter(game=game, source=Event.Source.ORDER)
    assert (fired.seat, fired.actor) == (to_act, player)
    assert "standing order 1, played at once (it was your turn) and standing on" in answer_to(
        player
    )


def test_a_move_line_is_a_play_order_read_as_the_game_stands(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    to_act, _ = seats(game)
    player = [alice, bob][to_act]
    engine = engine_for(game)
    state = store.load(game, engine).state
    action = engine.legal_actions(state, to_act)[-1]
    mail(player, game, f"orders:\n{engine.text(action)}  # a gloss")
    [fired] = Event.objects.filter(game=game, source=Event.Source.ORDER)
    assert fired.payload["action"] == action


def test_a_kind_with_values_and_cancel(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    _, waiting = seats(game)
    player = [alice, bob][waiting]
    mail(player, game, "orders:\nbid 3")
    assert [(o["order"]["kind"], o["order"]["amount"]) for o in standing(game, waiting)] == [
        ("bid", 3)
    ]
    mail(player, game, "orders:\ncancel")
    assert standing(game, waiting) == []
    assert "cancelled your standing orders (1)" in answer_to(player)


def test_a_refused_line_writes_nothing_after_it_and_says_why(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    _, waiting = seats(game)
    player = [alice, bob][waiting]
    outcome = mail(player, game, "orders:\nbid 3 4\nbid 5")
    assert outcome.status == "answered"
    assert standing(game, waiting) == []
    assert "bid takes at most these values: amount" in answer_to(player)
    mail(player, game, "orders:\nfly to the moon")
    assert standing(game, waiting) == [] and "NOT APPLIED" in answer_to(player)


def test_nobody_else_hears_of_an_order_written_by_mail(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    _, waiting = seats(game)
    player, other = [alice, bob][waiting], [alice, bob][1 - waiting]
    before = list(Notification.objects.filter(user=other).values_list("pk", flat=True))
    mail(player, game, "orders:\ndefault")
    after = list(Notification.objects.filter(user=other).values_list("pk", flat=True))
    assert after == before


def test_commands_come_first_and_a_refused_command_leaves_no_order(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    _, waiting = seats(game)
    player = [alice, bob][waiting]
    mail(player, game, "orders:\nbid 3\nsay: hello")  # the order, then the words
    assert len(standing(game, waiting)) == 1
    assert Event.objects.filter(game=game, kind="message").count() == 1
    mail(player, game, "not a move\norders:\nbid 4")
    assert [o["order"]["amount"] for o in standing(game, waiting)] == [3]


def turn_mail(user, game: Game, seat: int):
    game.refresh_from_db()
    row = outbox.notify(user, game, Notification.Kind.YOUR_TURN, game.seq, {}, seat=seat,
                        key=f"test:{game.pk}:{seat}:{user.pk}")  # fmt: skip
    return render.build_message(row)


def test_the_turn_mail_lists_my_standing_orders_to_me_alone(make_game, alice, bob, carol, mo):
    game = make_game("estates", players=[alice, bob], seed=2)
    to_act, waiting = seats(game)
    player, other = [alice, bob][waiting], [alice, bob][to_act]
    mail(player, game, "orders:\nbid 3")
    mine = turn_mail(player, game, waiting)
    assert "Your standing orders (only you see them)" in mine.body
    assert "  1. " in mine.body and "bid" in mine.body.split("Your standing orders")[1]
    assert "Your standing orders" in mine.alternatives[0].content
    theirs = turn_mail(other, game, to_act)
    assert "standing orders" not in theirs.body.lower()
    # A seat handed on keeps its old player's orders from its new one.
    check_replace_seat(game, mo, seat=waiting, username="carol", reason="left")
    assert "standing orders" not in turn_mail(carol, game, waiting).body.lower()


@pytest.mark.django_db(transaction=True)
def test_a_dropped_order_is_mailed_to_its_owner_alone(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    to_act, waiting = seats(game)
    owner, other = [alice, bob][waiting], [alice, bob][to_act]
    # A move never legal in The Estates' bidding: the rules will refuse it.
    never = {"kind": "play", "action": {"type": "place", "lot": "z9"}}
    check_write_order(game, owner, order=never, source="api")
    engine = engine_for(game)
    first = engine.legal_actions(store.load(game, engine).state, to_act)[0]
    check_submit_action(game, other, action=first, expected_seq=game.seq)
    [row] = Notification.objects.filter(kind="order_dropped")
    assert (row.user, row.seat) == (owner, waiting)
    message = render.build_message(row)
    assert "a standing order was dropped" in message.subject
    assert (
        "your standing order 1 (" in message.body and "was dropped and not played" in message.body
    )
    assert "Reason: " in message.body and "Reason: -" not in message.body


def test_a_lapsed_order_is_told_as_lapsed(make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=2)
    note = hooks.OrderNote(game, 1, bob.pk, "lapsed", 4, "play pass in round 1", "round 1 is over")
    message = render.build_message(outbox.on_order_note(note))
    assert message.to == ["bob@example.org"] and "a standing order lapsed" in message.subject
    assert "your standing order 4 (play pass in round 1) lapsed" in message.body


def test_havana_cards_by_mail_are_the_cards_as_the_hand_shows_them(make_game, alice, bob):
    # Havana's cards are words (`2p`) as well as numbers (`5`): both kept as written.
    game = make_game("havana", players=[alice, bob], seed=5)
    hand = store.load(game, engine_for(game)).state["seats"][1]["hand"]
    mine = [next(c for c in hand if not c.isdigit()), next(c for c in hand if c.isdigit())]
    mail(bob, game, f"orders:\ncards {mine[0]}, {mine[1]}")
    # Round 1's choice is Bob's to make now, so the order is played at once.
    [fired] = Event.objects.filter(game=game, source=Event.Source.ORDER)
    assert fired.seat == 1 and set(fired.payload["action"]["cards"]) == set(mine)
    assert "played at once" in answer_to(bob)
