"""Sending to Channels groups from synchronous code: views, ``on_commit`` hooks, Celery tasks.

In the web server, synchronous code runs on ladder.serving's threads while the event loop
holds the channel layer's open Redis connections. A send is queued to that loop and the
request goes on: one task per loop sends the queue in order. Waiting for it instead cost
the action endpoint 3 ms at the median and 60-80 ms at p99 under load (the loop is busy
with every connection's HTTP), and ``async_to_sync`` from a thread would start a new event
loop, and channels-redis a new Redis connection, for every send: 2.46 ms of CPU a send
against 0.27 ms queued, 21-29 % of a practice game's action (its one send), printed by every
CI run: ``REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python -m bench.parts``.
Nothing is lost by not waiting: the HTTP response is the source of truth, and a client that
sees a gap in event versions fetches the game again.

Elsewhere (tests, management commands, the Celery worker) there is no server loop, and the
send is made and waited for with ``async_to_sync``; or, where the layer is the server
process's own memory (``./dev serve``), it crosses to that process through
:mod:`games.web.relay`.

Websocket consumers join their groups through :class:`GroupMember`, which joins them again
every ``REJOIN_S`` seconds while the socket is open. With Redis, the layer is channels-redis's
``RedisPubSubChannelLayer`` (ladder/settings.py): a group send is one ``PUBLISH``, where
its ``RedisChannelLayer`` made two commands even for a group nobody listens to (and two more
for listeners): 3.9 % of an action's instructions, 7.44 -> 7.15 M
(``bench/action_instructions.py --actions 100 --warmup 20 --games 5``). That is a choice
between two of channels-redis's own layers, not a part of ours. A group is a Redis
subscription of the process that holds the socket; while Redis is away the layer's reader
logs the failure and tries again every second, and redis-py subscribes again when it
reconnects (``bench/faults.py redis-restart``). What is published meanwhile is lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from asgiref.sync import async_to_sync, sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings

from games.web import relay
from games.web.addresses import network_of, scope_address
from games.web.throttles import socket_closed, socket_opened

logger = logging.getLogger(__name__)

SEND_TIMEOUT_S = 2.0  # a Redis that does not answer holds the queue at most this long a send
QUEUE_LIMIT = 10_000  # sends waiting beyond this are dropped (and logged): Redis is away
REJOIN_S = 10.0  # a websocket joins its groups again this often
# A client sends nothing that means anything (a browser: nothing at all); more than this is a
# flood, closed before it costs the process (445 k frames took 4.7 CPU-seconds).
FRAMES_PER_WINDOW = 20
FRAME_WINDOW_S = 10.0
CLOSE_FLOODED = 4413
CLOSE_TOO_MANY_SOCKETS = 4429


class Outbox:
    """The sends waiting on one loop, made in order by one task that runs while any wait
    (so no task outlives its loop's requests)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.waiting: deque[tuple[str, dict]] = deque()
        self.sender: asyncio.Task | None = None

    def put(self, group: str, message: dict) -> None:
        """On the loop."""
        if len(self.waiting) >= QUEUE_LIMIT:
            logger.warning("Dropped a %s message to %s: %d sends are waiting",
                           message.get("type"), group, len(self.waiting))
            return
        self.waiting.append((group, message))
        if self.sender is None or self.sender.done():
            self.sender = self.loop.create_task(self._send_waiting())

    async def _send_waiting(self) -> None:
        while self.waiting:
            group, message = self.waiting.popleft()
            layer = get_channel_layer()
            if layer is None:
                continue
            try:
                async with asyncio.timeout(SEND_TIMEOUT_S):
                    await layer.group_send(group, message)
            except Exception:
                _log_failure(group, message)


_outbox: Outbox | None = None


def use_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called on the server's loop, by its HTTP application, before any request thread runs
    (``None``: no server loop, every send is made at once)."""
    global _outbox
    if loop is None:
        _outbox = None
    elif _outbox is None or _outbox.loop is not loop:
        _outbox = Outbox(loop)
        if relay.needed():  # the worker's sends reach this process's sockets through it
            relay.listen(group_send)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The loop that sends from request threads are queued to, if :func:`use_loop` named one."""
    return None if _outbox is None else _outbox.loop


def group_send(group: str, message: dict) -> None:
    """Send ``message`` to ``group``: queued to the server's loop from a request thread, else
    made now. Never raises: callers run after
    commit, when the write is already acknowledged; a failed send is logged."""
    outbox = _outbox
    if outbox is not None and outbox.loop.is_running() and not _on_loop(outbox.loop):
        outbox.loop.call_soon_threadsafe(outbox.put, group, message)
        return
    if outbox is None and relay.needed():  # not the server's process: cross to it
        try:
            relay.send(group, message)
        except Exception:
            _log_failure(group, message)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        _log_failure(group, message)


def _log_failure(group: str, message: dict) -> None:
    logger.warning("Could not publish a %s message to %s", message.get("type"), group,
                   exc_info=True)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class GroupMember:
    """For a Channels consumer: ``await self.join(*groups)`` before accepting (no event is
    missed once the client is in), ``await self.leave()`` on disconnect. In between, the
    groups are joined again every ``REJOIN_S`` (group_add is idempotent: channels-redis's
    core layer renews the membership's time, the pub/sub layer subscribes only what it lost;
    redis-py itself subscribes again after a reconnection), once :meth:`refused_now` has said
    the socket may stay. The rejoining stops with the consumer,
    however it ends: a consumer that dies (its channel layer failed, a handler raised)
    never reaches ``disconnect``."""

    rejoin_s = REJOIN_S
    joined: tuple[str, ...] = ()
    _rejoining: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        try:
            return await super().__call__(scope, receive, send)
        finally:
            self._stop_rejoining()

    async def join(self, *groups: str) -> None:
        self.joined = groups
        await self._add_to_groups()
        self._rejoining = asyncio.create_task(self._rejoin())

    async def leave(self) -> None:
        self._stop_rejoining()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    @property
    def rejoining(self) -> bool:
        """Whether the groups are still joined again every ``rejoin_s``."""
        return self._rejoining is not None and not self._rejoining.done()

    def _stop_rejoining(self) -> None:
        if self._rejoining is not None:
            self._rejoining.cancel()
            self._rejoining = None

    async def _add_to_groups(self) -> None:
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def refused_now(self) -> int | None:
        """Asked before each rejoining: a close code if the socket may no longer hear its
        groups (its player left them), else None. Sockets whose right never changes keep
        this default."""
        return None

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(self.rejoin_s)
            try:
                refused = await self.refused_now()
                if refused is not None:
                    await self.close(code=refused)
                    return
                await self._add_to_groups()
            except Exception:  # Redis or the database away: the next round tries again
                logger.warning("Could not rejoin groups %s", self.joined, exc_info=True)


class PushConsumer(GroupMember, AsyncJsonWebsocketConsumer):
    """A websocket that only pushes its groups' frames. Whatever the client sends (text that
    is not JSON, binary) is ignored: Channels' JSON consumer would raise on it, log a
    traceback and drop the socket (close 1006).

    Limits (docs/api.md, "Websockets"): a client address (an IPv6 one by its /64) holds at
    most ``settings.WEBSOCKETS_PER_ADDRESS`` open sockets, counted in Django's cache (shared
    by the processes); one more is closed at once with 4429. A socket that sends more than
    ``FRAMES_PER_WINDOW`` frames in ``FRAME_WINDOW_S`` is closed with 4413. A frame's size is
    the server's limit (uvicorn's ``--ws-max-size``: docs/production.md)."""

    counted_as: str | None = None  # the client network this socket is counted under
    frames = 0
    frames_since = 0.0
    refused = False

    async def websocket_connect(self, message) -> None:
        network = network_of(scope_address(self.scope)) or "unknown"
        count = await sync_to_async(socket_opened)(network)
        if count is not None:
            self.counted_as = network
        if count is not None and count > settings.WEBSOCKETS_PER_ADDRESS:
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message) -> None:
        if self.counted_as is not None:
            await sync_to_async(socket_closed)(self.counted_as)
            self.counted_as = None
        await super().websocket_disconnect(message)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """Actions go through the HTTP API; nothing a client sends here means anything, but
        a flood of it costs the process: closed."""
        now = time.monotonic()
        if now - self.frames_since >= FRAME_WINDOW_S:
            self.frames, self.frames_since = 0, now
        self.frames += 1
        if self.frames > FRAMES_PER_WINDOW and not self.refused:
            self.refused = True
            await self.close(code=CLOSE_FLOODED)
