"""Every limit is published and predictable (docs/api.md, "Rate limits"): each rate-limited
operation states its limits and its 429 (with Retry-After) in the document, every answer it
gives says where its limits stand (the IETF draft's RateLimit-Policy and RateLimit fields),
every operation states its 503, and under the default limits a client playing a whole
practice game as fast as it can never meets a 429."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ladder import settings as defaults
from tests.factories import practice_game
from tests.production.conftest import API, post_json

pytestmark = pytest.mark.django_db

WINDOW_LEFT_S = 59  # the throttles' clock stands 1 s into a minute (tests/conftest.py)
POLICY = re.compile(r'^"(\w+)";q=(\d+);w=(\d+)$')
STATE = re.compile(r'^"(\w+)";r=(\d+);t=(\d+)$')


def rates(settings, **changes):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, **changes}


def fields(response) -> tuple[dict, dict]:
    """The RateLimit-Policy and RateLimit fields, parsed: {policy: (q, w)}, {policy: (r, t)}."""
    policies = [POLICY.match(item.strip()) for item in response["RateLimit-Policy"].split(",")]
    states = [STATE.match(item.strip()) for item in response["RateLimit"].split(",")]
    assert all(policies) and all(states), (response["RateLimit-Policy"], response["RateLimit"])
    return ({m[1]: (int(m[2]), int(m[3])) for m in policies},
            {m[1]: (int(m[2]), int(m[3])) for m in states})


def draw(client, game, version):
    return post_json(client, f"/games/{game.public_id}/actions",
                     {"version": version, "action": {"type": "draw", "from": "stock"}})


def test_each_answer_says_where_its_limit_stands_down_to_the_429(settings, player):
    rates(settings, actions="2/m")
    owner, client = player
    game = practice_game(owner)

    first = draw(client, game, game.version)
    second = draw(client, game, game.version)  # stale: refused, but counted
    refused = draw(client, game, game.version)

    assert (first.status_code, second.status_code, refused.status_code) == (200, 409, 429)
    assert fields(first) == ({"actions": (2, 60)}, {"actions": (1, WINDOW_LEFT_S)})
    assert fields(second) == ({"actions": (2, 60)}, {"actions": (0, WINDOW_LEFT_S)})
    assert fields(refused) == ({"actions": (2, 60)}, {"actions": (0, WINDOW_LEFT_S)})
    assert int(refused["Retry-After"]) == WINDOW_LEFT_S


def test_an_operation_under_two_limits_states_both(settings, db):
    client = Client()

    response = client.get(f"{API}/tables/join/AAAA-BBBB-CCCC")

    assert response.status_code == 404
    assert fields(response) == (
        {"table_codes": (30, 600), "table_codes_day": (100, 86400)},
        {"table_codes": (29, 600 - 1), "table_codes_day": (99, 86400 - 1)})


def test_an_answer_no_limit_counted_has_no_fields(player):
    owner, client = player
    game = practice_game(owner)

    response = client.get(f"{API}/games/{game.public_id}")

    assert response.status_code == 200
    assert "RateLimit" not in response and "RateLimit-Policy" not in response


def test_a_failed_login_counts_and_a_success_gives_its_count_back(settings, db):
    client = Client()
    client.post(f"{API}/account/register", {"username": "ana", "password": "a long pass 1"},
                content_type="application/json")
    client = Client()

    failed = post_json(client, "/account/login", {"username": "ana", "password": "wrong"})
    passed = post_json(client, "/account/login", {"username": "ana",
                                                  "password": "a long pass 1"})

    assert (failed.status_code, passed.status_code) == (401, 200)
    assert fields(failed)[1] == {"login": (9, 899), "login_address": (29, 899)}
    assert fields(passed)[1] == {"login": (9, 899), "login_address": (29, 899)}


@pytest.fixture
def document() -> dict:
    return Client().get(f"{API}/openapi.json").json()


def operations(document):
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path.removeprefix(API)}", operation


LIMITED = {
    "POST /players": {"identities"},
    "PATCH /me": {"identities"},
    "POST /games": {"identities", "games"},
    "POST /games/{game_id}/actions": {"actions"},
    "POST /games/{game_id}/back": {"actions"},
    "POST /games/{game_id}/ready": {"actions"},
    "GET /games/{game_id}/hint": {"hints"},
    "POST /account/login": {"login", "login_address"},
    "POST /transfer-codes/redeem": {"transfer"},
    "POST /leagues": {"identities", "leagues"},
    "GET /leagues/join/{code}": {"league_codes", "league_codes_day"},
    "POST /leagues/join/{code}": {"identities", "league_codes", "league_codes_day"},
    "POST /tables": {"identities", "tables"},
    "GET /tables/join/{code}": {"table_codes", "table_codes_day"},
    "POST /tables/join/{code}": {"identities", "table_codes", "table_codes_day"},
    "POST /tables/{table_id}/reactions": {"reactions"},
    "POST /socket-tickets": {"socket_tickets"},
}


def test_the_document_states_each_limit_its_429_and_its_fields(document):
    limited = {}
    for name, operation in operations(document):
        responses = operation["responses"]
        assert "503" in responses, name  # any answer can be 503 while the database is away
        assert responses["503"]["headers"]["Retry-After"], name
        if "x-rate-limits" not in operation:
            assert "429" not in responses, name
            continue
        limits = operation["x-rate-limits"]
        limited[name] = {limit["policy"] for limit in limits}
        for limit in limits:
            quota, window = defaults.THROTTLE_RATES[limit["policy"]].split("/")
            assert limit["quota"] == int(quota) and limit["window"] > 0, (name, limit)
            assert limit["setting"] == f"THROTTLE_{limit['policy'].upper()}"
            assert f"at most {limit['quota']} in" in responses["429"]["description"], name
        throttled = responses["429"]
        assert throttled["headers"]["Retry-After"] == {
            "$ref": "#/components/headers/Retry-After"}
        for status, answer in responses.items():
            assert {"RateLimit-Policy", "RateLimit"} <= set(answer["headers"]), (name, status)
    assert limited == LIMITED
    assert document["components"]["headers"]["Retry-After"]["required"] is True


def test_a_whole_practice_game_at_full_pace_meets_no_429_under_the_default_limits(
        settings, player):
    """As fast as the server answers, every action in one window (the throttles' clock
    stands still): the published pace is a ceiling a whole game stays under."""
    settings.THROTTLE_RATES = dict(defaults.THROTTLE_RATES)
    owner, client = player
    started = post_json(client, "/games", {"mode": "practice", "level": "easy"})
    assert started.status_code == 201
    view, sent = started.json(), 0
    quota, window = fields(started)[0]["games"]
    assert (quota, window) == (30, 3600)
    while view["status"] == "active":
        legal = view["legal"]
        if view["phase"] == "draw":
            action = {"type": "draw", "from": "stock"}
        elif legal["lay_downs"]:
            action = legal["lay_downs"][0]
        elif legal["lay_off"]:
            option = legal["lay_off"][0]
            action = {"type": "lay_off", "meld": option["meld"], "card": option["card"],
                      "end": option["end"]}
        else:
            action = {"type": "discard", "card": legal["discard"][0]}
        answer = post_json(client, f"/games/{view['id']}/actions",
                           {"version": view["version"], "action": action})
        assert answer.status_code == 200, answer.content[:300]
        sent += 1
        policies, state = fields(answer)
        assert policies == {"actions": (600, 60)}
        assert state == {"actions": (600 - sent, WINDOW_LEFT_S)}
        view = answer.json()["game"]
    assert view["status"] == "finished"
    assert 150 <= sent <= 600
