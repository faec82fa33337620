"""Websocket ``/ws/leagues/{id}/``: a league's page hears when its board changes.

For members only, authenticated as the games' socket is (games.consumers: the browser's
cookie or a bearer token; another site's page is refused at the handshake,
games/web/origins.py): close 4401 without an identity, 4404 for a league one is not in (or
that does not exist).

Frames carry no results, only news, so the page reads the board again through the API (which
keeps today's results from a member who has not finished: leaderboards.leagues.boards):

- ``{"t": "played", "data": {"player": {"id", "name"}}}``: a member finished today's daily;
- ``{"t": "members", "data": {}}``: someone joined, left or was removed;
- ``{"t": "league", "data": {}}``: renamed, a new code, a name hidden or restored;
- ``{"t": "deleted", "data": {}}``: the league is gone.

A member who leaves or is removed has their sockets on the league closed at once with 4404
(the news of it names them); so has anyone no longer a member when the creator makes a new
code, and every socket checks its membership again each time it rejoins its group (every
10 s: :class:`games.web.groups.GroupMember`), should that news have been lost. Frames from
the client are ignored (:class:`games.web.groups.PushConsumer`).
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.consumers import CLOSE_NOT_FOUND, admit
from games.players.models import Player
from games.web.groups import PushConsumer
from leaderboards.leagues.models import League, Membership
from leaderboards.leagues.services import group_name


def _member_of(player: Player, public_id: str) -> tuple[int, League] | None:
    """(the player's pk, the league) for a member of league ``public_id``."""
    league = League.objects.of(player).filter(public_id=public_id).first()
    return None if league is None else (player.pk, league)


@database_sync_to_async
def _is_member(player_pk: int, league_pk: int) -> bool:
    return Membership.objects.filter(league_id=league_pk, player_id=player_pk).exists()


class LeagueConsumer(PushConsumer):
    player_pk: int | None = None
    league_pk: int | None = None

    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["league_id"]
        found = await admit(self, lambda player: _member_of(player, public_id))
        if found is None:
            return
        self.player_pk, league = found
        self.league_pk = league.pk
        await self.join(group_name(league))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def refused_now(self) -> int | None:
        return None if await _is_member(self.player_pk, self.league_pk) else CLOSE_NOT_FOUND

    async def league_changed(self, message: dict) -> None:
        if self.player_pk in message.get("gone", ()) or (
                message.get("check_members") and await self.refused_now() is not None):
            await self.leave()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        data = {"player": message["player"]} if "player" in message else {}
        await self.send_json({"t": message["what"], "data": data})
