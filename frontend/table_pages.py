"""The pages of tables for friends (issue 39): shells, as every page here; the data comes from
/api/v1/tables (games.tables.api) and the table's socket.

A table's lobby answers 404 unless this browser's player sits at it, as the API does. A join
link's page shows only what the API's preview shows (the name, how many sit), until one
confirms and sits down, under the display name they choose there; someone seated there
already is sent to their seat instead.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.not_found import TABLE, not_found
from games.models import Game
from games.players.identity import COOKIE_NAME, player_from_cookie
from games.players.names import NAME_MAX_CHARS as PERSON_NAME_MAX_CHARS
from games.players.names import NAME_MIN_CHARS as PERSON_NAME_MIN_CHARS
from games.players.names import random_name
from games.tables.models import CODE_CHARS, NAME_MAX_CHARS, NAME_MIN_CHARS, Table
from games.web.codes import normalise_code

BOUNDS = {"name": (NAME_MIN_CHARS, NAME_MAX_CHARS), "code": 20}


def table_of_browser(request: HttpRequest, **lookup) -> Table | None:
    """The open table matching ``lookup`` that this browser's player sits at, if any."""
    player = player_from_cookie(request.COOKIES.get(COOKIE_NAME))
    return None if player is None else Table.objects.of(player).filter(**lookup).first()


@ensure_csrf_cookie
def join(request: HttpRequest, code: str) -> HttpResponse:
    # Someone seated at the table is at their seat already: no "take a seat" question, straight
    # to its running game (if they still play it) or its lobby. A read, nothing written.
    player = player_from_cookie(request.COOKIES.get(COOKIE_NAME))
    known = normalise_code(code[:BOUNDS["code"]], CODE_CHARS)
    table = None if player is None or known is None else (
        Table.objects.of(player).filter(code=known).select_related("game").first())
    if table is not None:
        game = table.game
        if (game is not None and game.status == Game.ACTIVE
                and game.seats.filter(player=player, left_at=None).exists()):
            return redirect("frontend:table", game_id=game.public_id)
        return redirect("frontend:table_lobby", table_id=table.public_id)
    # The name to sit down under, which the person may change before they do: theirs, or
    # for a browser with no player yet the friendly one it would be given anyway.
    return render(request, "frontend/table_join.html",
                  {"page": "tables", "code": code[:BOUNDS["code"]],
                   "your_name": player.name if player is not None else random_name(),
                   "name_bounds": (PERSON_NAME_MIN_CHARS, PERSON_NAME_MAX_CHARS)})


@ensure_csrf_cookie
def lobby(request: HttpRequest, table_id: str) -> HttpResponse:
    if table_of_browser(request, public_id=table_id) is None:
        return not_found(request, "tables", TABLE)
    return render(request, "frontend/table_lobby.html",
                  {"page": "tables", "table_id": table_id,
                   "name_bounds": (PERSON_NAME_MIN_CHARS, PERSON_NAME_MAX_CHARS)})
