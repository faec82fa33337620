"""Every API error is JSON of one shape, {"error": {"code", "message", "rule"?}}, serialised the
same way whatever raised it; and every input is bounded (issue 24's holes, one test each)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.core.cache import cache
from django.db import OperationalError
from django.http import Http404
from django.test import Client
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError
from ninja.testing import TestClient

from games.models import Game
from games.players.models import Player
from games.web.errors import CONTENT_TYPE
from games.web.renderer import dumps
from ladder.api import JsonObjectParser, api, install_error_handlers
from ladder.serving import ThreadedDjango
from tests.factories import player_with_token

API = "/api/v1"
RESPONSE_MAX_BYTES = 16 * 1024
NOT_OBJECTS = ["[]", "[null,null]", '"x"', "5", "true", "null"]


class RuleBroken(HttpError):
    """How services will report an illegal action: a stable code and the rule."""

    def __init__(self) -> None:
        super().__init__(400, "You may not discard the card you just took.")
        self.code = "discard_just_taken"
        self.rule = "R16"


class Move(Schema):
    card: str


class Numbers(Schema):
    numbers: list[int]


def make_client() -> TestClient:
    api = NinjaAPI(urls_namespace="test-api-errors", parser=JsonObjectParser())
    install_error_handlers(api)

    @api.get("/number")
    def number(request, n: int):
        return {"n": n}

    @api.post("/move")
    def move(request, payload: Move):
        return {"card": payload.card}

    @api.post("/numbers")
    def numbers(request, payload: Numbers):
        return {"count": len(payload.numbers)}

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


def assert_one_shape(response, status: int, code: str | None = None) -> dict:
    """The status, the API's content type, and exactly the error document's keys."""
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == CONTENT_TYPE
    assert len(response.content) <= RESPONSE_MAX_BYTES
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert {"code", "message"} <= set(error) <= {"code", "message", "rule", "details"}
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    if code is not None:
        assert error["code"] == code
    return error


@pytest.fixture(autouse=True)
def no_throttles(settings):
    """Throttles are tested on their own (tests/production/test_throttles.py), and below."""
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    cache.clear()


@pytest.fixture
def bearer(db) -> Client:
    _, token = player_with_token("Tester")
    return Client(headers={"Authorization": f"Bearer {token}"})


def post_raw(client: Client, path: str, raw, method: str = "post"):
    data = raw if isinstance(raw, bytes | str) else json.dumps(raw)
    return getattr(client, method)(API + path, data=data, content_type="application/json")


# --- The handlers, on an API of their own -----------------------------------------------------


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


def test_a_body_that_is_json_but_not_an_object_is_422(api_client):
    response = api_client.post("/move", data=b"[]", content_type="application/json")

    assert response.status_code == 422
    assert response.json() == {"error": {"code": "invalid_request",
                                          "message": "The request body must be a JSON object."}}


def test_a_validation_error_lists_a_few_problems_briefly_whatever_was_sent(api_client):
    response = api_client.post("/numbers", json={"numbers": ["x" * 1000] * 10_000})

    assert response.status_code == 422
    assert len(response.content) <= RESPONSE_MAX_BYTES
    assert len(response.json()["error"]["details"]) == 10
    assert "xxxxxxxxxx" not in response.content.decode()


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


# --- Whatever raises it, the one shape -----------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_path_is_a_json_not_found_with_or_without_debug(client, settings, debug):
    settings.DEBUG = debug

    assert_one_shape(client.get(f"{API}/no-such-thing"), 404, "not_found")
    assert_one_shape(client.get("/api/v2/games"), 404, "not_found")


def test_a_method_the_path_does_not_have_is_405_with_allow(client):
    response = client.get(f"{API}/players")

    error = assert_one_shape(response, 405, "method_not_allowed")
    assert response["Allow"] == "POST"
    assert "POST" in error["message"]


def test_a_body_over_djangos_limit_is_413_in_the_error_shape(bearer, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = post_raw(bearer, "/games", {"mode": "practice", "pad": "x" * 5000})

    assert_one_shape(response, 413, "body_too_large")
    assert not Game.objects.exists()


def test_a_body_over_the_servers_limit_is_413_in_the_error_shape(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    app = ThreadedDjango(threads=1)

    async def run():
        communicator = HttpCommunicator(app, "POST", "/api/v1/players", body=b"x" * 3_000_000,
                                        headers=[(b"host", b"testserver")])
        return await communicator.get_response(timeout=10)

    response = async_to_sync(run)()
    assert response["status"] == 413
    assert dict(response["headers"])[b"content-type"] == CONTENT_TYPE.encode()
    assert json.loads(response["body"])["error"]["code"] == "body_too_large"


def test_a_503_is_serialised_as_every_other_error(bearer, database_down):
    with database_down(OperationalError("gone")):
        response = bearer.get(f"{API}/games/abcdefghijklmnop")

    error = assert_one_shape(response, 503, "unavailable")
    assert int(response["Retry-After"]) >= 1
    assert response.content == dumps({"error": error})  # the API's renderer, byte for byte


def test_a_429_is_in_the_error_shape(settings, db, throttle_clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "identities": "1/h"}
    cache.clear()
    client = Client()
    assert client.post(f"{API}/players").status_code == 201

    response = client.post(f"{API}/players")

    assert_one_shape(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1
    cache.clear()


# --- Bounds: the holes issue 24 found ------------------------------------------------------


@pytest.mark.parametrize("query", ["offset=9223372036854775808",
                                   "offset=100000000000000000000", "offset=-1",
                                   "offset=100001", "limit=0", "limit=101",
                                   "limit=99999999999999999999999", "status=bogus"])
def test_the_games_page_is_bounded_on_both_sides(bearer, query):
    assert_one_shape(bearer.get(f"{API}/games?{query}"), 422, "invalid_request")


def test_the_games_page_within_its_bounds_answers(bearer):
    assert bearer.get(f"{API}/games?offset=100000&limit=100").json()["items"] == []


@pytest.mark.parametrize("path", ["/leaderboards/players/ab%00cd", "/games/ab%00cd",
                                  "/games/ab%00cd/hint", "/leaderboards/week/2026-W4%00",
                                  "/leaderboards/daily?after=ab%00cd",
                                  "/games?status=active%00", "/daily/2026-12-0%00"])
def test_a_nul_character_in_a_path_or_query_is_422(bearer, path):
    assert_one_shape(bearer.get(API + path), 422)


@pytest.mark.parametrize("bad", ["ab\x00cd", "ab\ud800cd"])
def test_text_the_database_cannot_hold_is_422_in_every_body(db, bad):
    browser = Client()
    for path, body in [("/account/login", {"username": bad, "password": "long enough pw"}),
                       ("/account/login", {"username": "lucia", "password": bad}),
                       ("/account/register", {"username": bad, "password": "long enough pw"}),
                       ("/transfer-codes/redeem", {"code": f"ABCD-EFGH-{bad}"})]:
        raw = json.dumps(body)  # a lone surrogate is sent as its \\ud800 escape
        assert_one_shape(post_raw(browser, path, raw), 422)
    assert_one_shape(post_raw(browser, "/me", json.dumps({"name": f"Bob{bad}"}), "patch"), 422)
    assert not Player.objects.exists()


def test_a_card_id_the_engine_refuses_is_quoted_short(bearer):
    game = bearer.post(f"{API}/games", {"level": "easy"}, content_type="application/json").json()
    before = Game.objects.get().version
    for card in ["Z" * 1_000_000, "7H\x00.1", "\ud800" * 100]:
        response = post_raw(bearer, f"/games/{game['id']}/actions",
                            json.dumps({"version": game["version"],
                                        "action": {"type": "discard", "card": card}}))
        error = assert_one_shape(response, 422)
        assert len(error["message"]) < 100
    assert Game.objects.get().version == before


def test_a_long_key_in_an_action_is_not_echoed(bearer):
    game = bearer.post(f"{API}/games", {"level": "easy"}, content_type="application/json").json()
    raw = json.dumps({"version": game["version"], "action": {"\ud800" * 100_000: 1}})

    response = post_raw(bearer, f"/games/{game['id']}/actions", raw)

    assert_one_shape(response, 422)


@pytest.mark.parametrize("text", ["x" * 1_000_000, "\u0301" * 100_000])
def test_long_text_in_any_field_gets_a_short_answer(bearer, text):
    for method, path, body in [("patch", "/me", {"name": text}),
                               ("post", "/account/login", {"username": text, "password": text}),
                               ("post", "/account/register", {"username": "lucia",
                                                              "password": text}),
                               ("post", "/transfer-codes/redeem", {"code": text}),
                               ("post", "/games", {"mode": text, "level": text})]:
        assert_one_shape(post_raw(bearer, path, body, method), 422)
    for path in [f"/games/{text[:5000]}", f"/leaderboards/players/{text[:5000]}",
                 f"/leaderboards/week/{text[:5000]}", f"/leaderboards/daily?after={text[:5000]}"]:
        assert_one_shape(bearer.get(API + path), 422)


@pytest.mark.parametrize("raw", NOT_OBJECTS)
def test_a_body_that_is_not_a_json_object_is_refused_everywhere(bearer, raw):
    game = bearer.post(f"{API}/games", {"level": "easy"}, content_type="application/json").json()
    for method, path in [("post", "/games"), ("post", f"/games/{game['id']}/actions"),
                         ("patch", "/me"), ("post", "/account/register"),
                         ("post", "/account/login"), ("post", "/transfer-codes/redeem")]:
        assert_one_shape(post_raw(bearer, path, raw, method), 422, "invalid_request")
    assert Game.objects.count() == 1


@pytest.mark.parametrize("version", ['"{v}"', "{v}.5", "true", "false", "null", "[{v}]",
                                     "2147483648", "-1"])
def test_a_version_is_a_strict_integer_in_range(bearer, version):
    game = bearer.post(f"{API}/games", {"level": "easy"}, content_type="application/json").json()
    before = Game.objects.get().version
    sent = version.format(v=game["version"])
    raw = '{"version": ' + sent + ', "action": {"type": "draw", "from": "stock"}}'

    response = post_raw(bearer, f"/games/{game['id']}/actions", raw)

    assert_one_shape(response, 422, "invalid_request")
    assert Game.objects.get().version == before


def test_a_version_may_be_written_as_json_schema_allows_an_integer(bearer):
    game = bearer.post(f"{API}/games", {"level": "easy"}, content_type="application/json").json()
    raw = '{"version": ' + f'{game["version"]}.0' + ', "action": {"type": "draw", "from": "stock"}}'

    assert post_raw(bearer, f"/games/{game['id']}/actions", raw).status_code == 200


@pytest.mark.parametrize("day", ["0", "1700000000", "20261203", "2026-W48-1", "2026-13-01"])
def test_a_day_is_written_yyyy_mm_dd(client, db, day):
    assert_one_shape(client.get(f"{API}/daily/{day}"), 422)
    assert_one_shape(client.get(f"{API}/leaderboards/daily/{day}"), 422)


@pytest.mark.parametrize("week", ["2027-W53", "0000-W01"])
def test_a_week_that_the_calendar_does_not_have_is_404(client, db, week):
    assert_one_shape(client.get(f"{API}/leaderboards/week/{week}"), 404, "not_found")


# --- The OpenAPI document states the bounds ------------------------------------------------


@pytest.fixture(scope="module")
def document() -> dict:
    return api.get_openapi_schema()


def parameter(document: dict, path: str, name: str, method: str = "get") -> dict:
    params = document["paths"][f"/api/v1{path}"][method]["parameters"]
    return next(p for p in params if p["name"] == name)["schema"]


def component(document: dict, name: str) -> dict:
    return document["components"]["schemas"][name]["properties"]


def test_the_document_states_the_bounds_of_names_usernames_and_codes(document):
    name = component(document, "MeUpdate")["name"]
    assert (name["minLength"], name["maxLength"]) == (2, 24)
    username = component(document, "Credentials")["username"]
    assert (username["minLength"], username["maxLength"]) == (3, 30)
    assert component(document, "Credentials")["password"]["maxLength"] == 128
    assert component(document, "TransferCodeIn")["code"]["maxLength"] == 20
    for field in (name, username, component(document, "Credentials")["password"]):
        assert "pattern" in field


def test_the_document_states_the_bounds_of_paths_and_queries(document):
    assert parameter(document, "/leaderboards/week/{week}", "week")["pattern"].startswith(
        "^[0-9]{4}-W")
    assert parameter(document, "/daily/{day}", "day")["format"] == "date"
    assert parameter(document, "/games/{game_id}", "game_id")["maxLength"] == 32
    assert parameter(document, "/leaderboards/players/{player_id}", "player_id")["pattern"]
    offset = parameter(document, "/games", "offset")
    assert (offset["minimum"], offset["maximum"]) == (0, 100_000)
    limit = parameter(document, "/leaderboards/daily", "limit")
    assert (limit["minimum"], limit["maximum"]) == (1, 100)
    assert parameter(document, "/leaderboards/daily", "after")["anyOf"][0]["maxLength"] == 256


def test_the_document_states_an_actions_card_ids_and_a_strict_version(document):
    request = component(document, "ActionRequest")
    assert request["version"]["type"] == "integer" and request["version"]["minimum"] == 0
    assert request["action"] == {"$ref": "#/components/schemas/Action"}
    discard = component(document, "Discard")
    assert discard["card"]["maxLength"] == 5  # a ten: "10S.2"
    assert discard["card"]["pattern"].startswith("^")


@pytest.mark.parametrize("path", ["/daily", "/daily/{day}", "/leaderboards/daily",
                                  "/leaderboards/daily/{day}", "/leaderboards/week",
                                  "/leaderboards/week/{week}"])
def test_the_public_reads_are_declared_as_not_needing_an_identity(document, path):
    security = document["paths"][f"/api/v1{path}"]["get"]["security"]
    assert {} in security
    assert {"BearerToken": []} in security


def test_reads_of_ones_own_still_need_an_identity(document):
    for path in ("/me", "/games", "/leaderboards/me"):
        assert {} not in document["paths"][f"/api/v1{path}"]["get"]["security"]
