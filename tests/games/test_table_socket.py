"""/ws/tables/{id}/ tells the people at a table, after commit, that it changed; nobody else
may listen."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.consumers import CLOSE_NOT_FOUND
from games.tables import reads, services
from tests.factories import player_with_token
from tests.sockets import bearer_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("close_connections")]


@sync_to_async
def a_table(guest_sits: bool) -> tuple:
    """((the host, their token), (someone else, their token), the host's table), the other
    sitting at it if ``guest_sits``."""
    (host, host_token), (other, other_token) = player_with_token(), player_with_token()
    table = services.open_table(host, "Socket night")
    if guest_sits:
        services.join(other, table.code)
    return (host, host_token), (other, other_token), table


def socket(table_id: str, token: str) -> WebsocketCommunicator:
    return bearer_socket(f"/ws/tables/{table_id}/", token)


async def test_the_people_at_a_table_hear_someone_sit_down_and_the_game_start():
    (host, host_token), (guest, _), table = await a_table(guest_sits=False)
    communicator = socket(table.public_id, host_token)
    assert (await communicator.connect())[0]
    assert await communicator.receive_json_from(timeout=5) == {"t": "table", "data": {}}  # here

    await sync_to_async(services.join)(guest, table.code)
    assert await communicator.receive_json_from(timeout=5) == {"t": "table", "data": {}}
    await sync_to_async(services.start)(host, table.public_id)
    assert await communicator.receive_json_from(timeout=5) == {"t": "table", "data": {}}
    await communicator.disconnect()


async def test_someone_not_at_the_table_is_refused():
    (host, _), (_stranger, stranger_token), table = await a_table(guest_sits=False)
    communicator = socket(table.public_id, stranger_token)
    assert (await communicator.connect())[0]
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close",
                                                             "code": CLOSE_NOT_FOUND}
    await communicator.disconnect()


async def closed_with(communicator) -> int:
    """The close code, after the frames before it (who came and went)."""
    while (output := await communicator.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    return output["code"]


async def test_someone_who_leaves_stops_hearing_the_table_at_once():
    (host, host_token), (guest, guest_token), table = await a_table(guest_sits=True)
    guests, hosts = socket(table.public_id, guest_token), socket(table.public_id, host_token)
    assert (await guests.connect())[0] and (await hosts.connect())[0]

    await sync_to_async(services.leave)(guest, table.public_id)

    assert await closed_with(guests) == CLOSE_NOT_FOUND
    assert await hosts.receive_json_from(timeout=5) == {"t": "table", "data": {}}  # still in
    await hosts.disconnect()


async def test_rejoining_its_group_checks_the_seat_again(monkeypatch):
    """The news of a leave can be lost (Redis away): each socket checks its seat whenever it
    rejoins its group."""
    from games.tables.consumers import TableConsumer
    from games.tables.models import TableSeat

    monkeypatch.setattr(TableConsumer, "rejoin_s", 0.05)
    (host, _), (guest, guest_token), table = await a_table(guest_sits=True)
    guests = socket(table.public_id, guest_token)
    assert (await guests.connect())[0]
    await sync_to_async(TableSeat.objects.filter(table=table, player=guest).delete)()

    assert await closed_with(guests) == CLOSE_NOT_FOUND


async def test_everyone_at_the_table_hears_a_reaction_and_who_is_connected():
    (host, host_token), (guest, guest_token), table = await a_table(guest_sits=True)
    hosts = socket(table.public_id, host_token)
    assert (await hosts.connect())[0]
    assert await hosts.receive_json_from(timeout=5) == {"t": "table", "data": {}}  # the host came
    seen = await sync_to_async(reads.table_view)(table, host)
    assert [s["connected"] for s in seen["seats"]] == [True, False, False, False]

    guests = socket(table.public_id, guest_token)
    assert (await guests.connect())[0]
    assert await hosts.receive_json_from(timeout=5) == {"t": "table", "data": {}}
    assert await guests.receive_json_from(timeout=5) == {"t": "table", "data": {}}
    seen = await sync_to_async(reads.table_view)(table, host)
    assert [s["connected"] for s in seen["seats"]] == [True, True, False, False]

    await sync_to_async(services.react)(guest, table.public_id, "nice")
    for communicator in (hosts, guests):
        assert await communicator.receive_json_from(timeout=5) == {
            "t": "reaction", "data": {"seat": 1, "reaction": "nice"}}

    await guests.disconnect()
    assert await hosts.receive_json_from(timeout=5) == {"t": "table", "data": {}}
    seen = await sync_to_async(reads.table_view)(table, host)
    assert [s["connected"] for s in seen["seats"]] == [True, False, False, False]
    await hosts.disconnect()
