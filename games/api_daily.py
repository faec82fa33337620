"""The daily's HTTP endpoints (docs/api.md, R26), mounted at /api/v1/ next to the games' router.

``GET /daily``
    Today's date, level, commitment (``sha256(seed)``), when the day ends, and the requesting
    player's attempt (``none`` | ``active`` | ``finished`` | ``expired``). Anonymous callers get
    ``attempt.state == "none"``. The seed is ``null``: it is secret while the day runs.
``GET /daily/{date}``
    The same for another day. A past day also reveals its ``seed``; a future day, or a past
    day that had no deal, is 404.
``GET /daily/{date}/deals``
    A revealed day's ten deals as they were dealt (the first dealer; each deal's dealer, four
    hands and first discard), for checking against the seed (the day page's button does, in
    the browser). Today, a future day, or a day that had no deal is 404: while the day runs,
    these are its hidden cards (R25).

Starting the daily is ``POST /games {"mode": "daily"}`` (games.api), which calls
``games.api._start_todays_daily``: 201 with a new game, 200 with the one the player
already has.

The daily, read from here, lives in the games app's layers:

- the day's clock, commitment and what a day shows (games.daily: games.daily.today,
  games.daily.commitment_of, games.daily.revealed_seed, games.daily.daily_json);
- its one writer (games.services.daily): the day's deal (games.services.daily.deal_for,
  games.services.daily.prepare_deals), a player's one attempt
  (games.services.daily.start_daily), the day's end (games.services.daily.close_ended_days);
- the schedule that calls the writer (games.tasks.prepare_daily_deals,
  games.tasks.close_ended_dailies) and what an operator runs
  (games.management.commands.daily, games.management.commands.verify_daily);
- the browser's pages, all in frontend/static/frontend/js/daily/ (its entry point,
  frontend/static/frontend/js/daily/today.js, maps them).
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from games import daily
from games.models import DailyDeal
from games.players.identity import AUTH_OPTIONAL, PLAYER_OR_ANONYMOUS, player_of
from games.schemas import Daily, DailyDeals
from games.services.daily import todays_deal
from games.web.errors import ApiError
from games.web.schemas import Day, Error

router = Router(tags=["daily"])
ERRORS = {401: Error, 404: Error, 422: Error}


@router.get("/daily", response={200: Daily, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def get_daily(request: HttpRequest):
    """Today's daily: its commitment, when it ends, and your attempt at it."""
    return daily.daily_json(todays_deal(), player_of(request))


@router.get("/daily/{day}", response={200: Daily, **ERRORS},
            auth=PLAYER_OR_ANONYMOUS, openapi_extra=AUTH_OPTIONAL)
def get_daily_of(request: HttpRequest, day: Day):
    """Another day's daily (``YYYY-MM-DD``). A past day reveals its seed: check it against
    the commitment and re-deal it with ``manage.py verify_daily``."""
    if day > daily.today():
        raise ApiError(404, "not_found", "That day has not begun.")
    if day == daily.today():
        deal = todays_deal()
    else:
        deal = DailyDeal.objects.filter(date=day).first()
        if deal is None:
            raise ApiError(404, "not_found", "There was no daily that day.")
    return daily.daily_json(deal, player_of(request))


@router.get("/daily/{day}/deals", response={200: DailyDeals, **ERRORS}, auth=None,
            by_alias=True, exclude_unset=True)
def get_daily_deals(request: HttpRequest, day: Day):
    """A revealed day's ten deals, as every player of that day was dealt them. Re-deal the
    seed (games/engine/rng.py) and compare; 404 while the day runs."""
    deal = None if day >= daily.today() else DailyDeal.objects.filter(date=day).first()
    answer = daily.revealed_deals_json(deal) if deal is not None else None
    if answer is None:
        raise ApiError(404, "not_found", "A day's deals are shown once the day has ended.")
    return answer
