"""The two readings of a stored event payload: whole, and as everyone may see it.

An action's payload stores the action and, where the engine's
`public_action` says part of it is secret (a face-down choice), its public
form under "public".  The created event carries the resolved setup, which
nobody sees until the game ends.  (Its own "public" key is the game's
visibility flag; it is left out of both readings, as it always has been.)
A message's public reading is empty, whoever sent it to whom: what it
says, its length, its sender and its audience are all in what the chain
commits to, which goes only to those who may read it (games.selectors.talk).
"""

from __future__ import annotations

from typing import Any

from games.stream.replay import TALK_KINDS


def action_payload(engine, state, seat: int, action: dict[str, Any], after=None) -> dict[str, Any]:
    """What an action event stores: the action, its public form where the
    engine hides part of it from the other seats, and what it set off
    without a decision where the engine says (`effects`, read from `after`,
    the state the action led to; every seat may see them)."""
    payload: dict[str, Any] = {"action": action}
    public = engine.public_action(state, seat, action)
    if public is not None:
        payload["public"] = public
    effects = getattr(engine, "effects", None)
    if after is not None and effects is not None:
        said = effects(after)
        if said:
            payload["effects"] = said
    return payload


def full_payload(event) -> dict[str, Any]:
    """The payload as its author and those who may see everything see it."""
    payload = dict(event.payload)
    payload.pop("public", None)
    return payload


def public_payload(event) -> dict[str, Any]:
    """The payload as every viewer may see it.  Where the action has a
    public form, a bot's record of its choice (games.services.bots) is cut
    to the bot's kind: its seed and the index it chose would narrow down
    the hidden part."""
    if event.kind in TALK_KINDS:
        return {}
    payload = dict(event.payload)
    public = payload.pop("public", None)
    if event.kind == "created":
        payload.pop("setup", None)
    elif public is not None:
        payload["action"] = public
        if "bot" in payload:
            payload["bot"] = {"kind": payload["bot"]["kind"]}
    return payload
