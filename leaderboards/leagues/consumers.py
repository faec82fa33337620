"""Websocket ``/ws/leagues/{id}/``: a league's page hears when its board changes.

For members only, authenticated as the games' socket is (games.consumers: the browser's
cookie or a bearer token, and the handshake's ``Origin``): close 4401 without an identity,
4404 for a league one is not in (or that does not exist), 4403 from another site.

Frames carry no results, only news, so the page reads the board again through the API (which
keeps today's results from a member who has not finished: leaderboards.leagues.boards):

- ``{"t": "played", "d": {"player": {"id", "name"}}}``: a member finished today's daily;
- ``{"t": "members", "d": {}}``: someone joined, left or was removed;
- ``{"t": "league", "d": {}}``: renamed, a new code, a name hidden or restored;
- ``{"t": "deleted", "d": {}}``: the league is gone.

A member removed while the socket is open still hears these nudges until it closes, but the
board they would read answers 404. Frames from the client are ignored
(:class:`games.web.groups.PushConsumer`), and the group is joined again every few seconds
(:class:`games.web.groups.GroupMember`).
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
from games.web.groups import PushConsumer
from leaderboards.leagues.models import League
from leaderboards.leagues.services import group_name


@database_sync_to_async
def _league_for(scope, public_id: str) -> League | int:
    player = player_of_scope(scope)
    if player is None:
        return CLOSE_NO_IDENTITY
    league = League.objects.of(player).filter(public_id=public_id).first()
    return CLOSE_NOT_FOUND if league is None else league


class LeagueConsumer(PushConsumer):
    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["league_id"]
        found = (await _league_for(self.scope, public_id) if origin_allowed(self.scope)
                 else CLOSE_BAD_ORIGIN)
        if isinstance(found, int):
            await self.accept()
            await self.close(code=found)
            return
        await self.join(group_name(found))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def league_changed(self, message: dict) -> None:
        data = {"player": message["player"]} if "player" in message else {}
        await self.send_json({"t": message["what"], "d": data})
