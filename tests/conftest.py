"""Project-wide test set-up.

The ``clock`` fixture fixes the daily's "now" at noon of tests.factories.DAY;
``throttle_clock`` stops the throttles' clock where every window has just opened.
``database_down``, ``cache_down`` and ``channel_layer`` stand in for PostgreSQL, Redis's cache
and the channel layer through the seams Django and Channels offer (the connection's
``cursor()``, the ``CACHES`` setting, ``channel_layers.set``), not through the project's names.

Browser tests (``@pytest.mark.browser``) drive Debian's Chromium at /usr/bin/chromium.
Without it they are skipped with a message, except under CI (``CI`` set), where a
missing browser is an error: CI must not go green by skipping them.
"""

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_MISSING = f"browser tests need {CHROMIUM}: apt-get install chromium"


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_configure(config: pytest.Config) -> None:
    """Without Redis the tests' broker is in memory, not ``./dev serve``'s folder (a worker of
    the developer's would run the tests' tasks against its own database): a task queued goes
    nowhere, as on the PostgreSQL run, where no worker reads Redis. A test that needs a task
    run makes Celery eager (``eager_tasks``); tests/production/test_dev_serve.py runs the
    real shape, a worker and beat on the folder."""
    from celery import current_app
    from django.conf import settings

    if not settings.REDIS_URL:
        current_app.conf.broker_url = "memory://"
    elif worker := os.environ.get("PYTEST_XDIST_WORKER"):
        use_redis_database(settings, current_app, 1 + int(worker.removeprefix("gw")))


def use_redis_database(settings, celery_app, number: int) -> None:
    """Each pytest-xdist worker ("gw0", "gw1"...) its own Redis database, as it has its own
    test database: a test that clears the cache (the throttles' counts) or reads the layer
    must not see another worker's. Set before anything connects (Django's caches and Channels'
    layers read their settings at first use)."""
    url = redis_database_url(settings.REDIS_URL, number)
    settings.CACHES["default"]["LOCATION"] = url
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = url
    celery_app.conf.broker_url = celery_app.conf.result_backend = url


def redis_database_url(url: str, number: int) -> str:
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(url)._replace(path=f"/{number}"))


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    from celery import current_app

    celery = "eager" if current_app.conf.task_always_eager else "broker"
    browser = "chromium found" if CHROMIUM.exists() else "no chromium"
    return [
        f"ladder: database {db['ENGINE'].rsplit('.', 1)[-1]}, channel layer {layer}, "
        f"celery {celery}, {browser}"
    ]


# The files that take longest (`./dev test --durations=0`, 2026-12-06: the chaos test 250 s a
# seed, the others 100-280 s), started first: pytest-xdist gives out whole files
# (`--dist loadfile`) in the order collected (`--no-loadscope-reorder`: not the files with the
# most tests first), and a long file begun last keeps one worker busy after the other has
# finished everything else.
LONGEST_FIRST = (
    "tests/browser/test_table_chaos.py",
    "tests/games/test_no_leaks.py",
    "tests/browser/test_table_screens.py",
    "tests/engine/test_playouts.py",
    "tests/browser/test_table_edges.py",
)


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering, which this keeps otherwise
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items or CHROMIUM.exists():
        return
    if running_in_ci():
        raise pytest.UsageError(f"CI is set and {len(browser_items)} {CHROMIUM_MISSING}")
    skip = pytest.mark.skip(reason=f"skipped: {CHROMIUM_MISSING}")
    for item in browser_items:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite's test database is a file, configured as ``./dev serve``'s (WAL, the busy
    timeout): the browser tests' server (tests/browser/conftest.py) answers from threads of
    its own, each with its own connection, and Django's default in-memory test database
    would give them shared-cache table locks that fail at once instead of waiting."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture
def postgresql_only():
    """For races: SQLite serialises writers and has no row locks to race on."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite ignores SELECT ... FOR UPDATE)")


@pytest.fixture
def clock(monkeypatch):
    """The daily's clock, at noon of tests.factories.DAY (``clock.set_day``, ``advance``)."""
    from tests.factories import Clock

    return Clock(monkeypatch)


THROTTLE_NOW = datetime(2030, 3, 18, tzinfo=UTC).timestamp() + 1  # into a day, hour, minute


@pytest.fixture
def production_settings(monkeypatch):
    """ladder.settings as production loads it (DEBUG off, a real secret and host), read again
    from the environment; the test's own settings are loaded back afterwards."""
    import importlib

    import ladder.settings

    monkeypatch.setenv("DEBUG", "false")
    monkeypatch.setenv("SECRET_KEY", "test-only-" + "x" * 50)
    monkeypatch.setenv("ALLOWED_HOSTS", "ladder.example")
    try:
        yield importlib.reload(ladder.settings)
    finally:
        monkeypatch.undo()
        importlib.reload(ladder.settings)


@pytest.fixture
def throttle_clock(monkeypatch):
    """The throttles count in fixed windows (games.web.throttles.hit): a test that counts
    requests up to a limit would see its count reset if a window's edge came mid-test."""
    from games.web import throttles

    monkeypatch.setattr(throttles, "clock", lambda: THROTTLE_NOW)


@pytest.fixture
def database_down():
    """``with database_down(error):`` every statement on the default database raises
    ``error``, as while PostgreSQL is unreachable: the ORM and games.web.rows both ask the
    connection for a cursor."""
    from contextlib import contextmanager

    from django.db import DEFAULT_DB_ALIAS, connections

    @contextmanager
    def down(error: Exception):
        def refuse(*args, **kwargs):
            raise error

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(connections[DEFAULT_DB_ALIAS], "cursor", refuse)
            yield

    return down


@pytest.fixture
def cache_down(settings):
    """Django's cache (Redis in production) refuses every call (tests/outages.py)."""
    settings.CACHES = {"default": {"BACKEND": "tests.outages.DownCache"}}


@pytest.fixture
def channel_layer():
    """``channel_layer(layer)`` makes ``layer`` the default channel layer until the test ends
    (Channels' ``channel_layers.set``, made for swapping the backend in tests)."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    replaced = []

    def use(layer):
        replaced.append(channel_layers.set(DEFAULT_CHANNEL_LAYER, layer))
        return layer

    yield use
    if replaced:
        if replaced[0] is None:
            channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
        else:
            channel_layers.set(DEFAULT_CHANNEL_LAYER, replaced[0])


@pytest_asyncio.fixture
async def close_connections():
    """For the websocket tests: a socket's consumer reads the database in sync_to_async's
    thread; give that thread's connections back before the test database is dropped."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def no_server_loop():
    """Sends to Channels groups start each test made at once, not queued to the loop of a
    server that an earlier test started and that still runs (the browser tests' uvicorn):
    that loop is not the test's, and a test's socket would never hear them. A request served
    through ladder.asgi names its own loop again (ladder/serving.py)."""
    from games.web import groups

    groups.use_loop(None)
