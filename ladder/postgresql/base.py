"""Django's PostgreSQL backend, with a cheaper health check for pooled connections and a
C parser for timestamps.

With ``CONN_HEALTH_CHECKS`` and a pool, Django has psycopg's pool send an empty query before
lending out each connection: a round trip to PostgreSQL for every request, and under load a
wait for the interpreter's lock when it comes back (in one pair of 1000-game runs of
scripts/load.py, p99 203 ms with it, 151 ms without). This backend's pool asks the socket
instead (:func:`check_idle_connection`).

Its connections also read ``timestamptz`` with psycopg's C loader (:class:`UtcTimestamps`)
where Django's own loader parses the text in Python.
"""

from __future__ import annotations

import select
from datetime import UTC
from functools import cache

import psycopg
from django.db.backends.postgresql import base
from psycopg import OperationalError
from psycopg.adapt import AdaptersMap, Loader
from psycopg.postgres import types
from psycopg.pq import ConnStatus, Format
from psycopg_pool import ConnectionPool

TIMESTAMPTZ_OID = types["timestamptz"].oid
_C_TIMESTAMPTZ = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)  # C, if built


def check_idle_connection(conn) -> None:
    """Raise if a connection coming out of the pool is dead.

    An idle connection has nothing to read, so a readable socket means the server spoke while
    the connection sat in the pool: a restart's "terminating connection", or the end of the
    stream. Only then is the round trip paid, which raises if the connection is dead, and the
    pool drops it and lends another. A peer that vanished without a word still passes; the
    connection's first query then fails (the API answers 503) and the pool discards it."""
    if conn.closed or conn.pgconn.status != ConnStatus.OK:
        raise OperationalError("the connection is closed")
    waiting = select.poll()  # not select.select: it refuses descriptors from 1024 up
    waiting.register(conn.fileno(), select.POLLIN)
    if waiting.poll(0):
        ConnectionPool.check_connection(conn)


class UtcTimestamps(Loader):
    """Django's ``timestamptz`` loader with psycopg's C parser inside.

    Django registers a subclass of psycopg's Python loader, which parses each timestamp's
    text in Python and then sets the connection's time zone on it (py-spy put the bearer's
    player's and the game's timestamps at 3 % of an action's samples; counted, this loader
    took an action from 7.78 to 7.71 M instructions). psycopg's C loader cannot be
    subclassed, so this one holds one. Used only where Django's time zone for the
    connection is UTC, which Django also sets as the session's (so the C loader's result is
    already in it); ``timezone`` is what Django's cursors compare before registering a
    loader of their own."""

    timezone = UTC

    def __init__(self, oid: int, context=None):
        super().__init__(oid, context)
        self._parse = _C_TIMESTAMPTZ(oid, context).load

    def load(self, data):
        return self._parse(data).replace(tzinfo=UTC)


@cache
def _with_utc_timestamps(template: AdaptersMap) -> AdaptersMap:
    adapters = AdaptersMap(template)
    adapters.register_loader(TIMESTAMPTZ_OID, UtcTimestamps)
    return adapters


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        if params.get("context") is not None and self.timezone is UTC:
            params["context"] = _with_utc_timestamps(params["context"])
        return params

    @property
    def pool(self):
        pool = super().pool
        # Django builds the pool with its own check when CONN_HEALTH_CHECKS is on, and takes
        # no other: swap ours in before the pool lends its first connection. (psycopg_pool
        # keeps the check in ``_check``; tests/test_postgresql_backend.py watches for a change.)
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_idle_connection
        return pool
