"""Which pages may open the site's websockets: Channels' ``OriginValidator`` for a browser's
handshake, and nothing for a client that sends no ``Origin``.

A browser sends the page's origin with every websocket handshake, and the site's cookies
with it whichever page opens the socket; so another site's page could open a person's game
socket with their cookie. Channels' ``OriginValidator`` (``channels.security.websocket``,
used as documented: an ASGI layer given the allowed origins) refuses a handshake whose
``Origin`` is not one of them by scheme, host and port, with an HTTP 403 before the socket
opens. The allowed origins are the page's own and ``CSRF_TRUSTED_ORIGINS``, as Django's CSRF
check allows a form's.

What stays ours, and why: Channels' validators also refuse a handshake that sends no
``Origin`` (unless every origin is allowed), and the bots and other non-browser clients send
none; they carry no ambient credential another site could borrow (they hold a bearer token),
so :class:`BrowserOrigins` lets such a handshake past the validator. And the page's own
origin is the handshake's: ``AllowedHostsOriginValidator`` alone compares the origin's host
with ``ALLOWED_HOSTS`` and lets any scheme and port of an allowed host through, so each
handshake gets its own list, built from documented Django parts only: the ``Host`` as
``HttpRequest.get_host()`` validates it against ``ALLOWED_HOSTS`` (a host we do not serve, as
after DNS rebinding, gives no origin of its own), https when the socket is secure (``wss``)
or ``HttpRequest.is_secure()`` says so from ``SECURE_PROXY_SSL_HEADER``.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from channels.security.websocket import OriginValidator
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest


def _headers(scope) -> dict[str, str]:
    """The handshake's headers as a Django request's ``META`` names them."""
    return {"HTTP_" + name.decode("latin-1").upper().replace("-", "_"): value.decode("latin-1")
            for name, value in scope.get("headers", ())}


def allowed_origins(scope) -> list[str]:
    """The origins a browser's handshake may come from: ``CSRF_TRUSTED_ORIGINS`` and the
    page's own, the handshake's scheme and validated ``Host``."""
    allowed = list(settings.CSRF_TRUSTED_ORIGINS)
    request = HttpRequest()
    request.META = _headers(scope)
    if "HTTP_HOST" not in request.META:  # nothing to compare with
        return allowed
    try:
        host = request.get_host()
    except DisallowedHost:
        return allowed
    secure = scope.get("scheme") in ("wss", "https") or request.is_secure()
    allowed.append(f"{'https' if secure else 'http'}://{host}")
    return allowed


def _port_is_readable(origin: str) -> bool:
    """Whether the origin's port parses: Channels' validator reads it without a guard, and
    ``http://host:99999`` would raise instead of being refused."""
    try:
        urlsplit(origin.strip()).port  # noqa: B018 (the property raises on a bad port)
    except ValueError:
        return False
    return True


def ticket_of(scope) -> str | None:
    """The ``ticket`` of the socket's URL (games.players.services), or None; a query too long
    to be a ticket's reads as a wrong ticket ("")."""
    query = scope.get("query_string", b"").decode("latin-1")
    if not query:
        return None
    try:
        values = parse_qs(query, keep_blank_values=True, max_num_fields=8).get("ticket")
    except ValueError:
        return ""
    return values[0] if values else None


class BrowserOrigins:
    """An ASGI layer for websockets: a handshake with ``Origin`` goes through Channels'
    ``OriginValidator`` with :func:`allowed_origins`; one without passes (the module's
    docstring says why), and so does one whose URL carries a socket ticket, from any page:
    the ticket is its only credential (games.consumers.admit never falls back on a cookie
    then), and a page had to be given it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        origins = [value.decode("latin-1") for name, value in scope.get("headers", ())
                   if name == b"origin"]
        if not origins or ticket_of(scope) is not None:
            return await self.app(scope, receive, send)
        allowed = allowed_origins(scope) if all(map(_port_is_readable, origins)) else []
        return await OriginValidator(self.app, allowed)(scope, receive, send)
