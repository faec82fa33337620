"""The friend leagues' pages (issue 31): shells, as every page here; the data comes from
/api/v1/leagues (leaderboards.leagues.api).

A league's page answers 404 unless this browser's player is a member, as a game's page does
(frontend.views.table): the API says nothing of a league one is not in, and neither does the
page. A join link's page shows only what the API's preview shows: the name and member count.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.not_found import LEAGUE, not_found
from games.players.identity import COOKIE_NAME, player_from_cookie
from leaderboards.leagues.models import NAME_MAX_CHARS, NAME_MIN_CHARS, League

BOUNDS = {"name": (NAME_MIN_CHARS, NAME_MAX_CHARS), "code": 16}


@ensure_csrf_cookie
def leagues(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/leagues.html", {"page": "leagues", "bounds": BOUNDS})


@ensure_csrf_cookie
def join(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "frontend/league_join.html", {"page": "leagues", "code": code})


@ensure_csrf_cookie
def league(request: HttpRequest, league_id: str) -> HttpResponse:
    player = player_from_cookie(request.COOKIES.get(COOKIE_NAME))
    if player is None or not League.objects.of(player).filter(public_id=league_id).exists():
        return not_found(request, "leagues", LEAGUE)
    return render(request, "frontend/league.html",
                  {"page": "leagues", "league_id": league_id, "bounds": BOUNDS})
