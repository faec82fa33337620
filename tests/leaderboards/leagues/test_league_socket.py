"""/ws/leagues/{id}/: members hear when a member finishes today's daily, when members come and
go, and when the league changes; strangers and missing identities are refused at the
handshake; the frames carry no results."""

from __future__ import annotations

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from ladder.asgi import application
from leaderboards.leagues import services
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player
from tests.leaderboards.leagues.factories import league_with

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("clock")]


@pytest_asyncio.fixture(autouse=True)
async def close_connections():
    yield
    await sync_to_async(connections.close_all)()


@sync_to_async
def club():
    ana, ana_token = player("Ana")
    ben, ben_token = player("Ben")
    league = league_with(ana, ben)
    return league, (ana, ana_token), (ben, ben_token)


async def socket_of(league, token: str | None) -> WebsocketCommunicator:
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
    communicator = WebsocketCommunicator(application, f"/ws/leagues/{league.public_id}/",
                                         headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_a_member_hears_another_member_finish_without_the_result():
    league, (_ana, ana_token), (ben, _) = await club()
    socket = await socket_of(league, ana_token)
    await sync_to_async(finished_daily)(ben, DAY, 7, 55)
    frame = await socket.receive_json_from(timeout=5)
    assert frame == {"t": "played", "d": {"player": {"id": ben.public_id, "name": "Ben"}}}
    await socket.disconnect()


async def test_members_and_league_changes_are_news_too():
    league, (ana, ana_token), _ = await club()
    socket = await socket_of(league, ana_token)
    cat, _ = await sync_to_async(player)("Cat")
    await sync_to_async(services.join)(cat, league.code)
    assert await socket.receive_json_from(timeout=5) == {"t": "members", "d": {}}
    await sync_to_async(services.rename)(ana, league.public_id, "New Name")
    assert await socket.receive_json_from(timeout=5) == {"t": "league", "d": {}}
    await sync_to_async(services.delete_league)(ana, league.public_id)
    assert await socket.receive_json_from(timeout=5) == {"t": "deleted", "d": {}}
    await socket.disconnect()


async def test_a_stranger_and_no_identity_are_refused_at_the_handshake():
    league, *_ = await club()
    _eve, eve_token = await sync_to_async(player)("Eve")
    for token, code in ((eve_token, 4404), (None, 4401)):
        socket = await socket_of(league, token)
        assert (await socket.receive_output(timeout=5))["code"] == code
