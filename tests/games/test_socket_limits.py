"""Websocket limits (issue 42: one client opened 1 000 sockets in 1.5 s and sent 445 k frames
in 5 s): at most ``WEBSOCKETS_PER_ADDRESS`` open sockets per client address (an IPv6 one by
its /64), closed 4429 beyond; a socket that sends more than ``FRAMES_PER_WINDOW`` frames in
``FRAME_WINDOW_S`` is closed 4413. (The frame size is uvicorn's ``--ws-max-size``:
tests/production/test_dev_serve.py.)"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from games.web import groups
from ladder.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
BOARD = "/ws/leaderboards/daily/"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


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
    if await communicator.receive_nothing(timeout=0.1):
        return communicator, None
    code = (await communicator.receive_output())["code"]
    await communicator.disconnect(code)
    return communicator, code


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
    for _ in range(groups.FRAMES_PER_WINDOW):
        await communicator.send_to(text_data="{}")
    assert await communicator.receive_nothing(timeout=0.2)  # up to the limit: ignored

    await communicator.send_to(text_data="{}")
    assert (await communicator.receive_output(timeout=5))["code"] == 4413
