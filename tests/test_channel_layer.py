"""ladder.channel_layer: channels-redis's layer with a cheaper group_send, whose messages the
stock layer reads and whose rules (group expiry, capacity) are the stock layer's."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels_redis.core import RedisChannelLayer as StockLayer

from ladder import settings as settings_module
from ladder.channel_layer import ChannelLayer

pytestmark = [pytest.mark.asyncio,
              pytest.mark.skipif(not settings_module.REDIS_URL, reason="needs REDIS_URL")]


def layers(**config):
    hosts = [settings_module.REDIS_URL]
    prefix = f"test-layer-{time.monotonic_ns()}"  # nothing left from another test or run
    return (ChannelLayer(hosts=hosts, prefix=prefix, **config),
            StockLayer(hosts=hosts, prefix=prefix, **config))


async def receive(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), timeout=2)


async def test_every_member_gets_the_message_as_the_stock_layer_sends_it():
    ours, stock = layers()
    first, second = await stock.new_channel(), await ours.new_channel()
    await stock.group_add("game.a", first)
    await stock.group_add("game.a", second)

    await ours.group_send("game.a", {"type": "game.events", "events": [{"v": 3}]})
    await stock.group_send("game.a", {"type": "game.events", "events": [{"v": 4}]})

    for layer, channel in ((stock, first), (ours, second)):
        assert await receive(layer, channel) == {"type": "game.events", "events": [{"v": 3}]}
        assert await receive(layer, channel) == {"type": "game.events", "events": [{"v": 4}]}
    await ours.flush()
    await stock.flush()


async def test_a_group_without_members_costs_nothing_and_fails_nothing():
    ours, _stock = layers()
    await ours.group_send("game.nobody", {"type": "game.events", "events": []})
    await ours.flush()


async def test_a_full_channel_is_skipped_and_the_others_still_get_it():
    ours, stock = layers(capacity=2)
    other_process = StockLayer(hosts=stock.hosts, prefix=stock.prefix, capacity=2)
    full, free = await stock.new_channel(), await other_process.new_channel()
    await stock.group_add("game.b", full)
    for n in range(2):
        await stock.send(full, {"type": "filler", "n": n})
    await stock.group_add("game.b", free)

    await ours.group_send("game.b", {"type": "game.events", "events": []})

    assert await receive(other_process, free) == {"type": "game.events", "events": []}
    assert [(await receive(stock, full))["type"] for _ in range(2)] == ["filler", "filler"]
    with pytest.raises(TimeoutError):  # the group's message did not go in
        await asyncio.wait_for(stock.receive(full), timeout=0.3)
    for layer in (stock, other_process, ours):
        await layer.flush()


async def test_members_older_than_the_group_expiry_are_dropped():
    ours, stock = layers(group_expiry=60)
    channel = await stock.new_channel()
    connection = stock.connection(0)
    await connection.zadd(stock._group_key("game.c"), {channel: time.time() - 120})

    await ours.group_send("game.c", {"type": "game.events", "events": []})

    assert await connection.zcard(stock._group_key("game.c")) == 0
    await stock.flush()
    await ours.flush()


async def test_sends_go_on_after_redis_forgets_the_scripts():
    ours, stock = layers()
    channel = await stock.new_channel()
    await stock.group_add("game.d", channel)
    await ours.group_send("game.d", {"type": "one"})
    await ours.connection(0).script_flush()  # as a restart would

    await ours.group_send("game.d", {"type": "two"})

    assert [(await receive(stock, channel))["type"] for _ in range(2)] == ["one", "two"]
    await stock.flush()
    await ours.flush()
