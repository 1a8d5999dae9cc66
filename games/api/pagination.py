"""The games list's pages: as many as there are games, with a count that
stops at a thousand.

DRF's page-number pagination counts every game the filters let through, to
know its last page and to say `count`: at a million games, `GET
/api/games/` spent half a second counting the public ones.  Here a page
says whether a next one exists without a count (games.selectors.listing.
page_rows), so the pages go on as far as the list does; `count` counts the
first CAP + 1 games only, and past CAP the answer says `count_capped: true`
(`count` is then CAP: "a thousand or more").
"""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from games.selectors import listing

CAP = 1_000
PAGE_SIZE, MAX_PAGE_SIZE = 25, 100


class GamesPagination(BasePagination):
    def paginate_queryset(self, queryset, request, view=None) -> list:
        """The rows of the page the query asks for (`page`, `page_size`:
        checked as numbers from 1 by the view's serializer)."""
        self.request, self.queryset = request, queryset
        self.number = int(request.query_params.get("page") or 1)
        size = min(int(request.query_params.get("page_size") or PAGE_SIZE), MAX_PAGE_SIZE)
        rows, self.has_next = listing.page_rows(queryset, self.number, size)
        if not rows and self.number > 1:
            raise NotFound("Invalid page.")
        return rows

    def get_paginated_response(self, data) -> Response:
        # In whatever order the database finds them first: the list's own
        # order would walk every other title's games to count one title's.
        counted = self.queryset.order_by()[: CAP + 1].count()
        return Response({
            "count": min(counted, CAP), "count_capped": counted > CAP,
            "next": self._link(self.number + 1) if self.has_next else None,
            "previous": self._link(self.number - 1) if self.number > 1 else None,
            "results": data,
        })  # fmt: skip

    def _link(self, number: int) -> str:
        url = self.request.build_absolute_uri()
        return remove_query_param(url, "page") if number == 1 else replace_query_param(
            url, "page", number)  # fmt: skip
