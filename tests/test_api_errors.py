"""Every API error is JSON of one shape: {"error": {"code", "message", "rule"?}}."""

import pytest
from django.http import Http404
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError
from ninja.testing import TestClient

from ladder.api import install_error_handlers


class RuleBroken(HttpError):
    """How services will report an illegal action: a stable code and the rule."""

    def __init__(self) -> None:
        super().__init__(400, "You may not discard the card you just took.")
        self.code = "discard_just_taken"
        self.rule = "R16"


class Move(Schema):
    card: str


def make_client() -> TestClient:
    api = NinjaAPI(urls_namespace="test-api-errors")
    install_error_handlers(api)

    @api.get("/number")
    def number(request, n: int):
        return {"n": n}

    @api.post("/move")
    def move(request, payload: Move):
        return {"card": payload.card}

    @api.get("/illegal")
    def illegal(request):
        raise RuleBroken()

    @api.get("/missing")
    def missing(request):
        raise Http404("no such game")

    @api.get("/conflict")
    def conflict(request):
        raise HttpError(409, "The game has moved on.")

    @api.get("/bug")
    def bug(request):
        raise RuntimeError("a bug")

    return TestClient(api)


@pytest.fixture(scope="module")
def api_client() -> TestClient:
    return make_client()


def test_an_invalid_parameter_is_422_invalid_request(api_client):
    response = api_client.get("/number?n=seven")

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert "n" in error["message"]
    assert error["details"][0]["loc"] == ["query", "n"]


def test_a_body_that_is_not_json_is_400_bad_request(api_client):
    response = api_client.post("/move", data=b"{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_an_http_error_may_carry_its_code_and_rule(api_client):
    response = api_client.get("/illegal")

    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "discard_just_taken",
            "message": "You may not discard the card you just took.",
            "rule": "R16",
        }
    }


def test_a_plain_http_error_gets_a_code_from_its_status(api_client):
    response = api_client.get("/conflict")

    assert response.status_code == 409
    assert response.json() == {"error": {"code": "conflict", "message": "The game has moved on."}}


def test_http404_is_a_json_not_found(api_client):
    response = api_client.get("/missing")

    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}


def test_an_unexpected_exception_is_a_json_500_without_details(api_client, caplog):
    response = api_client.get("/bug")

    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "server_error", "message": "Internal Server Error"}
    }
    assert "a bug" not in response.content.decode()
    assert "Unhandled error" in caplog.text


def test_an_unknown_api_path_is_a_json_not_found(client):
    response = client.get("/api/v1/no-such-thing")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"
