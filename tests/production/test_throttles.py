"""Creating identities, starting games, acting and asking for hints are rate-limited: 429 with
Retry-After, the rates from settings.THROTTLE_RATES (env THROTTLE_*), "off" turning a limit
off."""

from __future__ import annotations

import pytest
from django.test import Client

from games.web.throttles import hit, parse_rate
from ladder import settings as settings_module
from tests.factories import practice_game
from tests.production.conftest import API, post_json

pytestmark = pytest.mark.django_db


def rates(settings, **changes):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, **changes}


def test_a_rate_reads_as_count_per_period():
    assert parse_rate("30/m") == (30, 60)
    assert parse_rate("600/h") == (600, 3600)
    assert parse_rate("5/10m") == (5, 600)
    assert parse_rate("2/s") == (2, 1)
    assert parse_rate("off") is None
    assert parse_rate(None) is None
    with pytest.raises(ValueError):
        parse_rate("lots")


def test_creating_players_past_the_limit_is_429_with_retry_after(settings):
    rates(settings, identities="2/h")
    client = Client()

    statuses = [client.post(f"{API}/players").status_code for _ in range(3)]
    refused = client.post(f"{API}/players")

    assert statuses == [201, 201, 429]
    assert refused.json()["error"]["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 3600


def test_the_limit_on_identities_counts_per_address(settings):
    rates(settings, identities="1/h")

    first = Client(REMOTE_ADDR="10.0.0.1").post(f"{API}/players")
    second = Client(REMOTE_ADDR="10.0.0.2").post(f"{API}/players")

    assert (first.status_code, second.status_code) == (201, 201)


def test_a_new_browser_starting_a_game_counts_as_a_new_identity(settings):
    rates(settings, identities="1/h")
    Client().post(f"{API}/players")
    browser = Client()

    response = post_json(browser, "/games", {"mode": "practice", "level": "easy"})

    assert response.status_code == 429
    assert "Retry-After" in response


def test_a_known_player_starting_a_game_is_not_a_new_identity(settings, player):
    rates(settings, identities="1/h")
    _, client = player
    Client().post(f"{API}/players")

    response = post_json(client, "/games", {"mode": "practice", "level": "easy"})

    assert response.status_code == 201


def test_starting_games_past_the_limit_is_429(settings, player):
    rates(settings, games="2/h")
    _, client = player

    statuses = [post_json(client, "/games", {"mode": "practice", "level": "easy"}).status_code
                for _ in range(3)]

    assert statuses == [201, 201, 429]


def test_acting_past_the_limit_is_429_and_changes_nothing(settings, player):
    rates(settings, actions="1/m")
    owner, client = player
    game = practice_game(owner)
    draw = {"version": game.version, "action": {"type": "draw", "from": "stock"}}

    first = post_json(client, f"/games/{game.public_id}/actions", draw)
    version = first.json()["game"]["version"]
    discard = {"version": version, "action": {
        "type": "discard", "card": first.json()["game"]["hand"][0]["id"]}}
    refused = post_json(client, f"/games/{game.public_id}/actions", discard)

    assert first.status_code == 200
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    game.refresh_from_db()
    assert game.version == version


def test_the_limit_on_actions_counts_per_player(settings, db):
    from tests.factories import player_with_token
    from tests.production.conftest import bearer_client

    rates(settings, actions="1/m")
    statuses = []
    for name in ("One", "Two"):
        owner, token = player_with_token(name)
        game = practice_game(owner)
        statuses.append(post_json(bearer_client(token), f"/games/{game.public_id}/actions", {
            "version": game.version, "action": {"type": "draw", "from": "stock"}}).status_code)

    assert statuses == [200, 200]


def test_asking_for_hints_past_the_limit_is_429(settings, player):
    """A hint runs the expert's decision (up to ~100 ms): it has a limit of its own, apart
    from the actions'."""
    rates(settings, hints="2/m", actions="1/m")
    owner, client = player
    game = practice_game(owner)

    statuses = [client.get(f"{API}/games/{game.public_id}/hint").status_code for _ in range(3)]
    acted = post_json(client, f"/games/{game.public_id}/actions", {
        "version": game.version, "action": {"type": "draw", "from": "stock"}})

    assert statuses == [200, 200, 429]
    assert acted.status_code == 200


def test_off_turns_a_limit_off(settings):
    rates(settings, identities="off")
    client = Client()

    assert {client.post(f"{API}/players").status_code for _ in range(5)} == {201}


def test_a_cache_outage_lets_requests_through(settings, cache_down):
    rates(settings, identities="1/h")

    assert hit("identities", "a127.0.0.1") is None
    assert hit("identities", "a127.0.0.1") is None


def test_the_window_tells_how_long_to_wait(settings):
    rates(settings, identities="1/m")

    assert hit("identities", "x", now=120.0) is None
    assert hit("identities", "x", now=150.0) == pytest.approx(30.0)
    assert hit("identities", "x", now=180.0) is None  # a new window


@pytest.mark.skipif(not settings_module.REDIS_URL, reason="needs REDIS_URL")
def test_on_redis_the_counter_expires_with_its_window(settings):
    import redis
    from django.core.cache import caches

    rates(settings, identities="5/m")
    hit("identities", "ttl-check", now=600.0)

    key = caches["default"].make_and_validate_key("throttle:identities:ttl-check:10")
    client = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])  # this worker's
    assert int(client.get(key)) == 1
    assert 0 < client.ttl(key) <= 61
