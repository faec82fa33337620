"""What the Schemathesis tests (tests/games/test_openapi_fuzz.py,
tests/production/test_schema_stateful.py) hold every answer to, besides Schemathesis's checks:
the one error shape, a bounded size, and which refusals of schema-valid data are by design."""

from __future__ import annotations

import json

import schemathesis
from django.core.wsgi import get_wsgi_application
from schemathesis.config import SchemathesisConfig

RESPONSE_MAX_BYTES = 16 * 1024

# Schema-valid requests the server refuses by design (422), with the code it gives:
# - an action that is well-formed but against the rules (R1-R26): the engine's codes;
# - a display name the schema cannot describe (at least one letter, no symbols, at most two
#   combining marks a letter: rules over Unicode categories, which JSON Schema's regular
#   expressions cannot state portably);
# - a password Django's validators find weak (common, numeric, like the username);
# - a page cursor that is well-formed base64 but not one the server made.
REFUSED_BY_DESIGN = {
    "POST /api/v1/games/{game_id}/actions": None,  # any engine code (not invalid_request)
    "PATCH /api/v1/me": {"invalid_name", "reserved_name"},
    "POST /api/v1/leagues": {"invalid_name", "reserved_name"},  # a league's name: the same rules
    "PATCH /api/v1/leagues/{league_id}": {"invalid_name", "reserved_name"},
    "POST /api/v1/tables": {"invalid_name", "reserved_name"},  # a table's name: the same rules
    "POST /api/v1/tables/join/{code}": {"invalid_name", "reserved_name"},  # one's own name
    "POST /api/v1/account/register": {"weak_password"},
    "GET /api/v1/leaderboards/daily": {"invalid_cursor"},
    "GET /api/v1/leaderboards/daily/{day}": {"invalid_cursor"},
    "GET /api/v1/leaderboards/week": {"invalid_cursor"},
    "GET /api/v1/leaderboards/week/{week}": {"invalid_cursor"},
}


def error_code(response) -> str | None:
    try:
        return json.loads(response.content)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def refused_by_design(case, response) -> bool:
    if response.status_code != 422 or case.operation.label not in REFUSED_BY_DESIGN:
        return False
    codes = REFUSED_BY_DESIGN[case.operation.label]
    code = error_code(response)
    return code != "invalid_request" if codes is None else code in codes


@schemathesis.check
def one_error_shape(ctx, response, case):
    """Every answer is at most 16 KB; every error is {"error": {"code", "message", "rule"?}}
    (a 409 also carries the current ``game``)."""
    assert len(response.content) <= RESPONSE_MAX_BYTES, f"{len(response.content)} bytes"
    if response.status_code < 400:
        return None
    body = json.loads(response.content)
    assert set(body) <= {"error", "game"} and "error" in body, body
    error = body["error"]
    assert isinstance(error.get("code"), str) and isinstance(error.get("message"), str), body
    assert set(error) <= {"code", "message", "rule", "details"}, body
    return None


def api_schema():
    """The API's OpenAPI document, served by the app in process. Schemathesis's literals
    taken from the application's source are off: which literals it takes (a capped pool)
    depends on what the process has loaded, so a run that follows other tests drew
    differently from the same run alone, and Hypothesis stopped with
    FlakyStrategyDefinition while replaying a case. The runs are derandomised: the same
    cases whatever ran before them."""
    config = SchemathesisConfig.from_dict({"analysis": {"constants": {"enabled": False}}})
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application(),
                                          config=config)
