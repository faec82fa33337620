"""A Redis cache backend whose connection pool lives as long as the process.

Django keeps cache backends in an ``asgiref.local.Local`` that is context-local: under ASGI
every request gets a fresh ``RedisCache`` instance, hence a fresh ``RedisCacheClient`` with a
fresh connection pool, hence a new TCP connection to Redis per request (and a pool left to
the garbage collector). Under load that was a tenth of the CPU of an action (the throttle's
two commands paying for a connect each time; measured with py-spy, see README
"Production"). Here every instance with the same servers and options shares one client.
redis-py's pools are thread-safe and reset themselves in a forked child.

Django also builds a new ``redis.Redis`` for every cache call (each copies a table of ~170
response callbacks): :class:`ReusingClient` keeps one per connection pool. A ``redis.Redis``
is thread-safe; it takes a connection from the pool for each command.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class ReusingClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients_by_pool.get(id(pool))
        if client is None:
            client = self._clients_by_pool[id(pool)] = self._client(connection_pool=pool)
        return client

    @cached_property
    def _clients_by_pool(self) -> dict:
        return {}


class SharedRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingClient

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
