"""A browser's websocket handshake must come from the page's own origin, scheme, host and port
(issue 29), or from ``CSRF_TRUSTED_ORIGINS``: Channels' ``OriginValidator`` refuses the rest
with an HTTP 403 (games/web/origins.py). A client that sends no ``Origin`` (a bot, any
non-browser client) is let through: Channels' validator alone would refuse it."""

from __future__ import annotations

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from games.web.origins import BrowserOrigins

pytestmark = pytest.mark.asyncio


class Accepting(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


async def opens(origin: str | None, host: str | None = "localhost:8000", scheme: str = "ws",
                *headers: tuple[bytes, bytes]) -> bool:
    sent = [*headers]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    if host is not None:
        sent.append((b"host", host.encode()))
    communicator = WebsocketCommunicator(BrowserOrigins(Accepting.as_asgi()), "/ws/x/",
                                         headers=sent)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize("origin, host, scheme", [
    ("http://localhost:8000", "localhost:8000", "ws"),
    ("http://LOCALHOST:8000", "localhost:8000", "ws"),
    ("https://localhost", "localhost", "wss"),
    ("https://localhost:443", "localhost", "wss"),
    ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws"),
    (None, "localhost:8000", "ws"),  # not a browser
    (None, None, "ws"),  # a bot's client may not even send Host
])
async def test_the_pages_own_origin_is_allowed(origin, host, scheme):
    assert await opens(origin, host, scheme)


@pytest.mark.parametrize("origin, host, scheme", [
    ("http://localhost:6666", "localhost:8000", "ws"),  # another port
    ("http://localhost", "localhost:8000", "ws"),
    ("https://localhost:8000", "localhost:8000", "ws"),  # another scheme
    ("http://localhost", "localhost", "wss"),  # a page over http for a secure socket
    ("https://evil.example", "localhost:8000", "ws"),
    ("http://evil.example", "evil.example", "ws"),  # DNS rebinding: a host we do not serve
    ("null", "localhost:8000", "ws"),
    ("file://", "localhost:8000", "ws"),
    ("http://localhost:99999", "localhost:8000", "ws"),
    ("http://localhost:8000", None, "ws"),  # no Host to compare with
])
async def test_another_origin_is_refused(origin, host, scheme):
    assert not await opens(origin, host, scheme)


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
async def test_behind_a_tls_proxy_the_forwarded_scheme_counts():
    forwarded = (b"x-forwarded-proto", b"https")

    assert await opens("https://localhost", "localhost", "ws", forwarded)
    assert not await opens("http://localhost", "localhost", "ws", forwarded)


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example"])
async def test_a_csrf_trusted_origin_is_allowed():
    assert await opens("https://play.example", "localhost:8000")
    assert not await opens("http://play.example", "localhost:8000")
