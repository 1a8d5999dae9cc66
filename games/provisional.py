"""What a title's provisional component data means, in one sentence a player
reads in the game itself (the game detail, the page, every mail of the game),
not only next to the title in `GET /api/titles/`."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

NOTES = {
    "havana": _(
        "The building costs and VP are provisional: no public source lists "
        "Havana's 36 printed cards, so those in your box may differ."
    ),
    "18cuba": _(
        "Some component data (three market prices, the narrow-train, wagon and "
        "machine tables, two edge tiles) is our reading of the designer's draft "
        "and may differ from the printed game."
    ),
}
GENERIC = _(
    "Some of this title's component data is provisional: it may differ from the printed game."
)


def note(engine) -> str | None:
    """The sentence for `engine`'s game, in the active language, or None."""
    if not getattr(engine, "PROVISIONAL_DATA", False):
        return None
    return str(NOTES.get(engine.NAME, GENERIC))
