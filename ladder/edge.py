"""The ASGI application's outer layers (ladder/asgi.py): who the peer is, and the security
headers on answers that Django does not write.

**The peer.** The client address that throttles, the daily's address hash and the admin-login
limit use is the socket's peer, or what a proxy of ``TRUSTED_PROXIES`` says
(games/web/addresses.py). uvicorn, unless started with ``--no-proxy-headers``, replaces the peer
with an address read from ``X-Forwarded-For`` whenever the peer is one it trusts (by default
127.0.0.1, whatever ``TRUSTED_PROXIES`` says), and the application never sees the real peer:
any local client could name itself. :class:`ForwardedPeerGuard` recognises such a scope (its
``client`` is one of the header's own entries, ``host`` or ``host:port``, with the port that
entry gives or 0, which no TCP peer has) and, since nothing tells which peer vouched for it,
treats the client as :data:`UNVERIFIED_PEER`: one address shared by every such request, so a
forged header moves nobody out of their count (and links their dailies for review). Started
as docs/production.md says (``--no-proxy-headers``), uvicorn leaves the peer alone and this
layer never acts; a server started otherwise logs a warning once and stays safe.

**Headers.** Django's middleware puts the security headers on everything Django answers
(ladder/middleware.py); :class:`SecurityHeaders` adds them to what the serving layer answers
itself (ladder/serving.py: a 413 before Django reads the body, or any other answer
written there), only where a header is missing, so Django's own stay as they are.
"""

from __future__ import annotations

import logging

from ladder.middleware import PERMISSIONS_POLICY

logger = logging.getLogger(__name__)

UNVERIFIED_PEER = "unverified-forwarded-peer"
SCOPES_WITH_PEERS = ("http", "websocket")

# For answers with no page in them (errors): nothing may load, frame or be sniffed.
EDGE_SECURITY_HEADERS = (
    (b"content-security-policy",
     b"default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)


def _entry(value: str) -> tuple[str, int]:
    """An ``X-Forwarded-For`` entry as (host, port), as uvicorn reads it (0: no port)."""
    value = value.strip()
    if value.startswith("[") and "]" in value:
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif value.count(":") == 1:
        host, _, port = value.partition(":")
    else:
        host, port = value, ""
    return host, int(port) if port.isdigit() else 0


def client_from_header(scope: dict) -> bool:
    """Whether the scope's client was taken from its own ``X-Forwarded-For``."""
    client = scope.get("client")
    if not client:
        return False
    host, port = client[0], client[1]
    for name, value in scope.get("headers", ()):
        if name.lower() != b"x-forwarded-for":
            continue
        for entry in value.decode("latin-1").split(","):
            entry_host, entry_port = _entry(entry)
            if entry_host == host and port in (0, entry_port):
                return True
    return False


class ForwardedPeerGuard:
    """An ASGI layer: a client the server took from ``X-Forwarded-For`` becomes
    :data:`UNVERIFIED_PEER` (see the module's docstring)."""

    def __init__(self, app):
        self.app = app
        self.warned = False

    async def __call__(self, scope, receive, send):
        if scope["type"] in SCOPES_WITH_PEERS and client_from_header(scope):
            if not self.warned:
                self.warned = True
                logger.warning("The ASGI server replaced the client's address with one from "
                               "X-Forwarded-For: start uvicorn with --no-proxy-headers "
                               "(TRUSTED_PROXIES decides whom to believe). Such requests "
                               "count as one unverified address.")
            scope = {**scope, "client": (UNVERIFIED_PEER, 0)}
        await self.app(scope, receive, send)


class SecurityHeaders:
    """An ASGI layer for ``http``: the security headers an answer lacks, added as it starts."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                missing = [h for h in EDGE_SECURITY_HEADERS if h[0] not in present]
                if missing:
                    message = {**message, "headers": headers + missing}
            await send(message)

        await self.app(scope, receive, send_with_headers)
