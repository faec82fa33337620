"""The leaderboards' HTTP endpoints (docs/api.md), mounted at /api/v1/leaderboards/.

Public reads; an identity (bearer token or the browser's cookie) is optional and adds ``me``,
the caller's own entry with its rank, whether or not it is on the page.

- ``GET /daily`` and ``GET /daily/{date}``: a day's board (``YYYY-MM-DD``; today without one).
- ``GET /week`` and ``GET /week/{week}``: an ISO week's board (``YYYY-Www``; this week
  without one): each player's sums over that week's dailies.
- ``GET /players/{id}``: a player's daily history (listed scores), with the latest ``days``
  dailies (1-100) ranked, their games once their days have ended, and the lay-down rate of
  each rung against everyone's; ``GET /me``: one's own, hidden scores included.

A day's entries carry their ``game`` (for ``/replay/{id}/``) once the day has ended; while it
runs, ``game`` is null: a running daily's replay is nobody's.

Pages: ``limit`` (1-100, default 50) entries in rank order; ``next`` is an opaque cursor to
pass as ``after`` for the following page (null on the last). Hidden scores and banned
players never appear. A future day or week, or a week that does not exist, is 404; a cursor
that is not one of ours is 422 ``invalid_cursor``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import BaseModel, ConfigDict, Field

from games import daily
from games.engine.contracts import TOP_RUNG
from games.players.identity import AUTH_OPTIONAL, PLAYER, PLAYER_OR_ANONYMOUS, player_of
from games.players.models import Player
from games.web.errors import ApiError
from games.web.schemas import CURSOR, Day, Error, PublicId, Week
from leaderboards import history, services
from leaderboards.models import Score, week_of
from leaderboards.ranking import (
    PAGE_DEFAULT,
    PAGE_MAX,
    Board,
    InvalidCursor,
    day_board,
    week_board,
)

router = Router(tags=["leaderboards"])
ERRORS = {401: Error, 404: Error, 422: Error}


class PlayerRef(BaseModel):
    id: str
    name: str


class Entry(BaseModel):
    rank: int
    player: PlayerRef
    contracts: int = Field(description="Contracts completed (R22): more ranks first.")
    penalty: int = Field(description="Penalty points: fewer ranks first.")
    finished_at: datetime = Field(description="When the game ended: earlier ranks first.")
    linked: bool = Field(False, description="Under review: another identity played this "
                                            "daily from the same address or browser (a "
                                            "week's entry: one of the dailies it counts).")
    game: str | None = Field(None, description="A day's entry, once the day has ended: the "
                                               "game's id, for its replay. Null before, and "
                                               "on week boards.")


# Today's board's socket frames (leaderboards.consumers; ladder/asyncapi.py publishes them).
FRAME = ConfigDict(extra="forbid")


class BoardEntryData(BaseModel):
    model_config = FRAME
    date: date
    rank: int = Field(description="Its rank when it joined: the entries below it moved down.")
    player: PlayerRef
    contracts: int
    penalty: int
    finished_at: datetime
    linked: bool = Field(description="Under review (as the board's entries).")


class BoardEntryFrame(BaseModel):
    """A score joined today's board (a daily finished, or a moderator restored one), or an
    entry's ``linked`` mark changed."""

    model_config = FRAME
    t: Literal["entry"]
    data: BoardEntryData


class BoardRemovedData(BaseModel):
    model_config = FRAME
    date: date
    player: PlayerRef


class BoardRemovedFrame(BaseModel):
    """A moderator took the player's entry off today's board."""

    model_config = FRAME
    t: Literal["removed"]
    data: BoardRemovedData


BOARD_FRAMES = (BoardEntryFrame, BoardRemovedFrame)


class WeekEntry(Entry):
    days: int = Field(description="Dailies of the week counted in the sums.")
    finished_at: datetime = Field(description="When the latest counted daily ended: whoever "
                                              "reached the total earlier ranks first.")


class DailyBoard(BaseModel):
    date: date
    count: int = Field(description="Entries on the board.")
    distribution: list[int] = Field(
        description="Entries by contracts completed: item n counts those who completed n "
                    "contracts (0-10).", min_length=TOP_RUNG + 1, max_length=TOP_RUNG + 1)
    entries: list[Entry]
    next: str | None = Field(description="Pass as 'after' for the next page.")
    me: Entry | None = Field(description="Your own entry and rank, if you are on the board.")


class WeekBoard(BaseModel):
    week: str = Field(examples=["2026-W48"])
    starts: date
    ends: date
    count: int
    entries: list[WeekEntry]
    next: str | None
    me: WeekEntry | None


class DayRecord(BaseModel):
    date: date
    contracts: int
    penalty: int
    place: int
    rank: int | None


class History(BaseModel):
    player: PlayerRef
    games: int = Field(description="Finished games of any mode.")
    dailies: int = Field(description="Finished dailies (ranked games).")
    contracts: int = Field(description="Contracts completed over those dailies.")
    best_day: DayRecord | None
    current_streak: int = Field(description="Consecutive days with a finished daily, ending "
                                            "today or yesterday.")
    longest_streak: int
    recent: list[DayRecord] = Field(description="The latest 30 dailies, newest first.")


class DayPlayed(BaseModel):
    date: date
    contracts: int
    penalty: int
    place: int = Field(description="Place at the player's own table (1-4).")
    rank: int = Field(description="Rank on that day's board.")
    game: str | None = Field(description="The game's id once the day has ended (its replay "
                                         "is everyone's then); null while the day runs.")


class RungRate(BaseModel):
    rung: int = Field(ge=1, le=TOP_RUNG)
    deals: int = Field(description="Deals this player played on this rung.")
    laid_down: int = Field(description="Of those, deals in which they laid its contract down.")
    rate: float | None = Field(description="laid_down / deals; null without a deal.")
    everyone_rate: float | None = Field(
        description="The same over the latest 500 listed dailies of all players.")


class PlayerPage(History):
    days: list[DayPlayed] = Field(max_length=100, description="The latest dailies (the "
                                  "'days' asked for), newest first.")
    rungs: list[RungRate] = Field(min_length=TOP_RUNG, max_length=TOP_RUNG, description=(
        "Rungs 1-10: how often this player laid down the rung's contract (over their latest "
        "100 listed dailies) against everyone's rate."))


class PlayerQuery(Schema):
    days: int = Field(history.PAGE_DAYS_DEFAULT, ge=1, le=history.PAGE_DAYS_MAX,
                      description="How many of the latest dailies to list.")


class PageQuery(Schema):
    limit: int = Field(PAGE_DEFAULT, ge=1, le=PAGE_MAX)
    after: str | None = Field(None, max_length=256, pattern=CURSOR,
                              description="The 'next' of the previous page.")


def _page(board: Board, query: PageQuery) -> tuple[list[dict], str | None]:
    try:
        rows, next_cursor = board.page(query.limit, query.after)
    except InvalidCursor:
        raise ApiError(422, "invalid_cursor", "That page cursor is not valid.") from None
    entries = [services.entry_json(rank, row) for rank, row in rows]
    for entry, (_rank, row) in zip(entries, rows, strict=True):
        entry["score_id"] = row.id  # for _add_games; not in the schema, so never sent
    return entries, next_cursor


def _add_games(day: date, entries: list[dict]) -> None:
    """An ended day's entries name their games (one query for the page); a running day's
    stay null."""
    if not daily.has_ended(day) or not entries:
        return
    games = dict(Score.objects.filter(id__in=[e["score_id"] for e in entries])
                 .values_list("id", "game__public_id"))
    for entry in entries:
        entry["game"] = games.get(entry["score_id"])


def _my_entry(board, request: HttpRequest) -> tuple:
    """(the requesting player's entry on the board, its JSON), or (None, None) for someone
    anonymous or not on it."""
    player = player_of(request)
    mine = None if player is None else board.entry_of(player)
    if mine is None:
        return None, None
    return mine, services.entry_json(board.rank_of(mine), board.row_of(mine))


def _day_json(day: date, request: HttpRequest, query: PageQuery) -> dict:
    if day > daily.today():
        raise ApiError(404, "not_found", "That day has not begun.")
    board = day_board(day)
    by_contracts = board.by_contracts()
    entries, next_cursor = _page(board, query)
    mine, me = _my_entry(board, request)
    if mine is not None:
        me["score_id"] = mine.id
    _add_games(day, entries + ([me] if me else []))
    return {"date": day, "count": sum(by_contracts.values()),
            "distribution": [by_contracts.get(n, 0) for n in range(TOP_RUNG + 1)],
            "entries": entries, "next": next_cursor, "me": me}


@router.get("/daily", response={200: DailyBoard, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def todays_board(request: HttpRequest, query: Query[PageQuery]):
    """Today's board (UTC). New entries are also pushed on ``/ws/leaderboards/daily/``."""
    return _day_json(daily.today(), request, query)


@router.get("/daily/{day}", response={200: DailyBoard, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def day_board_of(request: HttpRequest, day: Day, query: Query[PageQuery]):
    """A day's board: contracts completed (more first), penalty points (fewer first), then
    the earlier finish (R22)."""
    return _day_json(day, request, query)


def _week_bounds(week: str) -> tuple[date, date]:
    """The week's Monday and Sunday; ``week`` is ``YYYY-Www`` (the path's pattern)."""
    year, number = int(week[:4]), int(week[6:])
    try:
        starts = date.fromisocalendar(year, number, 1)
    except ValueError:  # week 53 of a 52-week year, or year 0
        raise ApiError(404, "not_found", "There is no such ISO week.") from None
    return starts, date.fromisocalendar(year, number, 7)


def _week_json(week: str, request: HttpRequest, query: PageQuery) -> dict:
    starts, ends = _week_bounds(week)
    if starts > daily.today():
        raise ApiError(404, "not_found", "That week has not begun.")
    board = week_board(week)
    entries, next_cursor = _page(board, query)
    _, me = _my_entry(board, request)
    return {"week": week, "starts": starts, "ends": ends, "count": board.count(),
            "entries": entries, "next": next_cursor, "me": me}


@router.get("/week", response={200: WeekBoard, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def this_weeks_board(request: HttpRequest, query: Query[PageQuery]):
    """This ISO week's board (weeks start on Monday, UTC)."""
    return _week_json(week_of(daily.today()), request, query)


@router.get("/week/{week}", response={200: WeekBoard, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def week_board_of(request: HttpRequest, week: Week, query: Query[PageQuery]):
    """An ISO week's board (``YYYY-Www``): each player's contracts and penalty points summed
    over that week's dailies; more contracts first, then fewer points, then whoever reached
    the total first. A daily not played counts nothing."""
    return _week_json(week, request, query)


@router.get("/players/{player_id}", response={200: PlayerPage, **ERRORS}, auth=None)
def player_history(request: HttpRequest, player_id: PublicId, query: Query[PlayerQuery]):
    """A player's dailies as the boards show them: games, contracts, best day, streaks, the
    latest ``days`` dailies with their ranks (and games, once each day has ended), and how
    often they lay down each rung's contract against everyone's rate."""
    player = Player.objects.filter(public_id=player_id, banned_at__isnull=True).first()
    if player is None:
        raise ApiError(404, "not_found", "No such player.")
    return history.player_page(player, query.days)


@router.get("/me", response={200: History, **ERRORS}, auth=PLAYER)
def my_history(request: HttpRequest):
    """Your own dailies, including any a moderator took off the boards."""
    return history.history(request.auth, include_hidden=True)

