"""Websocket ``/ws/games/{id}/`` (docs/api.md, "Websockets"): the game's events for a person
sitting at it, after commit, as their seat may see them.

Authenticated like the HTTP API: the browser's signed player cookie (sent with the
handshake), or ``Authorization: Bearer <token>`` from clients that can set headers. A
browser's handshake must come from an allowed host (``Origin``), so another site cannot open
the socket with the person's cookie: scheme, host and port must all be the handshake's own
(:func:`origin_allowed`). Anyone else's game, or no identity, is refused at the
handshake: the socket is accepted and closed at once with close code 4401 (no identity), 4404
(not your game) or 4403 (another site), so a client can tell them apart (a close before the
accept reaches the client as a bare HTTP 403).

Each event arrives as its own frame, ``{"v": version, "t": type, "data": {...}}``, already
filtered for the socket's seat (R25) by :mod:`games.services`, which publishes each seat's
frames on that seat's own group. One action's frames come in order, but two actions
answered by two server processes may interleave, so a client must not apply frames as they
come: the page takes a ``v`` beyond its own as news and reads the game and
its log (``GET /api/v1/games/{id}`` and ``/events``), which are the truth. Frames from the
client are ignored (:class:`games.web.groups.PushConsumer`). The socket joins the game's group
again every few seconds (:class:`games.web.groups.GroupMember`), so a Redis restart does not
leave it deaf.

"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from games.models import Seat
from games.players.identity import COOKIE_NAME, player_from_cookie, player_from_token
from games.players.models import Player
from games.services import group_name
from games.web.groups import PushConsumer

logger = logging.getLogger(__name__)

CLOSE_NO_IDENTITY = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port filled in for its scheme; None if it is
    not an http(s) origin (``null``, garbage, a bad port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _is_secure(scope) -> bool:
    """As Django's ``request.is_secure()``: a TLS socket, or the proxy header the settings
    trust (``SECURE_PROXY_SSL_HEADER``, from ``TRUST_X_FORWARDED_PROTO``)."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, secure_value = proxy_header
    header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    value = _header(scope, header)
    return value is not None and value.split(",")[0].strip() == secure_value


def origin_allowed(scope) -> bool:
    """No Origin: not a browser (nothing ambient to abuse). Otherwise the handshake must come
    from the page's own origin, as Django's CSRF check compares it: the same scheme (https
    for a secure socket), host and port as the handshake's ``Host`` (itself one of
    ``ALLOWED_HOSTS``), or an origin of ``CSRF_TRUSTED_ORIGINS``."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    given = _origin(origin)
    if given is None:
        return False
    if any(given == _origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS):
        return True
    host = _header(scope, b"host")
    if not host:
        return False
    domain, _port = split_domain_port(host.lower())
    allowed = settings.ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return False
    return given == _origin(f"{'https' if _is_secure(scope) else 'http'}://{host}")


def player_of_scope(scope):
    """The handshake's player (a bearer token, else the browser's cookie), or None. Sync: call
    it through ``database_sync_to_async``, as :func:`admit` does."""
    authorization = _header(scope, b"authorization")
    if authorization and authorization.lower().startswith("bearer "):
        return player_from_token(authorization[7:].strip())
    return player_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))


@database_sync_to_async
def _found_or_close_code(scope, find: Callable[[Player], Any]) -> Any:
    player = player_of_scope(scope)
    if player is None:
        return CLOSE_NO_IDENTITY
    found = find(player)
    return CLOSE_NOT_FOUND if found is None else found


async def admit(consumer: PushConsumer, find: Callable[[Player], Any]) -> Any:
    """What ``find`` (sync, given the handshake's player) finds, or None once the socket is
    refused: accepted and closed at once with 4403 (another site), 4401 (no identity) or 4404
    (``find`` found None). The games', tables' and leagues' sockets all admit so."""
    scope = consumer.scope
    found = (await _found_or_close_code(scope, find) if origin_allowed(scope)
             else CLOSE_BAD_ORIGIN)
    if isinstance(found, int):
        await consumer.accept()
        await consumer.close(code=found)
        return None
    return found


class GameConsumer(PushConsumer):
    async def connect(self) -> None:
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        found = await admit(self, lambda player: (  # a row, not an int: admit's close codes are
            Seat.objects.filter(game__public_id=game_id, player=player)
            .values_list("number").first()))
        if found is None:
            return
        (seat,) = found
        await self.join(group_name(game_id, seat))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def game_events(self, message: dict) -> None:
        for event in message["events"]:
            await self.send_json(event)
