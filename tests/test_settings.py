"""The environment picks the database, channel layer and Celery mode (ladder/settings.py)."""

import os
import subprocess
import sys

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from ladder.celery import app as celery_app
from ladder.settings import database_config


def test_a_postgres_url_gets_psycopg_with_the_connection_pool():
    config = database_config("postgres://postgres@127.0.0.1:5432/ladder")

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "ladder"
    # every request thread and the websocket consumers get a connection without waiting
    assert config["OPTIONS"]["pool"] == {"min_size": 2, "max_size": settings.HTTP_THREADS + 2,
                                         "timeout": 5}
    assert config["CONN_MAX_AGE"] == 0
    assert config["CONN_HEALTH_CHECKS"] is True
    # the action path's repeated statements are prepared, once per pooled connection
    assert config["OPTIONS"]["server_side_binding"] is True
    assert config["OPTIONS"]["prepare_threshold"] == 2


def test_the_pool_is_sized_from_the_environment_and_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("DATABASE_POOL_MIN_SIZE", "3")
    monkeypatch.setenv("DATABASE_POOL_MAX_SIZE", "20")
    monkeypatch.setenv("DATABASE_POOL_TIMEOUT", "2")
    url = "postgres://postgres@127.0.0.1:5432/ladder"

    assert database_config(url)["OPTIONS"]["pool"] == {"min_size": 3, "max_size": 20,
                                                       "timeout": 2}
    assert "pool" not in database_config(url, pool=False).get("OPTIONS", {})
    assert "prepare_threshold" not in database_config(url, pool=False).get("OPTIONS", {})


def test_a_sqlite_url_gets_no_pool():
    config = database_config("sqlite:////tmp/x.sqlite3")

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert "pool" not in config.get("OPTIONS", {})


def test_a_sqlite_database_gets_wal_a_busy_timeout_and_immediate_transactions():
    options = database_config("sqlite:////tmp/x.sqlite3")["OPTIONS"]

    assert options["init_command"] == "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5


@pytest.mark.parametrize("environment, refusal", [
    ({"TRUSTED_PROXIES": "10.0.0.1"}, "TRUSTED_PROXIES is gone"),
    ({"NUM_PROXIES": "1"}, "NUM_PROXIES is gone"),
])
def test_a_wrong_proxy_setting_stops_the_server_from_starting(environment, refusal):
    result = subprocess.run([sys.executable, "-c", "import ladder.settings"],
                            env={**os.environ, **environment}, capture_output=True, text=True)

    assert result.returncode != 0
    assert refusal in result.stderr


def test_the_suite_runs_on_the_database_named_by_database_url():
    url = os.environ.get("DATABASE_URL", "sqlite://")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"

    assert connection.vendor == expected


def test_redis_url_chooses_the_channel_layer_and_celery_mode():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"
        assert celery_app.conf.task_always_eager is False
        assert celery_app.conf.broker_url == settings.CACHES["default"]["LOCATION"]
        assert celery_app.conf.broker_url.startswith(os.environ["REDIS_URL"].rsplit("/", 1)[0])
    else:  # the embedded default: a broker in a folder (./dev serve runs a worker on it)
        assert backend == "channels.layers.InMemoryChannelLayer"
        assert settings.CELERY_BROKER_URL.startswith("filesystem://")
        assert celery_app.conf.broker_url == "memory://"  # the tests' own (tests/conftest.py)
        assert celery_app.conf.task_always_eager is False


def test_a_message_goes_through_the_configured_channel_layer():
    layer = get_channel_layer()

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ping", "v": 1})
        return await layer.receive(channel)

    assert async_to_sync(round_trip)() == {"type": "ping", "v": 1}


def test_the_cache_works():
    cache.set("ladder-test-key", 7, 5)
    assert cache.get("ladder-test-key") == 7
    cache.delete("ladder-test-key")


@pytest.mark.django_db
def test_postgresql_connections_come_from_psycopgs_pool():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (set DATABASE_URL=postgres://...)")
    connection.ensure_connection()

    assert connection.pool is not None
