"""The game socket's Origin check compares scheme, host and port with the handshake's own
(issue 29, games/consumers.py): another port or scheme on our host is another site."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.consumers import origin_allowed


def handshake(origin: str | None, host: str | None = "localhost:8000", scheme: str = "ws",
              *headers: tuple[bytes, bytes]) -> dict:
    sent = [*headers]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    if host is not None:
        sent.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": sent}


@pytest.mark.parametrize("origin, host, scheme", [
    ("http://localhost:8000", "localhost:8000", "ws"),
    ("http://LOCALHOST:8000", "localhost:8000", "ws"),
    ("https://localhost", "localhost", "wss"),
    ("https://localhost:443", "localhost", "wss"),
    ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws"),
    (None, "localhost:8000", "ws"),  # not a browser
])
def test_the_pages_own_origin_is_allowed(origin, host, scheme):
    assert origin_allowed(handshake(origin, host, scheme))


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
def test_another_origin_is_refused(origin, host, scheme):
    assert not origin_allowed(handshake(origin, host, scheme))


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_forwarded_scheme_counts():
    forwarded = (b"x-forwarded-proto", b"https")

    assert origin_allowed(handshake("https://localhost", "localhost", "ws", forwarded))
    assert not origin_allowed(handshake("http://localhost", "localhost", "ws", forwarded))


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example"])
def test_a_csrf_trusted_origin_is_allowed():
    assert origin_allowed(handshake("https://play.example", "localhost:8000"))
    assert not origin_allowed(handshake("http://play.example", "localhost:8000"))
