"""A page of a long list, without counting the list.

Django's Paginator counts every row the filters let through, to say "page 3
of N".  At a million finished games, the archive's count of one title's
games took 0.46 s, where the page itself takes a few milliseconds off the
list's index (games.models.listed_at).  The archive says "Newer" and
"Older" instead (games.selectors.listing.page_rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.selectors import listing

# Deeper than this, OFFSET walks too many rows to be worth serving: filters
# narrow a list better than paging ten thousand pages down.
LAST_PAGE = 10_000


@dataclass
class Page:
    rows: list[Any]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    def __iter__(self):
        return iter(self.rows)


def page_of(rows, asked: str | None, per_page: int) -> Page:
    """Page `asked` (its number as the query string gives it: anything that
    is not a number from 1 to LAST_PAGE is the first) of the sliceable `rows`."""
    try:
        number = int(asked or 1)
    except ValueError:
        number = 1
    if not 1 <= number <= LAST_PAGE:
        number = 1
    shown, has_next = listing.page_rows(rows, number, per_page)
    return Page(shown, number, has_next)
