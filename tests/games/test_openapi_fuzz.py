"""Schemathesis over /api/v1/openapi.json, every operation on its own: no 5xx, no response
that contradicts the schema (status, content type, body), every error in the one shape and at
most 16 KB, whatever a client sends.

Both generation modes run (Schemathesis 4's default): positive cases (schema-valid, which
must be accepted unless refused by design, tests/games/fuzzing.py) and negative ones (which
must be refused with a 4xx); its coverage phase adds the edges: integers at and past their
bounds, strings at and past their lengths, and bodies of every other JSON type (arrays,
strings, numbers, booleans, null). Each generated request carries a fresh player's bearer
token; a well-formed game id in the path is the player's own game for half the cases, so the
game endpoints are reached, not only their 404.

``FUZZ_EXAMPLES`` (default 20) sets the fuzzing phase's examples per operation: a one-off
larger run is ``FUZZ_EXAMPLES=500 ./dev test tests/games/test_openapi_fuzz.py``.
"""

import os
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from games import services
from games.players.identity import hash_token, new_token
from games.players.services import create_player
from games.web.schemas import PUBLIC_ID
from tests.games.fuzzing import api_schema, one_error_shape, refused_by_design

schema = api_schema()
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, negative_data_rejection, one_error_shape]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
seen = Counter()


@pytest.fixture(autouse=True)
def throttles_off(settings, wsgi_inside_the_test_transaction):
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}


@pytest.fixture(scope="module", autouse=True)
def case_counts(request):
    yield
    if seen:
        statuses = ", ".join(f"{status}: {n}" for status, n in sorted(seen.items()))
        with request.config.pluginmanager.get_plugin("capturemanager") \
                .global_and_fixture_disabled():
            print(f"\nSchemathesis, operation by operation: {seen.total()} cases ({statuses})")


@pytest.mark.slow
@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema_whatever_it_is_sent(case):
    token = new_token()
    player = create_player(token_hash=hash_token(token))
    params = case.path_parameters or {}
    game_id = params.get("game_id")
    if isinstance(game_id, str) and re.fullmatch(PUBLIC_ID, game_id) and len(game_id) % 2 == 0:
        params["game_id"] = services.start_game(player, level="easy").game.public_id
    headers = {"Authorization": f"Bearer {token}"}
    response = case.call(headers=headers)
    seen[response.status_code] += 1
    checks = CHECKS if refused_by_design(case, response) else [*CHECKS,
                                                                positive_data_acceptance]
    case.validate_response(response, checks=checks, headers=headers)
