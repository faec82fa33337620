"""Project middleware: security headers, the admin login throttle, 503 when the database is
away, and the API's error shape on answers Django makes.

Django's ``SecurityMiddleware`` already sends ``X-Content-Type-Options: nosniff``,
``Referrer-Policy`` (``SECURE_REFERRER_POLICY``), ``Cross-Origin-Opener-Policy`` and, in
production over HTTPS, ``Strict-Transport-Security``; ``XFrameOptionsMiddleware`` sends
``X-Frame-Options: DENY``. :class:`SecurityHeadersMiddleware` adds what they do not: the
Content-Security-Policy and a Permissions-Policy.

The session, authentication and message middleware serve the pages and the admin: under
``/api/`` (:class:`PagesOnly`) they are passed by, as no endpoint reads a session, a Django
user or a message (players are ``request.auth``: games.players.identity).
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date

from games.web.addresses import client_address
from games.web.errors import error_response
from games.web.throttles import hit

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


class PagesOnly:
    """Mixin for a Django middleware that serves the pages and the admin only: a request under
    ``/api/`` goes straight on to the next layer. Replaces, under ``/api/``, Django's
    session, authentication and message middleware, which answered the same there (nothing
    in the API reads or writes a session, ``request.user`` or messages, so they set no
    cookie and no ``Vary: Cookie``). Measured gain: 7.58 -> 7.44 M instructions an action,
    all of their 0.15 M there (``bench/action_instructions.py --actions 100 --warmup 20
    --games 5``, same digest; docs/performance.md). Each class below stays a subclass of
    Django's, so the admin's checks still find it."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        return super().__call__(request)


class PageSessionMiddleware(PagesOnly, SessionMiddleware):
    """Django's SessionMiddleware, for the pages and the admin (:class:`PagesOnly`)."""


class PageAuthenticationMiddleware(PagesOnly, AuthenticationMiddleware):
    """Django's AuthenticationMiddleware, for the pages and the admin (:class:`PagesOnly`)."""


class PageMessageMiddleware(PagesOnly, MessageMiddleware):
    """Django's MessageMiddleware, for the pages and the admin (:class:`PagesOnly`)."""


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, without its look for a language in the path where the URLs
    carry none (no ``i18n_patterns``, as here): Django's reads the path's first segment as a
    language code on the way in and again on the way out (``/api/`` is not one: two raised
    and caught ``LookupError`` a request), and uses what it found only with
    ``i18n_patterns``. The language (cookie, ``Accept-Language``, ``LANGUAGE_CODE``), the
    ``Vary: Accept-Language`` and the ``Content-Language`` are Django's own. Measured gain:
    7.15 -> 7.09 M instructions an action, 40 % of the 0.15 M Django's cost there
    (``bench/action_instructions.py --actions 100 --warmup 20 --games 5``, same digest).
    With ``i18n_patterns`` Django's runs."""

    def process_request(self, request: HttpRequest) -> None:
        if _language_prefixed(request):
            return super().process_request(request)
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if _language_prefixed(request):
            return super().process_response(request, response)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


def _language_prefixed(request: HttpRequest) -> bool:
    """Whether the request's URLconf uses ``i18n_patterns`` (Django caches the answer)."""
    return is_language_prefix_patterns_used(getattr(request, "urlconf", settings.ROOT_URLCONF))[0]


# What Django's ``add_never_cache_headers`` writes on an answer without Cache-Control.
NEVER_CACHED = "max-age=0, no-cache, no-store, must-revalidate, private"


class ApiNeverCachedMiddleware:
    """Every API answer is ``Cache-Control: no-store``: it is one player's state of the
    moment, and browsers otherwise answer a page's fetches from their cache after Back (home
    showed "Not started yet" for a daily in progress). The headers are those of Django's
    ``add_never_cache_headers`` on an answer that has no Cache-Control (``Expires`` now
    unless set, then :data:`NEVER_CACHED`; tests/test_page_middleware.py compares them),
    written without its parsing of the header twice over. Measured with the CSP kept per
    websocket origin (:func:`content_security_policy`): 7.06 -> 6.98 M instructions an action
    (``bench/action_instructions.py --actions 100 --warmup 20 --games 5``, same digest)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(API_PREFIX) and not response.has_header("Cache-Control"):
            if not response.has_header("Expires"):
                response.headers["Expires"] = http_date(time.time())
            response.headers["Cache-Control"] = NEVER_CACHED
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
