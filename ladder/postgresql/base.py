"""Django's PostgreSQL backend, with a cheaper health check for pooled connections.

With ``CONN_HEALTH_CHECKS`` and a pool, Django has psycopg's pool send an empty query before
lending out each connection: a round trip to PostgreSQL for every request, and under load a
wait for the interpreter's lock when it comes back (in one pair of 1000-game runs of
scripts/load.py, p99 203 ms with it, 151 ms without). This backend's pool asks the socket
instead (:func:`check_idle_connection`).
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import OperationalError
from psycopg.pq import ConnStatus
from psycopg_pool import ConnectionPool


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


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # Django builds the pool with its own check when CONN_HEALTH_CHECKS is on, and takes
        # no other: swap ours in before the pool lends its first connection. (psycopg_pool
        # keeps the check in ``_check``; tests/test_postgresql_backend.py watches for a change.)
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_idle_connection
        return pool
