"""HTTP through ladder/serving.py (Django's WSGI handler on a thread pool under ASGI), and
sends to Channels groups from those threads (games/web/groups.py)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator

from games.web import groups
from ladder.asgi import application
from ladder.serving import ThreadedDjango

HOST = [(b"host", b"testserver")]


def call(method: str, path: str, body: bytes = b"", headers=()) -> dict:
    async def run():
        communicator = HttpCommunicator(application, method, path, body=body,
                                        headers=[*HOST, *headers])
        return await communicator.get_response(timeout=10)

    return async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_post_with_a_json_body_reaches_the_api_and_answers_with_its_status_and_headers():
    response = call("POST", "/api/v1/players")
    assert response["status"] == 201
    token = json.loads(response["body"])["token"]

    response = call("POST", "/api/v1/games", json.dumps({"level": "easy"}).encode(),
                    [(b"content-type", b"application/json"),
                     (b"authorization", f"Bearer {token}".encode())])

    assert response["status"] == 201, response["body"]
    assert json.loads(response["body"])["level"] == "easy"
    headers = dict(response["headers"])
    assert headers[b"content-type"] == b"application/json; charset=utf-8"
    assert b"frame-ancestors 'none'" in headers[b"content-security-policy"]


@pytest.mark.django_db(transaction=True)
def test_a_query_string_and_a_refusal_come_through_unchanged():
    response = call("GET", "/api/v1/games?limit=5")

    assert response["status"] == 401
    assert json.loads(response["body"])["error"]["code"] == "no_identity"


def test_a_body_larger_than_django_accepts_is_refused_before_django(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    app = ThreadedDjango(threads=1)

    async def run():
        communicator = HttpCommunicator(app, "POST", "/api/v1/players", body=b"x" * 70_000,
                                        headers=HOST)
        return await communicator.get_response(timeout=10)

    assert async_to_sync(run)()["status"] == 413


def test_a_client_that_leaves_mid_request_gets_no_answer_and_django_is_not_called():
    app = ThreadedDjango(threads=1)
    sent = []

    async def run():
        messages = iter([{"type": "http.request", "body": b"{", "more_body": True},
                         {"type": "http.disconnect"}])

        async def receive():
            return next(messages)

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/v1/players",
                 "query_string": b"", "headers": HOST, "http_version": "1.1"}
        await app(scope, receive, send)

    async_to_sync(run)()
    assert sent == []


class RecordingLayer:
    def __init__(self, fail_on: str | None = None):
        self.sent = []
        self.fail_on = fail_on

    async def group_send(self, group, message):
        if group == self.fail_on:
            raise ConnectionError("Redis is away")
        self.sent.append((group, message["n"], asyncio.get_running_loop()))


@pytest.fixture
def server_loop():
    """A running event loop in a thread, as the server's; games.web.groups forgets it after."""
    before = groups.server_loop()
    groups.use_loop(None)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(5)
    loop.call_soon_threadsafe(groups.use_loop, loop)
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    groups.use_loop(before)


def wait_for(predicate, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_sends_from_request_threads_go_out_on_the_servers_loop_in_order(channel_layer,
                                                                         server_loop):
    layer = RecordingLayer()
    channel_layer(layer)
    wait_for(lambda: groups.server_loop() is server_loop)

    for n in range(50):
        groups.group_send("game.x", {"type": "game.events", "n": n})

    wait_for(lambda: len(layer.sent) == 50)
    assert [n for _, n, _ in layer.sent] == list(range(50))
    assert {loop for _, _, loop in layer.sent} == {server_loop}


def test_a_failed_send_is_logged_and_the_next_ones_still_go(channel_layer, server_loop, caplog):
    layer = RecordingLayer(fail_on="board")
    channel_layer(layer)
    wait_for(lambda: groups.server_loop() is server_loop)

    groups.group_send("board", {"type": "board.entry", "n": 0})
    groups.group_send("game.x", {"type": "game.events", "n": 1})

    wait_for(lambda: len(layer.sent) == 1)
    assert layer.sent[0][:2] == ("game.x", 1)
    assert "Could not publish a board.entry message to board" in caplog.text


def test_without_a_running_server_loop_a_send_is_made_at_once(channel_layer):
    layer = RecordingLayer()
    channel_layer(layer)
    stopped = asyncio.new_event_loop()
    before = groups.server_loop()
    groups.use_loop(stopped)
    try:
        groups.group_send("board", {"type": "board.entry", "n": 7})
    finally:
        stopped.close()
        groups.use_loop(before)

    assert len(layer.sent) == 1 and layer.sent[0][1] == 7 and layer.sent[0][2] is not stopped


def test_a_requests_sends_go_out_on_the_servers_loop_in_order(channel_layer):
    """A request thread's group sends are queued to the server's loop (games.web.groups'
    outbox) and go out in order from there."""
    layer = RecordingLayer()
    channel_layer(layer)
    app = ThreadedDjango(threads=1)
    app.handler = lambda environ, start_response: _answer_after_sends(start_response)

    async def run():
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": "/x", "query_string": b"",
                 "headers": HOST, "http_version": "1.1"}
        await app(scope, receive, send)
        async with asyncio.timeout(5):  # until the loop has made the two sends it queued
            while len(layer.sent) < 2:
                await asyncio.sleep(0)
        return sent, asyncio.get_running_loop()

    before = groups.server_loop()
    try:
        sent, loop = async_to_sync(run)()
    finally:
        groups.use_loop(before)
    assert sent[0]["status"] == 200
    assert [(group, n) for group, n, _ in layer.sent] == [("game.x", 1), ("board", 2)]
    assert {used for _, _, used in layer.sent} == {loop}


def _answer_after_sends(start_response):
    groups.group_send("game.x", {"type": "game.events", "n": 1})
    groups.group_send("board", {"type": "board.entry", "n": 2})
    start_response("200 OK", [("Content-Type", "text/plain")])
    return _Closing([b"ok"])


class _Closing(list):
    def close(self):
        pass
