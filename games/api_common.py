"""What the routers share (games.api, games.api_accounts, games.api_daily, leaderboards.api):
identity schemes for public reads, the client's address, and response helpers. Routers never
import one another (tests/test_import_boundaries.py); what two of them need lives here.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Status

from games import services
from games.addresses import client_address
from games.identity import BearerToken, PlayerCookie, device_of
from games.models import Player
from games.schemas import Error
from games.services import deals

# The refusals every games endpoint may answer.
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 422: Error, 429: Error}


class Anonymous:
    """The last resort on public reads: no identity is fine (``request.auth`` is this)."""

    def __call__(self, request: HttpRequest):
        return ANONYMOUS


ANONYMOUS = "anonymous"
PLAYER_OR_ANONYMOUS = [BearerToken(), PlayerCookie(), Anonymous()]
# What the OpenAPI document says of such reads: an identity, or none (the empty security
# requirement, which django-ninja appends after the two schemes through ``openapi_extra``).
AUTH_OPTIONAL = {"security": [{}]}


def player_of(request: HttpRequest) -> Player | None:
    return request.auth if isinstance(request.auth, Player) else None


def me_json(player: Player) -> dict:
    user = player.user if player.user_id else None
    return {"id": player.public_id, "name": player.name, "registered": user is not None,
            "username": user.username if user else None, "created_at": player.created_at}


def start_todays_daily(request: HttpRequest, player: Player, response: HttpResponse) -> Status:
    """``POST /games {"mode": "daily"}``: 201 and a new game, or 200 and the player's game of
    the day (one ranked attempt a day, R26)."""
    attempt = deals.start_daily(player, client_address(request), device_of(request, response))
    attempt.game.owner = player
    if attempt.created:
        return Status(201, services.game_view(attempt.played.game, attempt.played.state))
    return Status(200, services.game_view(attempt.game))
