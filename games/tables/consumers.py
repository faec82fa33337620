"""Websocket ``/ws/tables/{id}/``: a table's lobby hears when its seats or its game change.

For the people sitting at the table only, authenticated as the games' socket is
(games.consumers: the browser's cookie or a bearer token; another site's page is refused at
the handshake, games/web/origins.py): close 4401 without an identity, 4404 for a table one
does not sit at (or that does not exist). Frames carry news, not the table:
``{"t": "table", "data": {}}`` says read ``GET /tables/{id}`` again (someone sat down or
left, the host changed, a game started or ended, someone's socket opened or closed:
``connected`` in the seats, games.tables.presence; someone took a new name).
``{"t": "reaction", "data": {"seat", "reaction"}}`` is a preset reaction someone at the
table sent (``POST /tables/{id}/reactions``). The game's own moves go out on the game's
socket, seat by seat.

A person who leaves the table has their sockets on it closed at once with 4404 (the news of it
names them), and every socket checks its seat again each time it rejoins its group (every
10 s: :class:`games.web.groups.GroupMember`), should that news have been lost.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from games.consumers import CLOSE_NOT_FOUND, admit
from games.players.models import Player
from games.tables import presence
from games.tables.models import Table, TableSeat
from games.tables.services import CHANGED, group_name
from games.web.groups import PushConsumer


def _seat_at(player: Player, public_id: str) -> TableSeat | None:
    """The player's seat at the open table ``public_id``."""
    return (TableSeat.objects.filter(player=player, table__public_id=public_id)
            .exclude(table__status=Table.CLOSED).select_related("table").first())


@database_sync_to_async
def _still_seated(player_pk: int, table_pk: int) -> bool:
    return (TableSeat.objects.filter(table_id=table_pk, player_id=player_pk)
            .exclude(table__status=Table.CLOSED).exists())


class TableConsumer(PushConsumer):
    player_pk: int | None = None
    table_pk: int | None = None
    present: tuple[str, int] | None = None  # (table, seat) while this socket counts there

    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["table_id"]
        found = await admit(self, lambda player: _seat_at(player, public_id))
        if found is None:
            return
        self.player_pk, self.table_pk = found.player_id, found.table_id
        await self.join(group_name(found.table.public_id))
        await self.accept()
        self.present = (public_id, found.number)
        await sync_to_async(presence.arrived)(*self.present)
        await self.channel_layer.group_send(self.joined[0], CHANGED)

    async def disconnect(self, code: int) -> None:
        if self.present is not None:
            await sync_to_async(presence.went)(*self.present)
            await self.channel_layer.group_send(self.joined[0], CHANGED)
            self.present = None
        await self.leave()

    async def refused_now(self) -> int | None:
        """Each rejoining checks the seat and renews this socket's presence
        (games.tables.presence)."""
        if not await _still_seated(self.player_pk, self.table_pk):
            return CLOSE_NOT_FOUND
        if self.present is not None:
            await sync_to_async(presence.still_here)(*self.present)
        return None

    async def table_changed(self, message: dict) -> None:
        if message.get("gone") == self.player_pk:
            await self.leave()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_json({"t": "table", "data": {}})

    async def table_reaction(self, message: dict) -> None:
        await self.send_json({"t": "reaction",
                              "data": {"seat": message["seat"], "reaction": message["reaction"]}})
