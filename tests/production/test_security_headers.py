"""Every response carries a strict Content-Security-Policy and the other security headers;
production settings add HSTS and secure cookies (ladder/middleware.py, ladder/settings.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from ladder.middleware import PERMISSIONS_POLICY

TEMPLATES = Path(settings.BASE_DIR) / "frontend" / "templates"


def csp_of(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in policy.split(";")) if d}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/api/v1/health", "/api/v1/openapi.json", "/admin/login/",
                                  "/api/v1/no-such-thing"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)

    csp = csp_of(response)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Permissions-Policy"] == PERMISSIONS_POLICY


@pytest.mark.django_db
def test_the_policy_allows_inline_code_nowhere(client):
    policy = client.get("/")["Content-Security-Policy"]

    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert "*" not in policy


@pytest.mark.django_db
def test_websockets_may_connect_only_to_our_own_host(client):
    csp = csp_of(client.get("/", HTTP_HOST="localhost:8000"))

    assert csp["connect-src"] == ["'self'", "ws://localhost:8000"]


@pytest.mark.django_db
def test_over_https_the_websocket_source_is_wss(client):
    csp = csp_of(client.get("/", HTTP_HOST="localhost", secure=True))

    assert csp["connect-src"] == ["'self'", "wss://localhost"]


@pytest.mark.django_db
@override_settings(SECURE_HSTS_SECONDS=31_536_000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True)
def test_production_settings_send_hsts_over_https(client):
    response = client.get("/api/v1/health", secure=True)

    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


def test_production_cookies_are_secure_httponly_and_same_site(production_settings):
    production = production_settings
    assert production.SESSION_COOKIE_SECURE is True
    assert production.CSRF_COOKIE_SECURE is True
    assert production.SESSION_COOKIE_HTTPONLY is True
    assert production.SESSION_COOKIE_SAMESITE == production.CSRF_COOKIE_SAMESITE == "Lax"
    assert production.SECURE_HSTS_SECONDS >= 31_536_000
    assert production.SECURE_SSL_REDIRECT is True


@pytest.mark.django_db
def test_the_player_cookie_is_secure_httponly_and_lax_in_production(client, settings):
    settings.DEBUG = False
    client.get("/api/v1/csrf")
    token = client.cookies["csrftoken"].value

    response = client.post("/api/v1/games", data={"mode": "practice", "level": "easy"},
                           content_type="application/json", headers={"X-CSRFToken": token})

    assert response.status_code == 201, response.content
    cookie = response.cookies["ladder_player"]
    assert cookie["secure"] is True
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"


EXECUTABLE_INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def test_the_templates_hold_no_inline_script_the_policy_would_block():
    offenders = []
    for template in sorted(TEMPLATES.rglob("*.html")):
        text = template.read_text()
        if EXECUTABLE_INLINE_SCRIPT.search(text) or INLINE_HANDLER.search(text) \
                or re.search(r"\sstyle\s*=", text):
            offenders.append(template.name)

    assert offenders == []


def edge_answer(app, status: int, body_bytes: int = 10) -> dict[bytes, bytes]:
    """The headers of an answer the serving layer writes itself (ASGI, outside Django)."""
    from asgiref.sync import async_to_sync
    from channels.testing import HttpCommunicator

    async def run():
        communicator = HttpCommunicator(app, "POST", "/api/v1/players", body=b"x" * body_bytes,
                                        headers=[(b"host", b"testserver")])
        return await communicator.get_response(timeout=10)

    response = async_to_sync(run)()
    assert response["status"] == status
    return dict(response["headers"])


EDGE_HEADERS = [b"content-security-policy", b"x-content-type-options", b"x-frame-options",
                b"referrer-policy", b"permissions-policy"]


def test_the_serving_layers_own_413_carries_the_security_headers():
    from ladder.asgi import application
    from ladder.serving import BODY_MARGIN_BYTES

    too_large = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + BODY_MARGIN_BYTES + 1

    headers = edge_answer(application, 413, too_large)

    assert [h for h in EDGE_HEADERS if h not in headers] == []
    assert b"frame-ancestors 'none'" in headers[b"content-security-policy"]
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"x-frame-options"] == b"DENY"


def test_any_answer_written_outside_django_gets_them_and_djangos_own_are_kept():
    from ladder.serving import SecurityHeaders

    async def unavailable(scope, receive, send):  # as a 503 written by the serving layer
        await receive()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"),
                                (b"x-frame-options", b"SAMEORIGIN")]})
        await send({"type": "http.response.body", "body": b"{}"})

    headers = edge_answer(SecurityHeaders(unavailable), 503)

    assert [h for h in EDGE_HEADERS if h not in headers] == []
    assert headers[b"x-frame-options"] == b"SAMEORIGIN"  # an answer's own header wins
