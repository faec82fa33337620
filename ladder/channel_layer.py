"""channels-redis's layer, sending to a group in one round trip to Redis, or two when the
group has members.

channels-redis 4 sends to a group in two round trips when no one listens and four when
someone does: it expires the group's old members, reads the members, expires each member's
old messages, then sends a Lua script as text that queues the message to each member with
room. Every action sends to its game's group, on the server's event loop, and that was 6.9 %
of an action's CPU in the server process (py-spy, scripts/action_cost.py). Here one script
(``EVALSHA``) expires and reads the members, and a second one expires each member's old
messages and queues the message: an action went from 8.11 to 7.81 M instructions in the
server process (scripts/action_instructions.py, where no websocket listens). The keys, the
values and the capacity rule are channels-redis's own, so consumers read them as they would
its own sends; everything else is its layer unchanged. Two differences, with several Redis
hosts: a member's old messages are expired on that member's host (channels-redis 4.3 asks
the group's, or the previous host's), and a full channel is logged by ``ladder.channel_layer``.
"""

from __future__ import annotations

import logging
import time

from channels_redis import core
from redis.commands.core import AsyncScript

logger = logging.getLogger(__name__)

_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# KEYS: the members' channel keys; ARGV: a message per key, a capacity per key, then the
# time, the oldest message time kept and the expiry.
_QUEUE = """
local n = #KEYS
local now, oldest, expiry = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local over_capacity = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class ChannelLayer(core.RedisChannelLayer):
    async def group_send(self, group: str, message: dict) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        connection = self.connection(self.consistent_hash(group))
        now = time.time()
        members = await _script(_MEMBERS, connection)(
            keys=[self._group_key(group)], args=[int(now) - self.group_expiry],
            client=connection)
        if not members:
            return
        channel_names = [member.decode("utf8") for member in members]
        keys_by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channel_names, message)
        for index, keys in keys_by_connection.items():
            connection = self.connection(index)
            over_capacity = await _script(_QUEUE, connection)(
                keys=keys,
                args=[*(messages[key] for key in keys), *(capacities[key] for key in keys),
                      now, int(now) - int(self.expiry), self.expiry],
                client=connection)
            if over_capacity > 0:
                logger.info("%s of %s channels over capacity in group %s", over_capacity,
                            len(channel_names), group)


_scripts: dict[str, AsyncScript] = {}


def _script(text: str, connection) -> AsyncScript:
    """The script's sha and text, for any connection (each call names its client; a Redis
    that restarted and forgot the script is sent it again)."""
    script = _scripts.get(text)
    if script is None:
        script = _scripts[text] = AsyncScript(connection, text)
    return script
