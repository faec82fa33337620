"""/ws/games/{id}/ pushes, after commit, the same events the HTTP response carries, in version
order, to the game's owner only."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.consumers import CLOSE_NO_IDENTITY, CLOSE_NOT_FOUND
from games.players.identity import COOKIE_NAME
from ladder.asgi import application
from tests.games.conftest import Api, new_bearer_api
from tests.games.helpers import MARKER, send_marker

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("close_connections")]

DRAW = {"type": "draw", "from": "stock"}


def socket(game_id: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=list(headers))


def bearer(api: Api) -> tuple[bytes, bytes]:
    return (b"authorization", f"Bearer {api.token}".encode())


async def receive_all(communicator, count: int) -> list[dict]:
    return [await communicator.receive_json_from(timeout=5) for _ in range(count)]


async def assert_nothing_came(communicator, game_id: str) -> None:
    """Nothing reached the socket since its last frame: the marker sent now is the next."""
    await send_marker(game_id)
    assert await communicator.receive_json_from(timeout=5) == MARKER


async def test_the_socket_delivers_the_responses_events_in_version_order():
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    communicator = socket(game["id"], bearer(api))
    connected, _ = await communicator.connect()
    assert connected

    sent = []
    for _ in range(3):  # draw, discard (the bots reply), draw
        if game["phase"] == "draw":
            response = await sync_to_async(api.act)(game, DRAW)
        else:
            card = game["legal"]["discard"][0]
            response = await sync_to_async(api.act)(game, {"type": "discard", "card": card})
        assert response.status_code == 200
        game = response.json()["game"]
        sent += response.json()["events"]

    received = await receive_all(communicator, len(sent))
    assert received == sent
    assert [m["v"] for m in received] == sorted(m["v"] for m in received)
    await assert_nothing_came(communicator, game["id"])  # no frame twice, none extra
    await communicator.disconnect()


async def test_a_refused_action_pushes_nothing():
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    communicator = socket(game["id"], bearer(api))
    assert (await communicator.connect())[0]

    response = await sync_to_async(api.act)(game, {"type": "discard", "card": "JK.1"})

    assert response.status_code == 422
    await assert_nothing_came(communicator, game["id"])
    await communicator.disconnect()


async def test_the_browser_cookie_opens_the_socket():
    from django.test import Client

    api = Api(Client())
    game = await sync_to_async(api.new_game)()
    cookie = api.client.cookies[COOKIE_NAME].value
    communicator = socket(game["id"], (b"cookie", f"{COOKIE_NAME}={cookie}".encode()),
                          (b"origin", b"http://testserver"), (b"host", b"testserver"))

    connected, _ = await communicator.connect()

    assert connected
    await communicator.disconnect()


@pytest.mark.parametrize("who, code", [("nobody", CLOSE_NO_IDENTITY),
                                       ("someone else", CLOSE_NOT_FOUND)])
async def test_a_refused_socket_is_accepted_then_closed_with_its_code(who, code):
    owner = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(owner.new_game)()
    headers = {
        "nobody": [],
        "someone else": [bearer(await sync_to_async(new_bearer_api)())],
    }[who]
    communicator = socket(game["id"], *headers)

    connected, _ = await communicator.connect()

    # Accepted, then closed with the code (a close before the accept would be an HTTP 403).
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close",
                                                             "code": code}
    await communicator.disconnect()


async def test_another_sites_page_is_refused_at_the_handshake_and_a_bot_is_not():
    owner = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(owner.new_game)()
    from_another_site = socket(game["id"], bearer(owner), (b"origin", b"https://evil.example"),
                               (b"host", b"testserver"))
    bot = socket(game["id"], bearer(owner))  # no Origin, no Host: not a browser

    refused, code = await from_another_site.connect()
    opened, _ = await bot.connect()

    assert (refused, code) == (False, 1000)  # Channels' denial: closed before the accept (403)
    assert opened
    await bot.disconnect()


async def test_a_socket_whose_group_the_layer_forgot_joins_it_again(monkeypatch):
    """As after a Redis restart shorter than the layer's retries: the socket stays open but its
    group membership is gone; it joins again within GroupMember.rejoin_s."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.consumers import GameConsumer
    from games.services import group_name

    channels = []
    join = GameConsumer.join

    async def recording_join(self, *groups):
        channels.append(self.channel_name)
        await join(self, *groups)

    monkeypatch.setattr(GameConsumer, "join", recording_join)
    monkeypatch.setattr(GameConsumer, "rejoin_s", 0.05)
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    communicator = socket(game["id"], bearer(api))
    assert (await communicator.connect())[0]
    layer = get_channel_layer()
    rejoined, add = asyncio.Event(), layer.group_add

    async def recording_add(group, channel):  # the layer's public method, watched
        await add(group, channel)
        if (group, channel) == (group_name(game["id"], 0), channels[0]):
            rejoined.set()

    await layer.group_discard(group_name(game["id"], 0), channels[0])
    monkeypatch.setattr(layer, "group_add", recording_add)

    await asyncio.wait_for(rejoined.wait(), timeout=10)
    response = await sync_to_async(api.act)(game, DRAW)
    assert response.status_code == 200
    assert await receive_all(communicator, len(response.json()["events"])) == \
        response.json()["events"]
    await communicator.disconnect()


@pytest.mark.slow
async def test_the_rejoining_stops_with_a_consumer_that_dies(monkeypatch):
    """A consumer whose handler raises never reaches disconnect(): its rejoining must not
    outlive it, re-adding a dead channel to the group for the life of the process."""
    from games.consumers import GameConsumer

    consumers = []
    join = GameConsumer.join

    async def recording_join(self, *groups):
        consumers.append(self)
        await join(self, *groups)

    async def broken(self, message):
        raise RuntimeError("a handler's bug")

    monkeypatch.setattr(GameConsumer, "join", recording_join)
    monkeypatch.setattr(GameConsumer, "game_events", broken)
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    communicator = socket(game["id"], bearer(api))
    assert (await communicator.connect())[0]
    assert consumers[0].rejoining

    assert (await sync_to_async(api.act)(game, DRAW)).status_code == 200
    with pytest.raises(RuntimeError):
        await communicator.receive_output(timeout=5)
    assert not consumers[0].rejoining


@pytest.mark.parametrize("frame", [
    {"text_data": "not json"},
    {"text_data": '{"half": '},
    {"bytes_data": b"\x00\xff binary"},
    {"text_data": "x" * 1_000_000},
    {"text_data": '{"type": "draw", "from": "stock"}'},
])
async def test_a_frame_from_the_client_is_ignored_and_the_socket_stays_open(frame, caplog):
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    communicator = socket(game["id"], bearer(api))
    assert (await communicator.connect())[0]

    await communicator.send_to(**frame)
    await assert_nothing_came(communicator, game["id"])  # no close, no answer
    response = await sync_to_async(api.act)(game, DRAW)

    assert await receive_all(communicator, len(response.json()["events"])) == \
        response.json()["events"]
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []
    await communicator.disconnect()


async def test_each_person_hears_the_game_as_their_own_seat_sees_it():
    """Two people at one game: the mover's socket hears its own draw with the card, the other
    seat's socket the same events filtered for it (R25), never the card drawn."""
    from games import services
    from tests.factories import player_with_token
    from tests.games.conftest import bearer_api

    def sit_two():
        (alice, alice_token), (bob, bob_token) = player_with_token(), player_with_token()
        played = services.start_game_together(alice, {0: alice, 2: bob}, "easy")
        return played.game.public_id, {0: bearer_api(alice_token), 2: bearer_api(bob_token)}

    game_id, people = await sync_to_async(sit_two)()
    sockets = {seat: socket(game_id, bearer(api)) for seat, api in people.items()}
    for communicator in sockets.values():
        assert (await communicator.connect())[0]
    view = (await sync_to_async(people[0].get)(f"/games/{game_id}")).json()
    mover = view["turn"]
    other = 2 - mover
    mine = (await sync_to_async(people[mover].get)(f"/games/{game_id}")).json()
    response = await sync_to_async(people[mover].act)(mine, DRAW)
    assert response.status_code == 200
    events = response.json()["events"]

    assert await receive_all(sockets[mover], len(events)) == events
    heard = await receive_all(sockets[other], len(events))
    drawn = events[0]["data"]["card"]["id"]
    assert [(m["v"], m["t"]) for m in heard] == [(m["v"], m["t"]) for m in events]
    assert heard[0]["data"] == {"seat": mover, "from": "stock", "hand_size": len(mine["hand"]) + 1}
    assert drawn not in str(heard)
    for communicator in sockets.values():
        await communicator.disconnect()
