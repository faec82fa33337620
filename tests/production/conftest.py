"""Shared helpers for the production-hardening tests: a bearer client and a fresh cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import player_with_token

API = "/api/v1"


@pytest.fixture(autouse=True)
def fresh_throttles(throttle_clock):
    """Throttle counters live in the cache: start every test with none (and the windows
    still, tests/conftest.py)."""
    cache.clear()
    yield
    cache.clear()


def bearer_client(token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def player(db):
    """(player, bearer client)."""
    player, token = player_with_token("Tester")
    return player, bearer_client(token)


def post_json(client: Client, path: str, data, **kw):
    return client.post(API + path, data=data, content_type="application/json", **kw)
