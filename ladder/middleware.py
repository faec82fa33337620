"""Project middleware: security headers, the admin login throttle, 503 when the database is
away, and the API's error shape on answers Django makes.

Django's ``SecurityMiddleware`` already sends ``X-Content-Type-Options: nosniff``,
``Referrer-Policy`` (``SECURE_REFERRER_POLICY``), ``Cross-Origin-Opener-Policy`` and, in
production over HTTPS, ``Strict-Transport-Security``; ``XFrameOptionsMiddleware`` sends
``X-Frame-Options: DENY``. :class:`SecurityHeadersMiddleware` adds what they do not: the
Content-Security-Policy and a Permissions-Policy.

Django's session, locale, authentication and message middleware run as Django ships them, on
every request (docs/design.md, "Hand-made parts, and why": passing them by under ``/api/``
bought less than a tenth of an action).
"""

from __future__ import annotations

import logging
from functools import lru_cache

from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from games.web.addresses import client_address
from games.web.errors import error_response
from games.web.throttles import hit, rate_limit_headers

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"  # where answers take the API's error shape (ladder.views too)
DATABASE_RETRY_AFTER_S = 5
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


def content_security_policy(request: HttpRequest) -> str:
    """Only our own origin: no inline scripts or styles, no framing, no plugins.

    ``connect-src`` names the websocket origin (same host, ``ws:``/``wss:``) explicitly:
    CSP Level 2 browsers (older Safari) do not let ``'self'`` match a websocket URL."""
    try:
        host = request.get_host()
    except DisallowedHost:  # the response is already a 400; keep the header strict
        host = None
    return _policy(f"{'wss' if request.is_secure() else 'ws'}://{host}" if host else None)


@lru_cache(maxsize=64)  # a policy per websocket origin: the allowed hosts' few
def _policy(socket_origin: str | None) -> str:
    sources = ["'self'"] if socket_origin is None else ["'self'", socket_origin]
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        f"connect-src {' '.join(sources)}",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


class ApiNeverCachedMiddleware:
    """Every API answer is never cached (Django's ``add_never_cache_headers``): it is one
    player's state of the moment, and browsers otherwise answer a page's fetches from their
    cache after Back (home showed "Not started yet" for a daily in progress)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(API_PREFIX):
            add_never_cache_headers(response)
        return response


class RateLimitHeadersMiddleware:
    """An answer to a request that a rate limit counted says where that limit stands, in the
    ``RateLimit-Policy`` and ``RateLimit`` fields (games.web.throttles.rate_limit_headers), so
    a client paces itself before a 429: the refused answer too, whoever made it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        counted = getattr(request, "rate_limits", {})
        for field, value in rate_limit_headers(counted.values()).items():
            response[field] = value
        return response


class SecurityHeadersMiddleware:
    """Adds Content-Security-Policy and Permissions-Policy to every response (a view that
    sets its own CSP keeps it)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = content_security_policy(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class AdminLoginThrottleMiddleware:
    """At most ``THROTTLE_RATES["admin_login"]`` login attempts (POSTs to the admin's login
    page) per client address: 429 with ``Retry-After``. Staff-only access itself is Django
    admin's own (``is_staff`` and ``is_active``)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self._login_path = None

    def login_path(self) -> str:
        if self._login_path is None:
            self._login_path = reverse("admin:login")
        return self._login_path

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path == self.login_path():
            wait_s = hit("admin_login", client_address(request))
            if wait_s is not None:
                logger.warning("Admin login throttled for %s", client_address(request))
                response = HttpResponse("Too many login attempts: try again later.\n",
                                        status=429, content_type="text/plain; charset=utf-8")
                response["Retry-After"] = str(max(1, int(wait_s + 0.999)))
                return response
        return self.get_response(request)


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON in the API's error shape under /api/, plain text elsewhere."""
    message = "The game's database is briefly unavailable: try again in a few seconds."
    if request.path.startswith(API_PREFIX):
        response = error_response(503, message, "unavailable")
    else:
        response = HttpResponse(message + "\n", status=503,
                                content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_S)
    return response


DATABASE_DOWN_ERRORS = (OperationalError, InterfaceError)


class ApiErrorShapeMiddleware:
    """Under ``/api/``, an error answer that Django or django-ninja made without the API's
    error handlers (a 405 from ninja's path view, Django's HTML 404 with ``DEBUG`` on, a 400 or
    413 from Django's request checks) is given the API's one error shape, keeping its status,
    headers (``Allow``, ``Retry-After``...) and cookies. Placed near the top, it sees every
    answer of the middleware below it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code >= 400 and request.path.startswith(API_PREFIX)
                and not response.get("Content-Type", "").startswith("application/json")):
            shaped = error_response(response.status_code, _message_for(response))
            for header, value in response.items():
                if header.lower() not in ("content-type", "content-length"):
                    shaped[header] = value
            shaped.cookies = response.cookies
            return shaped
        return response


def _message_for(response: HttpResponse) -> str | None:
    if response.status_code == 405 and "Allow" in response:
        return f"Method not allowed: use {response['Allow']}."
    return None  # the status's phrase


class DatabaseUnavailableMiddleware:
    """A view that fails because PostgreSQL is unreachable (restart, failover, pool timeout)
    answers 503 with ``Retry-After`` instead of a 500. The API's own handler
    (ladder/api.py) does the same for the endpoints, which catch their exceptions first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if isinstance(exception, DATABASE_DOWN_ERRORS):
            logger.warning("Database unavailable in %s %s: %s", request.method, request.path,
                           exception)
            return database_unavailable_response(request)
        return None
