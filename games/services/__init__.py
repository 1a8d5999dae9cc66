"""The game service: the one write path.

Every command (API, web, email, timer, moderator, the sweep) changes a game
through these modules, and only they append to a stream (`store.append`; a
test holds every other module to that).  One module per concern: `creation`,
`moves`, `seats`, `undo`, `takeback`, `clocks` (with a moderator's lock),
`vacation`, `bots` (a bot's move, a seat handed to a bot), the moderators'
`replacement`, `abort`, `notes`, `suspension` and `queue`; and before a
game, `tables` (a game gathered with its players' consent), `invitations`,
`rematch` and `seat_offers` (a running game's seat offered to whoever takes
it over); `common` holds what they share.

Naming, as zulip's actions do it:

- `check_<verb>(..., user, ...)` is the entry point for a person's request.
  It checks that this person may do it (holds the seat, is a moderator, is
  one of the players) and that what they sent is well formed, then calls
  `do_<verb>`.  Views, mail and management commands call only these.
- `do_<verb>(..., actor, source, ...)` is the act itself, for callers that
  already know it is allowed: a `check_*`, the timer, the sweep, an approved
  takeback.  It still refuses what the game's state forbids (an illegal
  move, a stale seq, a finished game), since that is the stream's guarantee
  and not a permission.

Errors are the domain's (`games.errors`, `IllegalAction`); the API and the
mail doors map them to their answers.
"""
