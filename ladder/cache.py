"""A Redis cache backend whose connection pool lives as long as the process.

Django keeps cache backends in an ``asgiref.local.Local`` that is context-local: under ASGI
every request gets a fresh ``RedisCache`` instance, hence a fresh ``RedisCacheClient`` with a
fresh connection pool, hence a new TCP connection to Redis per request (and a pool left to
the garbage collector). Under load that was a tenth of the CPU of an action (the throttle's
two commands paying for a connect each time; measured with py-spy, see README
"Production"). Here every instance with the same servers and options shares one client.
redis-py's pools are thread-safe and reset themselves in a forked child.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
