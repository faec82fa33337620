"""Sending to Channels groups from synchronous code: views, ``on_commit`` hooks, Celery tasks.

In the web server, synchronous code runs on ladder.serving's threads while the event loop
holds the channel layer's open Redis connections: a send is handed to that loop and waited
for. ``async_to_sync`` from such a thread would start a new event loop, and channels-redis
a new connection, for every send (about 5 ms of CPU each, measured). Elsewhere (tests,
management commands, the Celery worker) there is no server loop and ``async_to_sync`` is
the way.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

SEND_TIMEOUT_S = 2.0  # a Redis that does not answer must not hold a request for longer

_server_loop: asyncio.AbstractEventLoop | None = None


def use_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called by the server's HTTP application with its running loop."""
    global _server_loop
    _server_loop = loop


def group_send(group: str, message: dict) -> None:
    """Send ``message`` to ``group``; raises what the channel layer raises (or TimeoutError)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not _on_loop(loop):
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        future.result(timeout=SEND_TIMEOUT_S)
    else:
        async_to_sync(layer.group_send)(group, message)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
