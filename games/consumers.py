"""Websocket ``/ws/games/{id}/`` (docs/api.md, "Websockets"): the game's events for a person
sitting at it, after commit, as their seat may see them.

Authenticated like the HTTP API: the browser's signed player cookie (sent with the
handshake), or ``Authorization: Bearer <token>`` from clients that can set headers, or a
single-use socket ticket in the URL (``?ticket=``, games.players.services) for a page that
cannot. A browser's handshake from another site's page without a ticket never gets here:
Channels' ``OriginValidator`` refuses it with an HTTP 403 (games/web/origins.py, in
ladder/asgi.py's stack); a ticketed one may come from anywhere. Anyone else's game, or no
identity, is refused at the handshake: the socket is accepted and closed at once with close
code 4401 (no identity; a ticket unknown, used or expired) or 4404 (not your game), so a
client can tell them apart (a close before the accept reaches the client as a bare HTTP
403).

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

from channels.db import database_sync_to_async

from games.models import Seat
from games.players.identity import COOKIE_NAME, player_from_cookie, player_from_token
from games.players.models import Player
from games.players.services import redeem_socket_ticket
from games.services import group_name
from games.web.groups import PushConsumer
from games.web.origins import ticket_of

logger = logging.getLogger(__name__)

CLOSE_NO_IDENTITY = 4401
CLOSE_NOT_FOUND = 4404


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def player_of_scope(scope):
    """The handshake's player (a bearer token, else the browser's cookie), or None. Sync: call
    it through ``database_sync_to_async``, as :func:`admit` does."""
    authorization = _header(scope, b"authorization")
    if authorization and authorization.lower().startswith("bearer "):
        return player_from_token(authorization[7:].strip())
    return player_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))


@database_sync_to_async
def _found_or_close_code(who: Callable[[], Player | None], find: Callable[[Player], Any]) -> Any:
    player = who()
    if player is None:
        return CLOSE_NO_IDENTITY
    found = find(player)
    return CLOSE_NOT_FOUND if found is None else found


async def admit(consumer: PushConsumer, find: Callable[[Player], Any]) -> Any:
    """What ``find`` (sync, given the handshake's player) finds, or None once the socket is
    refused: accepted and closed at once with 4401 (no identity) or 4404 (``find`` found
    None). The games', tables' and leagues' sockets all admit so.

    A socket whose URL carries a ticket is the ticket's player's, or 4401 (unknown, used or
    expired), whatever cookie or header came with it: games.web.origins lets it past the
    origin check, since a ticket is no ambient credential (a page had to be given it), so it
    must never fall back on the cookie another site's page would send."""
    scope = consumer.scope
    ticket = ticket_of(scope)
    if ticket is not None:
        found = await _found_or_close_code(lambda: redeem_socket_ticket(ticket), find)
    else:
        found = await _found_or_close_code(lambda: player_of_scope(scope), find)
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
