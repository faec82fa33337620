"""Websocket ``/ws/tables/{id}/``: a table's lobby hears when its seats or its game change.

For the people sitting at the table only, authenticated as the games' socket is
(games.consumers: the browser's cookie or a bearer token, and the handshake's ``Origin``):
close 4401 without an identity, 4404 for a table one does not sit at (or that does not
exist), 4403 from another site. Frames carry news, not the table: ``{"t": "table", "d": {}}``
says read ``GET /tables/{id}`` again (someone sat down or left, the host changed, a game
started). The game's own moves go out on the game's socket, seat by seat.

A person who leaves the table has their sockets on it closed at once with 4404 (the news of it
names them), and every socket checks its seat again each time it rejoins its group (every
10 s: :class:`games.web.groups.GroupMember`), should that news have been lost.
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
from games.tables.models import Table, TableSeat
from games.tables.services import group_name
from games.web.groups import PushConsumer


@database_sync_to_async
def _table_for(scope, public_id: str) -> tuple[int, Table] | int:
    """(the player's pk, the table) for someone sitting at it; else the close code."""
    player = player_of_scope(scope)
    if player is None:
        return CLOSE_NO_IDENTITY
    table = Table.objects.of(player).filter(public_id=public_id).first()
    return CLOSE_NOT_FOUND if table is None else (player.pk, table)


@database_sync_to_async
def _still_seated(player_pk: int, table_pk: int) -> bool:
    return (TableSeat.objects.filter(table_id=table_pk, player_id=player_pk)
            .exclude(table__status=Table.CLOSED).exists())


class TableConsumer(PushConsumer):
    player_pk: int | None = None
    table_pk: int | None = None

    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["table_id"]
        found = (await _table_for(self.scope, public_id) if origin_allowed(self.scope)
                 else CLOSE_BAD_ORIGIN)
        if isinstance(found, int):
            await self.accept()
            await self.close(code=found)
            return
        self.player_pk, table = found
        self.table_pk = table.pk
        await self.join(group_name(table))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def refused_now(self) -> int | None:
        return None if await _still_seated(self.player_pk, self.table_pk) else CLOSE_NOT_FOUND

    async def table_changed(self, message: dict) -> None:
        if message.get("gone") == self.player_pk:
            await self.leave()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_json({"t": "table", "d": {}})
