"""The shared cast for the games API tests.

- ``alice`` and ``bob``: third-party clients with bearer tokens from ``POST /players``;
- ``browser``: a browser that enforces CSRF like a real one, holding Django's csrftoken cookie
  and echoing it in ``X-CSRFToken`` (it gets its player cookie on its first write);
- ``nobody``: a client with no identity at all.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client

API = "/api/v1"


class Api:
    """A JSON client of /api/v1 that remembers every response it received."""

    def __init__(self, client: Client, csrf: bool = False):
        self.client = client
        self.csrf = csrf
        self.responses = []

    def _headers(self, method: str) -> dict:
        if self.csrf and method not in ("GET", "HEAD") and "csrftoken" in self.client.cookies:
            return {"X-CSRFToken": self.client.cookies["csrftoken"].value}
        return {}

    def request(self, method: str, path: str, data=None, raw: bytes | None = None, **headers):
        kwargs = {"headers": {**self._headers(method), **headers}}
        if raw is not None:
            kwargs.update(data=raw, content_type="application/json")
        elif data is not None:
            kwargs.update(data=data, content_type="application/json")
        elif method not in ("GET", "HEAD"):
            # No body at all, as a browser's fetch or httpx sends (the test client would send
            # an empty multipart form, which an optional JSON body cannot read).
            kwargs.update(data=b"", content_type="application/json")
        response = getattr(self.client, method.lower())(API + path, **kwargs)
        self.responses.append(response)
        return response

    def get(self, path, **headers):
        return self.request("GET", path, **headers)

    def post(self, path, data=None, **kw):
        return self.request("POST", path, data, **kw)

    def patch(self, path, data=None, **kw):
        return self.request("PATCH", path, data, **kw)

    # The game, in the game's words:

    def new_game(self, level: str = "easy") -> dict:
        response = self.post("/games", {"mode": "practice", "level": level})
        assert response.status_code == 201, response.content
        return response.json()

    def act(self, game: dict, action: dict, version: int | None = None):
        version = game["version"] if version is None else version
        return self.post(f"/games/{game['id']}/actions", {"version": version, "action": action})


def bearer_api(token: str, **client_options) -> Api:
    api = Api(Client(headers={"Authorization": f"Bearer {token}"}, **client_options))
    api.token = token
    return api


def new_bearer_api() -> Api:
    response = Client().post(f"{API}/players")
    assert response.status_code == 201, response.content
    return bearer_api(response.json()["token"])


@pytest.fixture(autouse=True)
def no_throttles(settings):
    """Rate limits are games/web/throttles.py's to test: here every scope is off, and the
    counters (kept in the cache) start from nothing."""
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def wsgi_inside_the_test_transaction():
    """For a WSGI application called in the test's thread (Schemathesis, httpx's WSGI
    transport): as Django's test client does, keep the handler from closing the test's
    database connection at the end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def alice(db) -> Api:
    return new_bearer_api()


@pytest.fixture
def bob(db) -> Api:
    return new_bearer_api()


@pytest.fixture
def browser(db) -> Api:
    api = Api(Client(enforce_csrf_checks=True), csrf=True)
    assert api.get("/csrf").status_code == 200
    return api


@pytest.fixture
def nobody(db) -> Api:
    return Api(Client())
