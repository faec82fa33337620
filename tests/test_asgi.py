"""The ASGI application: HTTP through Django, websockets through Channels."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator, WebsocketCommunicator

from ladder.asgi import application


@pytest.mark.django_db  # a request's end closes the thread's database connection
def test_http_goes_to_django():
    async def get(path):
        headers = [(b"host", b"testserver")]
        return await HttpCommunicator(application, "GET", path,
                                     headers=headers).get_response(timeout=10)

    response = async_to_sync(get)("/api/v1/openapi.json")

    assert response["status"] == 200
    assert b"Ladder Rummy API" in response["body"]


@pytest.mark.django_db(transaction=True)  # Channels closes stale DB connections per message
def test_a_websocket_to_an_unknown_path_is_refused_not_an_error():
    async def connect():
        communicator = WebsocketCommunicator(application, "/ws/no-such-thing/")
        connected, _ = await communicator.connect()
        closed = await communicator.receive_output()
        await communicator.disconnect()
        return connected, closed

    assert async_to_sync(connect)() == (True, {"type": "websocket.close", "code": 4404})
