"""Rate limits for the API and the admin login: 429 with ``Retry-After``, rates from settings.

A rate is ``"count/period"`` (``"30/m"``, ``"600/h"``, ``"5/10m"``; periods ``s m h d``),
read from ``settings.THROTTLE_RATES[scope]`` on every request, so the environment (see
ladder/settings.py) and ``override_settings`` both apply; ``None`` or ``"off"`` disables
a scope.

Counting is a fixed window per (scope, who) in Django's cache, through its public API:
``cache.incr`` counts atomically, ``cache.add`` opens the window with its expiry, so several
ASGI processes sharing the Redis cache share one count. A fixed window lets a client burst up
to twice the rate across a window's edge; that is accepted for its price (no
read-modify-write race, which django-ninja's own ``SimpleRateThrottle``, a list of times read
and written back, has between processes and between a process's threads).

Who: a player's own id for ``by="player"`` (the address for a request without one), the
client's address for ``by="address"`` (games.web.addresses: the socket's peer unless it is a
trusted proxy), or its network for ``by="network"`` (an IPv6 address counted by its /64).

Guessing a secret (a league's join code; a table's when they come) is limited by
:func:`guesses`: per network whatever the identity (identities are free), in a short window
and in a day, so the day's ceiling bounds what one client can ever try (docs/api.md, "Friend
leagues", has the arithmetic).

Every request a limit counts keeps its window on the request (:func:`note`), and its answer
says where each limit stands in the IETF draft's ``RateLimit-Policy`` and ``RateLimit``
fields (:func:`rate_limit_headers`, sent by ladder.middleware.RateLimitHeadersMiddleware);
the published document states each operation's limits (ladder/openapi.py). docs/api.md,
"Rate limits", has the table of them all.

If the cache is down (Redis restarting), throttles let requests through and log it: a game
must go on while Redis comes back (HTTP is the source of truth: docs/design.md, "The page's
state: the store and sync").
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from dataclasses import dataclass, replace
from functools import lru_cache

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from games.web.addresses import client_address, client_network

logger = logging.getLogger(__name__)

_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\w*\s*$")
_PERIOD_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@lru_cache(maxsize=64)
def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"30/m"`` -> (30, 60); ``"5/10m"`` -> (5, 600); None/"off"/"" -> None (no limit)."""
    if rate is None or rate.strip().lower() in ("", "off", "none"):
        return None
    match = _RATE.match(rate)
    if not match:
        raise ValueError(f"Invalid rate {rate!r}: expected e.g. '30/m', '600/h', '5/10m'")
    count, multiple, unit = match.groups()
    return int(count), int(multiple or 1) * _PERIOD_S[unit]


def rate_for(scope: str) -> tuple[int, int] | None:
    return parse_rate(getattr(settings, "THROTTLE_RATES", {}).get(scope))


def clock() -> float:
    """The throttles' time (seconds since the epoch); tests stop it (``throttle_clock``)."""
    return time.time()


@dataclass(frozen=True, slots=True)
class Window:
    """One scope's fixed window as a request left it: ``count`` of ``limit`` used, closing
    ``reset_s`` seconds from now. What the ``RateLimit-Policy`` and ``RateLimit`` header
    fields say (:func:`rate_limit_headers`)."""

    scope: str
    limit: int
    period_s: int
    count: int
    reset_s: float

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    @property
    def wait_s(self) -> float | None:
        """Seconds until a refused request may be sent again; None if this one was let in."""
        return None if self.count <= self.limit else self.reset_s


def count(scope: str, ident: str, now: float | None = None) -> Window | None:
    """Count one request by ``ident`` in ``scope``: its window, or None when the scope has no
    limit or the cache is unreachable (the request goes through, uncounted)."""
    rate = rate_for(scope)
    if rate is None:
        return None
    limit, period_s = rate
    now = clock() if now is None else now
    window = int(now // period_s)
    key = f"throttle:{scope}:{ident}:{window}"
    try:
        used = _count(key, period_s + 1)
    except Exception:  # the cache is unreachable: let the request through
        logger.warning("Throttle %s: cache unavailable, not counting", scope, exc_info=True)
        return None
    return Window(scope, limit, period_s, used, (window + 1) * period_s - now)


def hit(scope: str, ident: str, now: float | None = None) -> float | None:
    """Count one request by ``ident`` in ``scope``: None if allowed, else seconds to wait."""
    counted = count(scope, ident, now)
    return None if counted is None else counted.wait_s


def release(scope: str, ident: str, now: float) -> None:
    """Take back the count :func:`hit` made at ``now`` (the same ``now``, so the same window):
    for limits on failures, counted before the outcome is known so that parallel attempts
    cannot all slip under the limit, and released once one succeeds."""
    rate = rate_for(scope)
    if rate is None:
        return
    key = f"throttle:{scope}:{ident}:{int(now // rate[1])}"
    try:
        caches["default"].decr(key)
    except ValueError:  # the window has expired meanwhile: nothing to take back
        pass
    except Exception:
        logger.warning("Throttle %s: cache unavailable, not released", scope, exc_info=True)


def _count(key: str, ttl_s: int) -> int:
    """Add one to the window's counter and return it, through Django's cache: ``cache.incr``
    counts (Redis's ``INCR``: atomic across processes); the window's first count opens it
    with ``cache.add`` and its expiry. Counting first makes the usual case one cache call, not
    two (a round trip each)."""
    backend = caches["default"]
    try:
        return backend.incr(key)
    except ValueError:  # no window yet (or it just expired)
        if backend.add(key, 1, timeout=ttl_s):
            return 1
        return backend.incr(key)  # another process opened it first


def address_ident(request: HttpRequest) -> str:
    return client_address(request) or "unknown"


# --- What an answer says of its limits ---------------------------------------------------------


def note(request: HttpRequest, window: Window | None) -> None:
    """Keep ``window`` on ``request`` for its answer's ``RateLimit`` fields
    (ladder.middleware.RateLimitHeadersMiddleware); a later note of one scope replaces it."""
    if window is not None:
        if not hasattr(request, "rate_limits"):
            request.rate_limits = {}
        request.rate_limits[window.scope] = window


def given_back(window: Window) -> Window:
    """``window`` once :func:`release` took its count back."""
    return replace(window, count=window.count - 1)


def rate_limit_headers(windows) -> dict[str, str]:
    """The IETF httpapi draft's fields (draft-ietf-httpapi-ratelimit-headers-10), one item a
    policy, named by its scope: ``RateLimit-Policy: "actions";q=600;w=60`` (the quota and its
    window in seconds) and ``RateLimit: "actions";r=597;t=42`` (left in this window, and
    whole seconds until it closes). A refused request's ``r`` is 0 and its ``t`` the
    ``Retry-After``."""
    windows = list(windows)
    if not windows:
        return {}
    return {
        "RateLimit-Policy": ", ".join(f'"{w.scope}";q={w.limit};w={w.period_s}' for w in windows),
        "RateLimit": ", ".join(f'"{w.scope}";r={w.remaining};t={max(1, math.ceil(w.reset_s))}'
                               for w in windows),
    }


# Whom each limit counts, for the published document (ladder/openapi.py).
PER = {"address": "client address", "network": "client network (an IPv6 address by its /64)",
       "player": "player"}


def policy(scope: str, per: str) -> dict | None:
    """A limit as the OpenAPI document states it (``x-rate-limits``), or None while it is
    off: its policy name (the fields' and ``THROTTLE_<SCOPE>``), quota, window, and whom it
    counts."""
    rate = rate_for(scope)
    if rate is None:
        return None
    return {"policy": scope, "quota": rate[0], "window": rate[1], "per": per,
            "setting": f"THROTTLE_{scope.upper()}"}


class Throttle(BaseThrottle):
    """A django-ninja throttle for one ``scope`` (``throttle=[Throttle("actions")]``).

    ``by``: ``"address"``, ``"network"`` or ``"player"``. ``new_identities_only``: count
    only requests that are about to create a player (``request.auth`` is a new browser, or no
    auth at all). Each request counted keeps its window for the answer's ``RateLimit``
    fields (:func:`note`)."""

    def __init__(self, scope: str, by: str = "address", new_identities_only: bool = False):
        if by not in ("address", "network", "player"):
            raise ValueError(by)
        self.scope = scope
        self.by = by
        self.new_identities_only = new_identities_only
        self._last = threading.local()  # ninja asks wait() right after allow_request()

    def ident(self, request: HttpRequest) -> str:
        auth = getattr(request, "auth", None)
        if self.by == "player" and getattr(auth, "pk", None) is not None:
            return f"p{auth.pk}"
        if self.by == "network":
            return f"n{client_network(request) or 'unknown'}"
        return f"a{address_ident(request)}"

    def policy(self) -> dict | None:
        per = PER[self.by]
        if self.new_identities_only:
            per += ", counting only the requests that make a new player"
        return policy(self.scope, per)

    def allow_request(self, request: HttpRequest) -> bool:
        if self.new_identities_only and getattr(getattr(request, "auth", None), "pk", None):
            return True
        window = count(self.scope, self.ident(request))
        note(request, window)
        self._last.wait_s = None if window is None else window.wait_s
        return self._last.wait_s is None

    def wait(self) -> float | None:
        # Retry-After is whole seconds, at least 1 (ninja rounds up).
        return max(1.0, math.ceil(getattr(self._last, "wait_s", None) or 1.0))


def guesses(scope: str) -> list[Throttle]:
    """The throttles of requests that guess a secret code: per client network whatever the
    identity, at the rates ``scope`` (a short window) and ``scope + "_day"`` (a ceiling a
    day)."""
    return [Throttle(scope, by="network"), Throttle(f"{scope}_day", by="network")]


# --- Open websockets ---------------------------------------------------------------------------

# A count of open sockets lives this long after its first socket: what a killed process never
# took back is forgotten then (the cap is then at worst lenient for a while, never stricter).
SOCKETS_COUNT_TTL_S = 6 * 3600


def socket_opened(ident: str) -> int | None:
    """Count one more open websocket of ``ident`` (a client network): the count, or None
    while the cache is down (the socket is let through)."""
    try:
        return _count(f"sockets:{ident}", SOCKETS_COUNT_TTL_S)
    except Exception:
        logger.warning("Socket count: cache unavailable, not counting", exc_info=True)
        return None


def socket_closed(ident: str) -> None:
    """Take back what :func:`socket_opened` counted."""
    try:
        caches["default"].decr(f"sockets:{ident}")
    except ValueError:  # the count has expired meanwhile
        pass
    except Exception:
        logger.warning("Socket count: cache unavailable, not released", exc_info=True)
