"""/ws/leagues/{id}/: members hear when a member finishes today's daily, when members come and
go, and when the league changes; strangers and missing identities are refused at the
handshake; the frames carry no results."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from leaderboards.leagues import services
from leaderboards.leagues.models import Membership
from tests.factories import DAY
from tests.frames import checked
from tests.leaderboards.factories import finished_daily, player
from tests.leaderboards.leagues.factories import league_with
from tests.sockets import bearer_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("clock", "close_connections")]


@sync_to_async
def club():
    ana, ana_token = player("Ana")
    ben, ben_token = player("Ben")
    league = league_with(ana, ben)
    return league, (ana, ana_token), (ben, ben_token)


async def socket_of(league, token: str | None) -> WebsocketCommunicator:
    # Every frame held to its schema (the sockets' AsyncAPI document).
    communicator = checked(bearer_socket(f"/ws/leagues/{league.public_id}/", token), "league")
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_a_member_hears_another_member_finish_without_the_result():
    league, (_ana, ana_token), (ben, _) = await club()
    socket = await socket_of(league, ana_token)
    await sync_to_async(finished_daily)(ben, DAY, 7, 55)
    frame = await socket.receive_json_from(timeout=5)
    assert frame == {"t": "played", "data": {"player": {"id": ben.public_id, "name": "Ben"}}}
    await socket.disconnect()


async def test_members_and_league_changes_are_news_too():
    league, (ana, ana_token), _ = await club()
    socket = await socket_of(league, ana_token)
    cat, _ = await sync_to_async(player)("Cat")
    await sync_to_async(services.join)(cat, league.code)
    assert await socket.receive_json_from(timeout=5) == {"t": "members", "data": {}}
    await sync_to_async(services.rename)(ana, league.public_id, "New Name")
    assert await socket.receive_json_from(timeout=5) == {"t": "league", "data": {}}
    await sync_to_async(services.delete_league)(ana, league.public_id)
    assert await socket.receive_json_from(timeout=5) == {"t": "deleted", "data": {}}
    await socket.disconnect()


async def test_a_stranger_and_no_identity_are_refused_at_the_handshake():
    league, *_ = await club()
    _eve, eve_token = await sync_to_async(player)("Eve")
    for token, code in ((eve_token, 4404), (None, 4401)):
        socket = await socket_of(league, token)
        assert (await socket.receive_output(timeout=5))["code"] == code


async def closed_with(socket: WebsocketCommunicator) -> int | None:
    """The close code the socket gets next, skipping news frames; None if it stays open."""
    for _ in range(5):
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]
    return None


async def test_a_removed_members_socket_is_closed_at_once():
    """Issue 42: a removed member's socket kept hearing the league."""
    league, (ana, ana_token), (ben, ben_token) = await club()
    bens = await socket_of(league, ben_token)
    anas = await socket_of(league, ana_token)

    await sync_to_async(services.remove_member)(ana, league.public_id, ben.public_id)

    assert await closed_with(bens) == 4404
    assert await anas.receive_json_from(timeout=5) == {"t": "members", "data": {}}  # still in
    await anas.disconnect()


async def test_a_new_code_closes_the_socket_of_someone_no_longer_a_member():
    """The news of a removal can be lost (Redis away): a new code, the creator's way to keep
    someone out, closes every socket whose player is no longer a member."""
    league, (ana, ana_token), (ben, ben_token) = await club()
    bens = await socket_of(league, ben_token)
    anas = await socket_of(league, ana_token)
    await sync_to_async(Membership.objects.filter(league=league, player=ben).delete)()

    await sync_to_async(services.renew_code)(ana, league.public_id)

    assert await closed_with(bens) == 4404
    assert await anas.receive_json_from(timeout=5) == {"t": "league", "data": {}}
    await anas.disconnect()


async def test_rejoining_its_group_checks_the_membership_again(monkeypatch):
    from leaderboards.leagues.consumers import LeagueConsumer

    monkeypatch.setattr(LeagueConsumer, "rejoin_s", 0.05)
    league, _, (ben, ben_token) = await club()
    bens = await socket_of(league, ben_token)
    await sync_to_async(Membership.objects.filter(league=league, player=ben).delete)()

    assert (await bens.receive_output(timeout=5))["code"] == 4404
