"""Schemathesis over /api/v1/openapi.json: no 5xx, and no response that contradicts the
schema (status, content type, body), whatever a client sends.

Each generated request carries a fresh player's bearer token; a game id in the path is the
player's own game for half the cases, so the game endpoints are reached, not only their 404.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games import services
from games.identity import hash_token, new_token

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@pytest.fixture(autouse=True)
def wsgi_inside_the_test_transaction(settings):
    """Throttles off; and, as Django's test client does, keep the WSGI handler from closing
    the test's database connection at the end of each request."""
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.slow
@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema_whatever_it_is_sent(case):
    token = new_token()
    player = services.create_player(token_hash=hash_token(token))
    params = case.path_parameters or {}
    if "game_id" in params and len(str(params["game_id"])) % 2 == 0:
        params["game_id"] = services.start_game(player, level="easy").game.public_id
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)
