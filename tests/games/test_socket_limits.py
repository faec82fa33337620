"""Websocket limits (issue 42: one client opened 1 000 sockets in 1.5 s and sent 445 k frames
in 5 s): at most ``WEBSOCKETS_PER_ADDRESS`` open sockets per client address (an IPv6 one by
its /64), closed 4429 beyond; a socket that sends more than ``FRAMES_PER_WINDOW`` frames in
``FRAME_WINDOW_S`` is closed 4413. (The frame size is uvicorn's ``--ws-max-size``:
tests/production/test_dev_serve.py.)"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from games.web import groups
from ladder.asgi import application
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("clock", "close_connections")]
BOARD = "/ws/leaderboards/daily/"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@sync_to_async
def finish_a_daily() -> None:
    """Today's daily finished by someone new: its entry is pushed to every open board socket,
    after anything the socket was sent before (a close included)."""
    finished_daily(player()[0], DAY, 5, 100)


def from_address(address: str):
    """The application, with the socket's peer at ``address``."""
    async def app(scope, receive, send):
        return await application({**scope, "client": (address, 50000)}, receive, send)
    return app


async def open_socket(address: str) -> tuple[WebsocketCommunicator, int | None]:
    """A board socket from ``address``: the communicator and its close code if it was
    closed at once (then the close completes, as the server's does), else None."""
    communicator = WebsocketCommunicator(from_address(address), BOARD)
    connected, _ = await communicator.connect()
    assert connected
    await finish_a_daily()  # an open socket hears it; a refused one was closed before
    output = await communicator.receive_output(timeout=5)
    if output["type"] == "websocket.send":
        assert json.loads(output["text"])["t"] == "entry"
        return communicator, None
    await communicator.disconnect(output["code"])
    return communicator, output["code"]


async def test_open_sockets_are_capped_per_client_address(settings):
    settings.WEBSOCKETS_PER_ADDRESS = 3
    opened = [await open_socket("203.0.113.5") for _ in range(3)]
    assert [code for _, code in opened] == [None, None, None]

    assert (await open_socket("203.0.113.5"))[1] == 4429
    assert (await open_socket("203.0.113.6"))[1] is None  # another address
    await opened[0][0].disconnect()  # one closes: room for one more
    assert (await open_socket("203.0.113.5"))[1] is None


async def test_ipv6_sockets_are_capped_by_the_64_bit_network(settings):
    settings.WEBSOCKETS_PER_ADDRESS = 2
    assert (await open_socket("2001:db8:5:6::1"))[1] is None
    assert (await open_socket("2001:db8:5:6::2"))[1] is None
    assert (await open_socket("2001:db8:5:6:abcd::3"))[1] == 4429
    assert (await open_socket("2001:db8:5:7::1"))[1] is None


async def test_a_socket_that_floods_is_closed():
    communicator, code = await open_socket("203.0.113.9")
    assert code is None
    # Up to the limit: ignored, the socket still open. Each frame is followed by a daily's
    # entry, which the socket handles after that frame (frames queued together would be
    # handled in turn with the board's messages: Channels takes one of each at a time).
    for _ in range(groups.FRAMES_PER_WINDOW):
        await communicator.send_to(text_data="{}")
        await finish_a_daily()
        output = await communicator.receive_output(timeout=5)
        assert output["type"] == "websocket.send" and json.loads(output["text"])["t"] == "entry"

    await communicator.send_to(text_data="{}")
    assert (await communicator.receive_output(timeout=5))["code"] == 4413
