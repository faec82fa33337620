"""A cache backend that is always down, for the ``cache_down`` fixture (tests/conftest.py):
Redis restarting, as the throttles see it through Django's cache API."""

from django.core.cache.backends.base import BaseCache


class DownCache(BaseCache):
    def __init__(self, location, params):
        super().__init__(params)

    def _down(self, *args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    add = get = set = touch = delete = incr = decr = has_key = clear = _down
    get_many = set_many = delete_many = _down
