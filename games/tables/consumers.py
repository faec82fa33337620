"""Websocket ``/ws/tables/{id}/``: a table's lobby hears when its seats or its game change.

For the people sitting at the table only, authenticated as the games' socket is
(games.consumers: the browser's cookie or a bearer token, and the handshake's ``Origin``):
close 4401 without an identity, 4404 for a table one does not sit at (or that does not
exist), 4403 from another site. Frames carry news, not the table: ``{"t": "table", "d": {}}``
says read ``GET /tables/{id}`` again (someone sat down or left, the host changed, a game
started). The game's own moves go out on the game's socket, seat by seat.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.consumers import (
    CLOSE_BAD_ORIGIN,
    CLOSE_NO_IDENTITY,
    CLOSE_NOT_FOUND,
    origin_allowed,
    player_of_scope,
)
from games.tables.models import Table
from games.tables.services import group_name
from games.web.groups import PushConsumer


@database_sync_to_async
def _table_for(scope, public_id: str) -> Table | int:
    player = player_of_scope(scope)
    if player is None:
        return CLOSE_NO_IDENTITY
    table = Table.objects.of(player).filter(public_id=public_id).first()
    return CLOSE_NOT_FOUND if table is None else table


class TableConsumer(PushConsumer):
    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["table_id"]
        found = (await _table_for(self.scope, public_id) if origin_allowed(self.scope)
                 else CLOSE_BAD_ORIGIN)
        if isinstance(found, int):
            await self.accept()
            await self.close(code=found)
            return
        await self.join(group_name(found))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def table_changed(self, message: dict) -> None:
        await self.send_json({"t": "table", "d": {}})
