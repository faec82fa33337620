"""Websocket ``/ws/leaderboards/daily/`` (docs/api.md, "Websockets"): today's board as it changes.

Public: no identity needed, nothing is sent but what ``GET /api/v1/leaderboards/daily``
shows. Each change arrives as one frame, after the change committed:

- ``{"t": "entry", "data": {"date", "rank", "player": {"id", "name"}, "contracts", "penalty",
  "finished_at", "linked"}}``: a score joined today's board (a daily finished, or a
  moderator restored one); ``rank`` is its rank when it joined, and the entries below it
  moved down one. The same frame comes again when an entry's ``linked`` mark changes
  (leaderboards.flags);
- ``{"t": "removed", "data": {"date", "player": {"id", "name"}}}``: a moderator took the
  player's entry off the board (hidden score or banned player).

Only today's (UTC) changes are forwarded: after midnight a client reloads the new day's board.
Frames from the client are ignored (:class:`games.web.groups.PushConsumer`). The socket rejoins
the board's group every few seconds (:class:`games.web.groups.GroupMember`), so a Redis restart
does not leave it deaf.
"""

from __future__ import annotations

from games import daily
from games.web.groups import PushConsumer
from leaderboards.services import BOARD_GROUP


class DailyBoardConsumer(PushConsumer):
    async def connect(self) -> None:
        await self.join(BOARD_GROUP)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def board_entry(self, message: dict) -> None:
        if message["date"] == daily.today().isoformat():
            await self.send_json({"t": "entry", "data": {"date": message["date"],
                                                      **message["entry"]}})

    async def board_removed(self, message: dict) -> None:
        if message["date"] == daily.today().isoformat():
            await self.send_json({"t": "removed", "data": {"date": message["date"],
                                                        "player": message["player"]}})
