"""Rewrite every finished game's stored result in the one result shape.

docs/design.md fixes one `result` for every title: winners, places, scores,
ended_by, breakdown, and a solo game's opponent.  Results stored before it
carry each title's own keys (Havana `reason`, Point City `end`, The Estates
its rounds), which pages, mails and the API no longer read.

Each finished game is replayed from its own live events with today's engine,
which is what the row would hold had the game finished today.  A game that
cannot be replayed (its title is no longer installed, or its stream no longer
replays to an end: `manage.py verify_games` reports those) is converted field
by field from its old result instead.  For the three titles that is lossless:
Havana's breakdown is its VP (buildings are its only source), Point City's
old breakdown and The Estates' rounds hold every part.  For any other title
the conversion keeps winners, places (worked out from the scores, higher
first, when the old result had none) and scores; `ended_by` becomes the old
reason if it had one, else `unknown`, and the breakdown, which the old shape
never held, is the whole score as one part, `total`.  A result without
even its scores is left as it is.

Reversing this migration leaves the results in the new shape.
"""

import re

from django.db import migrations

# Frozen copies of the titles' end reasons as of this migration: a later
# change to an engine must not change what this migration writes.
POINTCITY_ENDED_BY = {
    "the market could not be refilled": "pile_exhausted",
    "no draft possible on the final turn": "no_draft",
    "resignation": "resignation",
}
ESTATES_ENDED_BY = {
    "two rows complete": "two_rows_complete",
    "no numbered roof left": "no_numbered_roof",
    "no floor cube left and every building roofed": "nothing_to_build",
    "nothing left to choose": "nothing_to_choose",
    "resignation": "resignation",
}
NEW_KEYS = {"winners", "places", "scores", "ended_by", "breakdown"}


def replayed(game, event_model):
    """The result today's engine gives for the game's stream, or None."""
    from games.engines import base
    from games.stream import replay

    try:
        engine = base.get(game.title)
    except (KeyError, ImportError):
        return None
    rows = event_model.objects.filter(game_id=game.pk, seq__lte=game.seq).order_by("seq")
    events = list(rows.only("seq", "kind", "seat", "payload"))
    undos = {e.seq: e.payload["to_seq"] for e in events if e.kind == "undo"}
    ranges = replay.live_ranges(game.seq, undos)
    try:
        state = replay.fold(engine, {}, [e for e in events if replay.is_live(e.seq, ranges)])
        return engine.result(state)
    except Exception:
        # Whatever stops a replay (an IllegalAction, an engine bug, a payload
        # written by older code), the old result can still be converted.
        return None


def ranked(scores):
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def shaped(places, scores, ended_by, breakdown, opponent=None):
    out = {
        "winners": [seat for seat, place in enumerate(places) if place == 1],
        "places": list(places),
        "scores": list(scores),
        "ended_by": ended_by,
        "breakdown": breakdown,
    }
    if opponent is not None:
        out["opponent"] = {"score": opponent}
    return out


def havana(old, options):
    breakdown = [{"buildings": vp} for vp in old["scores"]]
    return shaped(old["places"], old["scores"], old["reason"], breakdown)


def pointcity(old, options):
    breakdown = []
    for part in old["breakdown"]:
        parts = {"buildings": part["buildings"]}
        for token in part["tokens"]:
            parts[f"civic token {token['token']}"] = token["points"]
        breakdown.append(parts)
    opponent = old["opponent"]["total"] if "opponent" in old else None
    ended_by = POINTCITY_ENDED_BY[old["end"]]
    return shaped(old["places"], old["scores"], ended_by, breakdown, opponent)


def estates(old, options):
    rounds = old["rounds"]
    players = len(old["scores"])
    breakdown = [
        {"row a": 0, "row b": 0, "row c": 0, "mayor": 0, "stash": 0} for _ in range(players)
    ]
    for scored in rounds:
        for row in scored["rows"]:
            for building in row["buildings"]:
                owner, points = building["owner"], building["points"]
                if owner is None:
                    continue
                single = points // 2 if row["mayor"] else points
                breakdown[owner][f"row {row['row']}"] += single
                breakdown[owner]["mayor"] += points - single
        for seat, stash in enumerate(scored["stash"]):
            breakdown[seat]["stash"] += stash
    reason = rounds[-1]["reason"]
    if reason != "resignation" and len(rounds) < options.get("rounds", 1):
        ended_by = "two_round_wins"
    else:
        ended_by = ESTATES_ENDED_BY[reason]
    return shaped(old["places"], old["scores"], ended_by, breakdown)


def any_title(old, options):
    scores = old["scores"]
    places = old.get("places") or ranked(scores)
    reason = old.get("reason") or old.get("end")
    code = re.sub(r"[^a-z0-9]+", "_", str(reason).lower()).strip("_") if reason else ""
    ended_by = code if re.fullmatch(r"[a-z][a-z0-9_]*", code) else "unknown"
    return shaped(places, scores, ended_by, [{"total": score} for score in scores])


CONVERT = {"havana": havana, "pointcity": pointcity, "estates": estates}


def converted(game):
    """The old result field by field: the title's own converter when its old
    keys are all there, else the generic one; None when even that fails."""
    old, options = game.result, game.options or {}
    for convert in (CONVERT.get(game.title), any_title):
        if convert is None:
            continue
        try:
            return convert(old, options)
        except (KeyError, TypeError, IndexError, AttributeError, ValueError):
            continue
    return None


def rewrite_results(apps, schema_editor):
    game_model = apps.get_model("games", "Game")
    event_model = apps.get_model("games", "Event")
    finished = game_model.objects.filter(status="finished", result__isnull=False)
    for game in finished.only("id", "title", "options", "seq", "result").iterator():
        if isinstance(game.result, dict) and set(game.result) >= NEW_KEYS:
            continue  # already in the new shape (written by today's code)
        result = replayed(game, event_model) or converted(game)
        if result is not None:
            game_model.objects.filter(pk=game.pk).update(result=result)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_outages_repaired_per_game")]

    operations = [migrations.RunPython(rewrite_results, migrations.RunPython.noop)]
