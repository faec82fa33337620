"""ladder.postgresql: the pool checks a connection's socket, not with a round trip."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from ladder.postgresql.base import check_idle_connection

pytestmark = pytest.mark.django_db


@pytest.fixture
def postgres_dsn() -> str:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (set DATABASE_URL=postgres://...)")
    params = connection.get_connection_params()
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items()
                                             if k in ("dbname", "user", "host", "port")})


def test_a_healthy_idle_connection_passes_without_a_query(postgres_dsn):
    activity = "SELECT query, state_change FROM pg_stat_activity WHERE pid = %s"
    with psycopg.connect(postgres_dsn, autocommit=True) as conn, \
            psycopg.connect(postgres_dsn, autocommit=True) as watcher:
        conn.execute("SELECT 'last query'")
        before = watcher.execute(activity, [conn.info.backend_pid]).fetchone()
        check_idle_connection(conn)
        after = watcher.execute(activity, [conn.info.backend_pid]).fetchone()
    assert before == after == ("SELECT 'last query'", before[1])  # nothing reached the server


def test_a_connection_the_server_ended_is_refused(postgres_dsn):
    conn = psycopg.connect(postgres_dsn, autocommit=True)
    with psycopg.connect(postgres_dsn, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [conn.info.backend_pid])
    deadline = time.monotonic() + 5
    with pytest.raises(psycopg.OperationalError):  # noqa: PT012 - the socket needs a moment
        while time.monotonic() < deadline:
            check_idle_connection(conn)
            time.sleep(0.05)
    conn.close()


def test_the_default_databases_pool_uses_it():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (set DATABASE_URL=postgres://...)")
    assert connection.pool._check is check_idle_connection


def test_a_connection_on_a_descriptor_above_1023_is_checked_too(postgres_dsn):
    """A busy server holds a thousand sockets: select.select would refuse such a descriptor."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1100:
        pytest.skip("cannot open 1100 files here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1100), hard))
    fillers = []
    try:
        while not fillers or fillers[-1] < 1024:
            fillers.append(os.open(os.devnull, os.O_RDONLY))
        with psycopg.connect(postgres_dsn, autocommit=True) as conn:
            assert conn.fileno() >= 1024
            check_idle_connection(conn)
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_timestamps_are_read_by_the_c_loader_as_django_reads_them(postgres_dsn):
    from datetime import UTC, datetime, timedelta, timezone

    from ladder.postgresql.base import UtcTimestamps

    with connection.cursor() as cursor:
        assert cursor.connection.adapters.get_loader(1184, psycopg.pq.Format.TEXT) is UtcTimestamps
        cursor.execute("SET TIME ZONE 'UTC'")  # as Django sets every connection's
        moments = [datetime(2026, 12, 2, 14, 5, 6, 789123, tzinfo=UTC),
                   datetime(1999, 12, 31, 23, 59, 59, tzinfo=timezone(timedelta(hours=7))),
                   datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=-5, minutes=-30)))]
        cursor.execute("SELECT %s::timestamptz, %s::timestamptz, %s::timestamptz", moments)
        read = cursor.fetchone()
    assert list(read) == moments
    assert all(moment.tzinfo is UTC for moment in read)
