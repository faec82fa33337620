"""Django settings for Ladder Rummy: one file, configured from the environment.

Environment variables (all optional in development):

- ``DEBUG`` (default ``true``): development mode. Production sets ``DEBUG=false``.
- ``SECRET_KEY``: required when ``DEBUG`` is false. In development a key is generated
  once and kept in ``.dev-secret-key`` (git-ignored) so signed cookies survive restarts.
- ``ALLOWED_HOSTS``: comma-separated. Defaults to the loopback names when ``DEBUG``.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://example.com``), optional.
- ``CORS_ALLOWED_ORIGINS``: comma-separated origins whose pages may call the API (with a
  bearer token, never cookies); by default any origin may.
- ``DATABASE_URL`` (default ``sqlite:///<repo>/db.sqlite3``): any URL dj-database-url
  understands. PostgreSQL (``postgres://...``) runs on psycopg 3 with Django's
  connection pool (``OPTIONS["pool"]``), which needs ``CONN_MAX_AGE = 0``: under ASGI,
  persistent per-thread connections would otherwise exhaust the server's slots.
- ``REDIS_URL``: when absent, the in-memory channel layer and local-memory cache are
  used, and Celery's broker is the folder ``BROKER_FOLDER`` (default ``<repo>/.dev-broker``,
  kombu's filesystem transport): ``./dev serve`` runs a worker and beat on it. When present,
  Redis carries the channel layer, the cache and Celery's broker and results.
- Production switches (only read when ``DEBUG`` is false): ``SECURE_SSL_REDIRECT``
  (default true), ``SECURE_HSTS_SECONDS`` (default one year),
  ``SECURE_HSTS_INCLUDE_SUBDOMAINS`` and ``SECURE_HSTS_PRELOAD`` (default true),
  ``TRUST_X_FORWARDED_PROTO`` (default false: set it behind a TLS-terminating proxy
  that sets ``X-Forwarded-Proto``, or the SSL redirect will loop).
- The reverse proxies whose ``X-Forwarded-For`` names the client are uvicorn's to trust
  (``--forwarded-allow-ips`` or ``FORWARDED_ALLOW_IPS``: addresses or CIDR networks,
  docs/production.md); ``TRUSTED_PROXIES`` and ``NUM_PROXIES`` are gone and stop the start.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def _dev_secret_key() -> str:
    """A random key made once per checkout, so sessions survive a server restart."""
    path = BASE_DIR / ".dev-secret-key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race
        return path.read_text().strip()
    except OSError:  # read-only checkout: a per-process key will do
        return key
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


# --- Core -----------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")
    SECRET_KEY = _dev_secret_key()

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# CORS (django-cors-headers), the API only: pages on other origins call it with a bearer token
# (docs/api.md, "Other origins"). Never with credentials: no
# Access-Control-Allow-Credentials, so a browser sends no cookie with such a call and cannot
# read an answer to one that did; the player cookie stays this site's. CORS_ALLOWED_ORIGINS
# (comma-separated) narrows the origins; by default any may call.
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_ALLOW_ALL_ORIGINS = not CORS_ALLOWED_ORIGINS
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = ["Retry-After", "RateLimit-Policy", "RateLimit"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "corsheaders",
    "ninja",  # serves the API docs' Swagger UI from local static files, not a CDN
    "games",
    "games.tables",
    "leaderboards",
    "leaderboards.leagues",
    "frontend",
]

MIDDLEWARE = [
    "corsheaders.middleware.CorsMiddleware",  # first: it answers the API's preflights itself
    "django.middleware.security.SecurityMiddleware",
    "ladder.middleware.SecurityHeadersMiddleware",  # CSP, Permissions-Policy
    "ladder.middleware.ApiErrorShapeMiddleware",  # /api/ errors in the API's shape
    "ladder.middleware.ApiNeverCachedMiddleware",  # /api/ answers are never cached
    "ladder.middleware.RateLimitHeadersMiddleware",  # RateLimit fields of the limits counted
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "frontend.middleware.LanguageFromLinkMiddleware",  # ?lang=xx: kept, then a clean URL
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "ladder.middleware.AdminLoginThrottleMiddleware",
    "ladder.middleware.DatabaseUnavailableMiddleware",  # 503, not 500, while PostgreSQL is away
]

ROOT_URLCONF = "ladder.urls"
WSGI_APPLICATION = "ladder.wsgi.application"
ASGI_APPLICATION = "ladder.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.context_processors.player",
                "frontend.context_processors.languages",
                "frontend.context_processors.client_lists",
            ],
        },
    },
]

# --- Serving ----------------------------------------------------------------------------

# Requests one server process runs at once (ladder/serving.py); the rest wait their turn.
# Python runs one thread at a time, so more threads only cover waits on the database/Redis,
# and each thread back from a wait queues for the interpreter's lock behind the others: on
# two cores, three processes of 4 threads had a 1000-game p99 a quarter to a half below two
# processes of 8 (docs/performance.md, "The serving shape").
HTTP_THREADS = env_int("HTTP_THREADS", 4)

# --- Database -------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")


# SQLite as a concurrent web app needs it (the default ./dev serve database): WAL lets reads
# go on while one request writes; every transaction takes the write lock at BEGIN
# (IMMEDIATE), so racing requests queue for it, up to the busy timeout, instead of failing
# with "database is locked" when a read-then-write transaction tries to upgrade its lock;
# "synchronous=NORMAL" is WAL's usual pairing (a power cut may lose the last commits, never
# corrupt the file). 50 identical racing actions: one 200, 49 409s, ten rounds in a row
# (tests/production/test_dev_serve.py); before, 16 of 500 answered 503.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,  # seconds a statement waits for the write lock
}


def database_config(url: str, pool: bool = True) -> dict:
    """Django's DATABASES["default"] for ``url``: SQLite gets :data:`SQLITE_OPTIONS`,
    PostgreSQL psycopg's pool.

    Pool knobs (per process): ``DATABASE_POOL_MIN_SIZE`` (default 2),
    ``DATABASE_POOL_MAX_SIZE`` (default ``HTTP_THREADS`` + 2: every request thread, and the
    websocket consumers' few lookups, get a connection without waiting) and
    ``DATABASE_POOL_TIMEOUT`` (seconds a request waits for a connection, default 5: then
    OperationalError, which the API answers with 503).
    ``DATABASE_POOL=false`` turns the pool off (one connection per request), for comparison.
    Pooled connections bind parameters on the server and prepare repeated statements.
    Health checks are on, so a pool never hands out a connection PostgreSQL has dropped:
    Django gives the pool psycopg_pool's own check (``ConnectionPool.check_connection``, an
    empty query before each connection is lent)."""
    config = dj_database_url.parse(url, conn_max_age=0, conn_health_checks=True)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    if config["ENGINE"] == "django.db.backends.postgresql" and pool:
        # Django's pool (psycopg_pool) refuses persistent connections: CONN_MAX_AGE = 0.
        min_size = env_int("DATABASE_POOL_MIN_SIZE", 2)
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": min_size,
            "max_size": max(min_size, env_int("DATABASE_POOL_MAX_SIZE", HTTP_THREADS + 2)),
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 5),
        }
        # Parameters bound by the server let psycopg prepare a statement a connection has run
        # twice: the action path's few statements then skip parsing and planning (PostgreSQL's
        # CPU per action 1.0 -> 0.75 ms). Prepared statements live in a connection, so they
        # suit a pool of our own, not a transaction-mode pgbouncer in front; psycopg forgets
        # them at a ROLLBACK (a refused action), and a migration that changes a column's type
        # under running processes fails each connection's prepared statement once: migrate,
        # then start the new processes, as a deploy does.
        config["OPTIONS"].update(server_side_binding=True, prepare_threshold=2)
    return config


DATABASES = {"default": database_config(DATABASE_URL, pool=env_bool("DATABASE_POOL", True))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery ----------------------------------------------

REDIS_URL = env_str("REDIS_URL")


def _redis_retry():
    """Retry a Redis command up to twice on a connection error (a restarted server)."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    return Retry(ExponentialBackoff(cap=0.5, base=0.05), 2,
                 supported_errors=(RedisConnectionError,))


if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis's pub/sub layer: a group send is one PUBLISH, where its core
            # layer (RedisChannelLayer) made two commands for every send, listeners or not
            # (games.web.groups). While Redis is away its reader logs and retries each second;
            # redis-py subscribes again once it reconnects.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # A publish that hangs is cut by the outbox's own timeout (games.web.groups).
            # After Redis restarts, pooled connections are dead: retry a command once on a
            # fresh connection instead of failing the send or the websocket handshake.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15,
                                  "retry": _redis_retry()}]},
        }
    }
    # django-redis rather than Django's own RedisCache: it keeps one client a process where
    # Django's builds one for every call, 8.5 % of an action's instructions
    # (docs/performance.md). The throttles count here; a Redis that hangs must not hold a
    # request for long (they let it through when the cache fails: games.web.throttles).
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "ladder",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # The embedded default (``./dev serve``): production's parts with nothing to install.
    # The broker is a folder (kombu's filesystem transport), so a Celery worker and beat run
    # beside the server as in production and no request runs a task; the in-memory layer
    # lives in the server's process, and what the worker sends to a group crosses to it
    # through the same folder (games.web.relay).
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    BROKER_FOLDER = Path(env_str("BROKER_FOLDER", str(BASE_DIR / ".dev-broker")))
    CELERY_BROKER_URL = "filesystem://localhost//"  # kombu warns of a URL without a host
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_FOLDER / "messages"),
        "data_folder_out": str(BROKER_FOLDER / "messages"),
        "control_folder": str(BROKER_FOLDER / "control"),
        "polling_interval": 0.2,  # seconds: a turn timer's task arrives within this
    }
    CELERY_RESULT_BACKEND = None  # nobody reads a task's result
    # The tests run tasks where they are queued (tests/conftest.py), there being no worker.
    CELERY_TASK_ALWAYS_EAGER = False

CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
TURN_SWEEP_S = 5.0  # seconds between beat's sweeps of overdue turns (games.tasks)
# Beat (UTC). Every job is idempotent, so a missed run costs nothing: the hourly ones make
# the next day's deal from 00:30 the day before, close an ended day's unfinished dailies at
# 00:01 (acting on them is refused from 00:00 anyway; games.daily) and queue what may be
# analysed; the leagues' tallies move on daily; overdue turns are swept every few seconds.
CELERY_BEAT_SCHEDULE = {
    "prepare-daily-deals": {"task": "games.prepare_daily_deals",
                            "schedule": crontab(minute=30)},
    "close-ended-dailies": {"task": "games.close_ended_dailies",
                            "schedule": crontab(minute=1)},
    # After the close: an ended day's dailies may be analysed now (games.services.analysis).
    "queue-analyses": {"task": "games.queue_analyses", "schedule": crontab(minute=5)},
    "carry-league-tallies-forward": {"task": "leagues.carry_tallies_forward",
                                     "schedule": crontab(hour=0, minute=20)},
    # The safety net of the tasks due at each turn's deadline (games.services.timers): a
    # turn whose task was lost is played at most this late.
    "time-out-overdue-turns": {"task": "games.time_out_overdue_turns",
                               "schedule": TURN_SWEEP_S},
}

# --- Auth -----------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation -------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("th", "ไทย"),
]
# The language cookie (the picker and frontend.middleware's ?lang= links set it): Lax like
# the others; Secure in production (below).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "locale"]  # app folders (frontend/locale/) are found as well
USE_I18N = True
TIME_ZONE = "UTC"  # R26: a day runs 00:00-24:00 UTC
USE_TZ = True

# --- Static files ---------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "frontend.storage.StaticFilesStorage"
        )
    },
}
# In development WhiteNoise serves straight from the apps' static folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Source maps (the API docs' Swagger UI and ReDoc bundles) are fetched only by developer tools:
# left uncompressed, collectstatic takes half the time (docs/production.md).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# --- Rate limits (games/web/throttles.py): "count/period", "off" to disable -----------------

THROTTLE_RATES = {
    # new players, per address: POST /players, and a browser's first write
    "identities": env_str("THROTTLE_IDENTITIES", "30/h"),
    "games": env_str("THROTTLE_GAMES", "30/h"),  # games started, per player
    # actions (and "I'm back", "ready"), per player: 10 a second, so a whole game (a median
    # of 220-240 actions of one player, 354 at most seen) fits in one window at any pace
    # (docs/api.md, "Rate limits")
    "actions": env_str("THROTTLE_ACTIONS", "600/m"),
    "hints": env_str("THROTTLE_HINTS", "30/m"),  # practice hints (an expert's decision), per player
    "admin_login": env_str("THROTTLE_ADMIN_LOGIN", "10/15m"),  # admin login POSTs, per address
    # failed account logins, per (username, address) and per address (never per username
    # alone: anyone could lock its owner out); transfer-code redemptions, per address
    "login": env_str("THROTTLE_LOGIN", "10/15m"),
    "login_address": env_str("THROTTLE_LOGIN_ADDRESS", "30/15m"),
    "transfer": env_str("THROTTLE_TRANSFER", "10/15m"),
    # friend leagues: created per player; join-code look-ups and joins per address (an IPv6
    # /64), whatever the identity, in ten minutes and in a day (docs/api.md has the arithmetic)
    "leagues": env_str("THROTTLE_LEAGUES", "10/h"),
    "league_codes": env_str("THROTTLE_LEAGUE_CODES", "30/10m"),
    "league_codes_day": env_str("THROTTLE_LEAGUE_CODES_DAY", "100/d"),
    # tables for friends: opened per player; join-code look-ups and joins as the leagues'
    "tables": env_str("THROTTLE_TABLES", "20/h"),
    "table_codes": env_str("THROTTLE_TABLE_CODES", "30/10m"),
    "table_codes_day": env_str("THROTTLE_TABLE_CODES_DAY", "100/d"),
    "reactions": env_str("THROTTLE_REACTIONS", "10/m"),  # a table's reactions, per player
    "socket_tickets": env_str("THROTTLE_SOCKET_TICKETS", "60/m"),  # per player
}
# Open websockets per client address (an IPv6 one by its /64), counted in the cache; one more
# is closed with 4429 (games.web.groups.PushConsumer). A page holds one or two; many people
# may share an address behind a NAT.
WEBSOCKETS_PER_ADDRESS = env_int("WEBSOCKETS_PER_ADDRESS", 50)
# The client's address is the peer uvicorn gives (games/web/addresses.py); the proxies whose
# X-Forwarded-For it believes are uvicorn's --forwarded-allow-ips. The settings that named
# them here stop the start, so that a deploy that still sets one does not silently trust
# nobody (every client would be the proxy's address) or everybody.
for _gone in ("TRUSTED_PROXIES", "NUM_PROXIES"):
    if _gone in os.environ:
        raise ImproperlyConfigured(
            f"{_gone} is gone: give uvicorn the proxies' addresses or networks as "
            "--forwarded-allow-ips (or FORWARDED_ALLOW_IPS); docs/production.md")
# django-ninja's own address reader would believe X-Forwarded-For; nothing calls it, and 0
# keeps it to REMOTE_ADDR should anything start to.
NINJA_NUM_PROXIES = 0

# --- Production hardening -------------------------------------------------------------

if not DEBUG:
    # Django's defaults already make the session cookie HttpOnly and both cookies
    # SameSite=Lax; spelled out here. The csrftoken cookie stays readable by scripts: the
    # frontend echoes it in X-CSRFToken (HttpOnly would add nothing, as Django's docs say).
    SESSION_COOKIE_SECURE = True
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    CSRF_COOKIE_SECURE = True
    CSRF_COOKIE_SAMESITE = "Lax"
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Logging --------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
