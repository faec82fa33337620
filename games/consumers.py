"""Websocket ``/ws/games/{id}/`` (DESIGN §6): the game's events for its owner, after commit.

Authenticated like the HTTP API: the browser's signed player cookie (sent with the
handshake), or ``Authorization: Bearer <token>`` from clients that can set headers. A
browser's handshake must come from an allowed host (``Origin``), so another site cannot open
the socket with the person's cookie. Anyone else's game, or no identity, is refused at the
handshake: the socket is accepted and closed at once with close code 4401 (no identity), 4404
(not your game) or 4403 (another site), so a client can tell them apart (a close before the
accept reaches the client as a bare HTTP 403).

Each event arrives as its own frame, ``{"v": version, "t": type, "d": {...}}``, already
filtered for the person (R25) by :mod:`games.services`. One action's frames come in order,
but two actions answered by two server processes may interleave, so a client must not apply
frames as they come: the page takes a ``v`` beyond its own as news and reads the game and
its log (``GET /api/v1/games/{id}`` and ``/events``), which are the truth. Frames from the
client are ignored (:class:`games.groups.PushConsumer`). The socket joins the game's group
again every few seconds (:class:`games.groups.GroupMember`), so a Redis restart does not
leave it deaf.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.http.request import validate_host

from games.groups import PushConsumer
from games.identity import COOKIE_NAME, player_from_cookie, player_from_token
from games.models import Game
from games.services import group_name

CLOSE_NO_IDENTITY = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def origin_allowed(origin: str | None) -> bool:
    """No Origin: not a browser (nothing ambient to abuse). Otherwise its host must be one we
    serve."""
    if origin is None:
        return True
    host = urlsplit(origin).hostname
    if not host:
        return False
    allowed = settings.ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]"]
    return validate_host(host, allowed) or validate_host(f"[{host}]", allowed)


@database_sync_to_async
def _authorise(scope, game_id: str):
    authorization = _header(scope, b"authorization")
    if authorization and authorization.lower().startswith("bearer "):
        player = player_from_token(authorization[7:].strip())
    else:
        player = player_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))
    if player is None:
        return CLOSE_NO_IDENTITY
    if not Game.objects.filter(public_id=game_id, owner=player).exists():
        return CLOSE_NOT_FOUND
    return None


class GameConsumer(PushConsumer):
    async def connect(self) -> None:
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        if not origin_allowed(_header(self.scope, b"origin")):
            refusal = CLOSE_BAD_ORIGIN
        else:
            refusal = await _authorise(self.scope, game_id)
        if refusal:
            await self.accept()
            await self.close(code=refusal)
            return
        await self.join(group_name(game_id))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def game_events(self, message: dict) -> None:
        for event in message["events"]:
            await self.send_json(event)
