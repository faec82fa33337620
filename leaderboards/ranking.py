"""Boards: pages in rank order, and a rank without counting the board (from the tallies that
leaderboards.services keeps).

A :class:`Board` is a day's listed scores (:func:`day_board`) or a week's sums
(:func:`week_board`), both ordered by R22: contracts descending, penalty ascending, then the
earlier time, then id.

Pages are keyset-paginated: a cursor names the last entry shown (its sort key and rank), and
the next page starts strictly after it. Because the board mixes descending and ascending
columns, "after" is three index range scans tried in order (same pair and later; same
contracts and more penalty; fewer contracts), each of which starts exactly where it should.

``rank = 1 + (entries with more contracts: ContractTally, at most ten rows)
+ (entries with as many contracts and fewer points: Tally, one row per penalty value)
+ (entries with the same pair and an earlier (time, id): a range of the board's index)``.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import (
    Count,
    Exists,
    Expression,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce

from leaderboards.models import DAY_ORDER, WEEK_ORDER, ContractTally, Score, Tally, WeekScore

PAGE_DEFAULT = 50
PAGE_MAX = 100
# Cursor numbers past what the columns hold are refused, never sent to the database.
INT_LIMIT, BIGINT_LIMIT = 2**31, 2**63


class InvalidCursor(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Row:
    """One entry as a board shows it: read straight from a tuple, no model instances."""

    id: int
    contracts: int
    penalty: int
    at: datetime  # the finish (day) or when the total was reached (week)
    player_id: str  # the player's public id
    player_name: str
    days: int | None = None  # week boards only
    # Under review: a day's score in an unresolved cluster of linked attempts, or a week's sum
    # counting such a score.
    linked: bool = False


@dataclass(frozen=True)
class Board:
    """One board: its tally key, its rows, their order and the name of their time column."""

    key: str
    key_field: str  # the rows' column holding the key: "day" or "week"
    rows: QuerySet
    time_field: str
    order: tuple[str, ...]
    extra: tuple[str, ...] = ()  # columns a Row holds beyond the common ones
    computed: tuple[tuple[str, Expression], ...] = ()  # extra columns the rows are annotated with

    def ranked(self) -> QuerySet:
        return self.rows.annotate(**dict(self.computed)).order_by(*self.order)

    def entry_of(self, player: Model) -> Model | None:
        """The player's entry on this board, with its extra columns, or None."""
        entry = self.ranked().filter(player=player).first()
        if entry is not None:
            entry.player = player
        return entry

    def count(self) -> int:
        return _sum(ContractTally.objects.filter(board=self.key))

    def by_contracts(self) -> dict[int, int]:
        """How many entries completed each number of contracts (numbers with none left out):
        the board's shape, in one query of at most eleven rows for a day."""
        tallies = ContractTally.objects.filter(board=self.key, entries__gt=0)
        return dict(tallies.values_list("contracts", "entries"))

    def rank_of(self, entry: Model) -> int:
        """1 + the entries strictly ahead of ``entry`` (which must be on this board), in one
        round trip: three small indexed sums added up by the database."""
        return 1 + self.ahead_of(entry).get()

    def ahead_of(self, entry: Model) -> QuerySet:
        """The query counting the entries ahead of ``entry``: its own row (a primary-key
        lookup) annotated with the three sums as subqueries, one value."""
        contracts, penalty = entry.contracts, entry.penalty
        moment = getattr(entry, self.time_field)
        more_contracts = ContractTally.objects.filter(board=self.key, contracts__gt=contracts)
        fewer_points = Tally.objects.filter(board=self.key, contracts=contracts,
                                            penalty__lt=penalty)
        same_pair_earlier = (self.rows.filter(contracts=contracts, penalty=penalty)
                             .filter(Q(**{f"{self.time_field}__lt": moment})
                                     | Q(**{self.time_field: moment, "id__lt": entry.id})))
        ahead = (_sum_of(more_contracts, "board", Sum("entries"))
                 + _sum_of(fewer_points, "board", Sum("entries"))
                 + _sum_of(same_pair_earlier, self.key_field, Count("id")))
        return (type(entry)._default_manager.filter(pk=entry.pk).annotate(ahead=ahead)
                .values_list("ahead", flat=True))

    def among(self, player_ids) -> list[Row]:
        """The board narrowed to some players (a friend league: leaderboards.leagues.boards),
        in rank order: its rank among them is its place in the list plus one."""
        return self._rows(self.ranked().filter(player_id__in=player_ids))

    def _rows(self, queryset: QuerySet) -> list[Row]:
        columns = ("id", "contracts", "penalty", self.time_field, "player__public_id",
                   "player__name", *self.extra)
        common = len(columns) - len(self.extra)
        return [Row(*values[:common], **dict(zip(self.extra, values[common:], strict=True)))
                for values in queryset.values_list(*columns)]

    def row_of(self, entry: Model) -> Row:
        """An entry (a Score or WeekScore with its player) as a Row."""
        return Row(entry.id, entry.contracts, entry.penalty, getattr(entry, self.time_field),
                   entry.player.public_id, entry.player.name,
                   **{name: getattr(entry, name) for name in self.extra})

    def page(self, limit: int, cursor: str | None) -> tuple[list[tuple[int, Row]], str | None]:
        """Up to ``limit`` ranked entries after ``cursor`` (the start when None), with their
        ranks, and the cursor of the next page (None at the end)."""
        limit = max(1, min(limit, PAGE_MAX))
        if cursor is None:
            rows = self._rows(self.ranked()[:limit + 1])
            first_rank = 1
        else:
            contracts, penalty, moment, last_id, last_rank = decode_cursor(cursor)
            rows = []
            t = self.time_field
            for after in (
                Q(contracts=contracts, penalty=penalty)
                & (Q(**{f"{t}__gt": moment}) | Q(**{t: moment, "id__gt": last_id})),
                Q(contracts=contracts, penalty__gt=penalty),
                Q(contracts__lt=contracts),
            ):
                rows += self._rows(self.ranked().filter(after)[:limit + 1 - len(rows)])
                if len(rows) > limit:
                    break
            first_rank = last_rank + 1
        more = len(rows) > limit
        rows = rows[:limit]
        ranked = [(first_rank + i, row) for i, row in enumerate(rows)]
        next_cursor = None
        if more and rows:
            last = rows[-1]
            next_cursor = encode_cursor(last.contracts, last.penalty, last.at, last.id,
                                        first_rank + len(rows) - 1)
        return ranked, next_cursor


def _sum(tallies: QuerySet) -> int:
    return tallies.aggregate(n=Sum("entries"))["n"] or 0


def _sum_of(queryset: QuerySet, key: str, aggregate) -> Coalesce:
    """``COALESCE((SELECT aggregate ... GROUP BY key), 0)``: the rows share the key, so the
    subquery has one row or none."""
    grouped = queryset.order_by().values(key).annotate(n=aggregate).values("n")
    return Coalesce(Subquery(grouped), 0)


def day_board(day: date) -> Board:
    return Board(day.isoformat(), "day", Score.objects.listed().for_day(day), "finished_at",
                 tuple(DAY_ORDER), extra=("linked",))


def week_board(week: str) -> Board:
    under_review = Score.objects.listed().filter(player=OuterRef("player_id"), week=week,
                                                 linked=True)
    return Board(week, "week", WeekScore.objects.filter(week=week), "reached_at",
                 tuple(WEEK_ORDER), extra=("days", "linked"),
                 computed=(("linked", Exists(under_review)),))


# --- Cursors ----------------------------------------------------------------------------------


def encode_cursor(contracts: int, penalty: int, moment: datetime, pk: int, rank: int) -> str:
    raw = json.dumps([contracts, penalty, moment.isoformat(), pk, rank], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, int, datetime, int, int]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        contracts, penalty, moment, pk, rank = json.loads(base64.urlsafe_b64decode(padded))
        values = (int(contracts), int(penalty), datetime.fromisoformat(moment), int(pk),
                  int(rank))
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError) as exc:
        raise InvalidCursor(cursor) from exc
    contracts, penalty, moment, pk, rank = values
    if moment.tzinfo is None or not (0 <= contracts < INT_LIMIT and 0 <= penalty < INT_LIMIT
                                     and 0 <= pk < BIGINT_LIMIT and 0 <= rank < BIGINT_LIMIT):
        raise InvalidCursor(cursor)
    return values
