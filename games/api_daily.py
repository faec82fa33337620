"""The daily's HTTP endpoints (DESIGN §5, §7), mounted at /api/v1/ next to the games' router.

``GET /daily``
    Today's date, level, commitment (``sha256(seed)``), when the day ends, and the requesting
    player's attempt (``none`` | ``active`` | ``finished`` | ``expired``). Anonymous callers get
    ``attempt.state == "none"``. The seed is ``null``: it is secret while the day runs.
``GET /daily/{date}``
    The same for another day. A past day also reveals its ``seed``; a future day, or a past
    day nobody played, is 404.

Starting the daily is ``POST /games {"mode": "daily"}`` (games.api), which calls
:func:`start_todays_daily`: 201 with a new game, 200 with the one the player already has.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status
from pydantic import BaseModel, Field

from games import daily, services
from games.addresses import client_address
from games.errors import ApiError
from games.identity import BearerToken, PlayerCookie, device_of
from games.models import DailyDeal, Player
from games.schemas import Error

router = Router(tags=["daily"])
ERRORS = {401: Error, 404: Error, 422: Error}


class Anonymous:
    """The last resort on public reads: no identity is fine (``request.auth`` is this)."""

    def __call__(self, request: HttpRequest):
        return ANONYMOUS


ANONYMOUS = "anonymous"
PLAYER_OR_ANONYMOUS = [BearerToken(), PlayerCookie(), Anonymous()]


def player_of(request: HttpRequest) -> Player | None:
    return request.auth if isinstance(request.auth, Player) else None


class DailyResult(BaseModel):
    contracts: int
    penalty: int
    place: int


class DailyAttempt(BaseModel):
    state: Literal["none", "active", "finished", "expired"]
    game: str | None = Field(description="The game's id: resume it with GET /games/{id}.")
    result: DailyResult | None


class Daily(BaseModel):
    date: date
    level: Literal["easy", "normal", "hard"] = Field(
        description="The computer players' level: the same for everyone.")
    commitment: str = Field(description="SHA-256 of the seed, hex: published from the start.")
    seed: str | None = Field(description="Revealed once the day has ended (UTC); null before.")
    revealed: bool
    ends_at: datetime = Field(description="The day's end, 24:00 UTC: the next daily starts.")
    seconds_left: int
    attempt: DailyAttempt


def start_todays_daily(request: HttpRequest, player: Player, response: HttpResponse) -> Status:
    """``POST /games {"mode": "daily"}``: 201 and a new game, or 200 and the player's game of
    the day (one ranked attempt a day, R26)."""
    attempt = daily.start_daily(player, client_address(request), device_of(request, response))
    attempt.game.owner = player
    if attempt.created:
        return Status(201, services.game_view(attempt.played.game, attempt.played.state))
    return Status(200, services.game_view(attempt.game))


@router.get("/daily", response={200: Daily, **ERRORS}, auth=PLAYER_OR_ANONYMOUS)
def get_daily(request: HttpRequest):
    """Today's daily: its commitment, when it ends, and your attempt at it."""
    return daily.daily_json(daily.todays_deal(), player_of(request))


@router.get("/daily/{day}", response={200: Daily, **ERRORS},
            auth=PLAYER_OR_ANONYMOUS)
def get_daily_of(request: HttpRequest, day: date):
    """Another day's daily (``YYYY-MM-DD``). A past day reveals its seed: check it against
    the commitment and re-deal it with ``manage.py verify_daily``."""
    if day > daily.today():
        raise ApiError(404, "not_found", "That day has not begun.")
    if day == daily.today():
        deal = daily.todays_deal()
    else:
        deal = DailyDeal.objects.filter(date=day).first()
        if deal is None:
            raise ApiError(404, "not_found", "There was no daily that day.")
    return daily.daily_json(deal, player_of(request))
