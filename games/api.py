"""The games' HTTP endpoints (docs/api.md), mounted at /api/v1/.

Thin: check input, call :mod:`games.services`, shape the response. Identity comes from
:mod:`games.players.identity` (bearer token or signed cookie with CSRF); accounts and transfer codes
are in :mod:`games.players.api`.

Statuses: 201 created; 400 a body that is not JSON; 401 ``no_identity``/``invalid_token``;
403 ``csrf_failed`` or a refusal about one's own game (hints in a ranked game, a replay
before its time); 404 ``not_found`` for a game that is not yours, or a replay not open to
you (never 403); 409
``stale_version`` with the current ``game``; 422 an action the server will not apply, for any
reason (schema, ``malformed_action``, ``unknown_action``, ``unknown_card``, or a rule:
``code`` and ``rule``), the game unchanged, or input out of the bounds games.schemas states
(a body that is not a JSON object too); 429 throttled. The error shape: docs/api.md.
"""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router, Schema, Status
from pydantic import Field

from games import reads, services
from games.models import Game
from games.players.identity import (
    AUTH_OPTIONAL,
    PLAYER,
    PLAYER_OR_ANONYMOUS,
    PLAYER_OR_NEW_BROWSER,
    device_of,
    player_for_write,
    player_of,
)
from games.players.models import Player
from games.reads import hints, replays
from games.schemas import (
    ActionRequest,
    ActionResult,
    DealLog,
    GameList,
    GameView,
    Hint,
    NewGame,
    Replay,
    Stale,
)
from games.services.daily import start_daily
from games.web.addresses import client_address
from games.web.renderer import json_answer
from games.web.schemas import ERRORS, Error, PublicId
from games.web.throttles import Throttle

router = Router(tags=["games"], by_alias=True, exclude_unset=True)

OFFSET_MAX = 100_000


# Rates: settings.THROTTLE_RATES (env THROTTLE_IDENTITIES, THROTTLE_GAMES, THROTTLE_ACTIONS).
NEW_IDENTITIES = Throttle("identities", by="address", new_identities_only=True)
GAMES_STARTED = Throttle("games", by="player")
ACTIONS = Throttle("actions", by="player")
HINTS = Throttle("hints", by="player")


# --- Games --------------------------------------------------------------------------------


def _start_todays_daily(request: HttpRequest, player: Player,
                        response: HttpResponse) -> Status:
    """``POST /games {"mode": "daily"}``: 201 and a new game, or 200 and the player's game of
    the day (one ranked attempt a day, R26)."""
    attempt = start_daily(player, client_address(request), device_of(request, response))
    if attempt.created:
        return Status(201, reads.game_view(attempt.played.seated, attempt.played.state))
    return Status(200, reads.game_view(services.get_game(player, attempt.game.public_id)))


@router.post("/games", response={200: GameView, 201: GameView, **ERRORS},
             auth=PLAYER_OR_NEW_BROWSER,
             throttle=[NEW_IDENTITIES, GAMES_STARTED])
def start_game(request: HttpRequest, payload: NewGame, response: HttpResponse):
    """Start a practice game against three bots of ``level``, or today's daily (``level`` is
    then the daily's, the same for everyone): 201 with a new game, or 200 with the daily you
    already have (one attempt a day). A browser without a player gets one here
    (CSRF-checked), with its cookie."""
    player = player_for_write(request, response)
    if payload.mode == Game.DAILY:
        return _start_todays_daily(request, player, response)
    played = services.start_game(player, payload.mode, payload.level)
    return Status(201, reads.game_view(played.seated, played.state))


class GameFilter(Schema):
    status: Literal["active", "finished", "expired"] | None = None
    mode: Literal["practice", "daily"] | None = None
    limit: int = Field(20, ge=1, le=100)
    offset: int = Field(0, ge=0, le=OFFSET_MAX)


@router.get("/games", response={200: GameList, **ERRORS}, auth=PLAYER)
def list_games(request: HttpRequest, filters: Query[GameFilter]):
    """My games, newest first, ``limit`` (1-100) from ``offset``, of one ``status`` and one
    ``mode`` if given; ``count`` is how many match. ``replay`` says whether each one's replay
    (``GET /replays/{id}``) is open now."""
    games = Game.objects.of(request.auth).select_related("daily").order_by("-created_at", "-id")
    if filters.status is not None:
        games = games.filter(status=filters.status)
    if filters.mode is not None:
        games = games.filter(mode=filters.mode)
    limit, offset = filters.limit, filters.offset
    games = games.defer("state").with_deal()
    page = list(games[offset:offset + limit])
    return {"count": games.count(),
            "items": [{**summary, "replay": replays.closed_because(game) is None}
                      for game, summary in zip(page, reads.game_summaries(page, request.auth),
                                               strict=True)]}


@router.get("/games/{game_id}", response={200: GameView, **ERRORS}, auth=PLAYER)
def get_game(request: HttpRequest, game_id: PublicId):
    """The game as you may see it: your hand, the table, counts, and what is legal now."""
    return reads.game_view(services.get_game(request.auth, game_id))


@router.post("/games/{game_id}/actions", response={200: ActionResult, 409: Stale, **ERRORS},
             auth=PLAYER, throttle=[ACTIONS])
def post_action(request: HttpRequest, game_id: PublicId, payload: ActionRequest):
    """Act: ``{"version": n, "action": {...}}``. Returns the game after your action and the
    bots' turns that followed, with their events (also pushed on the game's websocket)."""
    played = services.act(game_id, request.auth, payload.version, payload.action)
    return {"game": reads.game_view(played.seated, played.state), "events": played.messages}


@router.post("/games/{game_id}/back", response={200: GameView, **ERRORS}, auth=PLAYER,
             throttle=[ACTIONS])
def come_back(request: HttpRequest, game_id: PublicId):
    """"I'm back": at a table's game, your seat is no longer away (after two turns in a row
    that your timer ran out on, a bot plays it at once) and your timer counts again. Any
    action you send does the same. Answers the game as you see it, away or not."""
    return reads.game_view(services.come_back(game_id, request.auth))


@router.post("/games/{game_id}/ready", response={200: GameView, **ERRORS}, auth=PLAYER,
             throttle=[ACTIONS])
def ready(request: HttpRequest, game_id: PublicId):
    """"I have read the deal's results": at a table's game, in the break between deals
    (`break_until`), once every person present has said so the break ends and the next
    turn's timer starts now. Outside a break it changes nothing. Answers the game as you see
    it."""
    return reads.game_view(services.ready(game_id, request.auth))


@router.get("/games/{game_id}/events", response={200: DealLog, **ERRORS}, auth=PLAYER)
def get_deal_log(request: HttpRequest, game_id: PublicId):
    """The current deal's events as you may see them, and the game as you last saw it: a page
    opened later shows the computer players' moves since your last action."""
    return reads.deal_log(services.get_game(request.auth, game_id))


@router.get("/games/{game_id}/hint", response={200: Hint, 503: Error, **ERRORS}, auth=PLAYER,
            throttle=[HINTS])
def get_hint(request: HttpRequest, game_id: PublicId):
    """Practice games only: what the server's expert player would do in your seat now (it sees
    only what you see), and why. Throttled per player (``THROTTLE_HINTS``, 30 a minute by
    default): an expert's decision can take up to about 100 ms."""
    return hints.hint(services.get_game(request.auth, game_id))


@router.get("/games/{game_id}/replay", response={200: Replay, **ERRORS}, auth=PLAYER)
def get_own_replay(request: HttpRequest, game_id: PublicId):
    """The replay of a game you sat at (left before its end or not), the same body as
    ``get_open_replay`` (GET /replays/{id}) answers once it is open: the seed, every action,
    every hand dealt and every event with every card face up. Before it opens this one says
    why (403 ``replay_unavailable``: a daily's opens when its day has ended, UTC) where
    ``get_open_replay`` answers 404. (Named ``get_replay`` until 2026-12-06.)"""
    return json_answer(replays.own_replay(request.auth, game_id))


@router.get("/replays/{game_id}", response={200: Replay, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL, tags=["replays"])
def get_open_replay(request: HttpRequest, game_id: PublicId):
    """A game that is over, for anyone it is open to (the body of ``get_own_replay``): a daily
    once its day has ended (everyone, no identity needed), a practice game the people who sat
    at it. Anything else is 404, the owner's running daily included (nobody sees a running
    day's seed). The log is replayed once on the server; ``events`` rebuild every version in
    the client."""
    return json_answer(replays.open_replay(player_of(request), game_id))
