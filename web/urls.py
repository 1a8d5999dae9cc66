from django.urls import path, register_converter

from ops.keys import LARGEST_ID
from web.throttle import auth_throttled, creation_throttled
from web.views import (
    account,
    game,
    home,
    moderation,
    orders,
    people,
    push,
    tables,
    talk,
    tournaments,
    verify,
)


class GameId:
    """A game id: digits naming a 64-bit key (a larger one is no game, and
    would overflow SQLite's driver)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST_ID:
            raise ValueError("beyond any game id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameId, "game")

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("tables/", tables.lobby, name="lobby"),
    path("tables/new/", creation_throttled(tables.new_table), name="new-table"),
    path("seats/<game:pk>/take/", tables.take_seat, name="take-seat"),
    path("tables/<game:pk>/", tables.table, name="table"),
    path("tables/<game:pk>/join/", tables.join, name="table-join"),
    path("tables/<game:pk>/leave/", tables.leave, name="table-leave"),
    path("tables/<game:pk>/start/", tables.start, name="table-start"),
    path("tables/<game:pk>/remove/", tables.remove, name="table-remove"),
    path("tables/<game:pk>/invite/", tables.invite, name="table-invite"),
    path("tables/<game:pk>/links/", tables.make_link, name="table-link"),
    path("tables/<game:pk>/links/revoke/", tables.revoke_links, name="table-revoke"),
    path("invitations/<game:pk>/<str:verb>/", tables.answer, name="answer"),
    path("invitations/<str:token>/", tables.invitation, name="invitation"),
    path("tournaments/", tournaments.tournaments, name="tournaments"),
    path("tournaments/new/", tournaments.new_tournament, name="new-tournament"),
    path("tournaments/<game:pk>/", tournaments.tournament, name="tournament"),
    path("tournaments/<game:pk>/advance/", tournaments.advance, name="tournament-advance"),
    path("tournaments/<game:pk>/signup/", tournaments.sign_up, name="tournament-signup"),
    path("tournaments/<game:pk>/withdraw/", tournaments.withdraw, name="tournament-withdraw"),
    path("tournaments/<game:pk>/start/", tournaments.start, name="tournament-start"),
    path("games/archive/", people.archive, name="archive"),
    path("players/<str:username>/", people.player, name="player"),
    path("ratings/", people.leaderboard, name="ratings"),
    path("games/<game:pk>/", game.game, name="game"),
    path("games/<game:pk>/live/", game.live, name="live"),
    path("games/<game:pk>/stream/", push.stream, name="stream"),
    path("games/<game:pk>/move/", game.move, name="move"),
    path("games/<game:pk>/takeback/", game.takeback, name="takeback"),
    path("games/<game:pk>/talk/", talk.talk, name="talk"),
    path("games/<game:pk>/talk/mute/", talk.mute, name="talk-mute"),
    path("games/<game:pk>/talk/<game:seq>/", talk.act, name="talk-act"),
    path("games/<game:pk>/rematch/", game.rematch, name="rematch"),
    path("games/<game:pk>/report/", game.report, name="report"),
    path("games/<game:pk>/verify/", verify.verify, name="verify"),
    path("games/<game:pk>/orders/", orders.orders, name="orders"),
    path("games/<game:pk>/orders/cancel/", orders.cancel, name="orders-cancel"),
    path("games/<game:pk>/moderate/", moderation.moderate, name="moderate"),
    path("games/<game:pk>/undo/", moderation.undo, name="undo"),
    path("games/<game:pk>/clock/", moderation.clock, name="clock"),
    path("games/<game:pk>/act/", moderation.act, name="moderate-act"),
    path("games/<game:pk>/hand-to-bot/", moderation.hand_to_bot, name="hand_to_bot"),
    path("accounts/signup/", auth_throttled(account.signup), name="signup"),
    path("accounts/verify/<str:token>/", account.verify_email, name="verify-email"),
    path("settings/verify/", auth_throttled(account.send_verification), name="send-verification"),
    path("settings/", account.settings_page, name="settings"),
    path("settings/vacation/", account.start_vacation, name="vacation"),
    path("settings/blocks/", account.block, name="block"),
    path("settings/blocks/<str:username>/remove/", account.unblock, name="unblock"),
    path("settings/webhook/resume/", account.resume_webhook, name="resume_webhook"),
    path("settings/email/", auth_throttled(account.change_email), name="change-email"),
    # A token's id is a 64-bit key as a game's is: the same converter bounds it.
    path("settings/tokens/<game:pk>/revoke/", account.revoke_token, name="revoke-token"),
]
