"""Playing the daily over HTTP: POST /games {"mode": "daily"}, GET /daily, GET /daily/{date}.
Everyone gets the same deals; one attempt a day; the seed stays secret until the day ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import daily
from games.models import Game
from games.services.daily import deal_for, start_daily
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player
from tests.leaderboards.play import next_action

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def start(client) -> tuple[int, dict]:
    response = client.post("/games", {"mode": "daily"})
    return response.status_code, response.json()


def test_starting_the_daily_makes_a_game_on_the_days_deal_at_the_daily_level():
    _, token = player()
    status, game = start(api(token))
    assert status == 201
    assert (game["mode"], game["level"], game["daily"], game["status"]) == (
        "daily", daily.DAILY_LEVEL, str(DAY), "active")
    stored = Game.objects.get(public_id=game["id"])
    assert stored.seed == deal_for(DAY).seed


def test_the_level_asked_for_does_not_change_the_daily():
    _, token = player()
    response = api(token).post("/games", {"mode": "daily", "level": "hard"})
    assert response.status_code == 201 and response.json()["level"] == daily.DAILY_LEVEL


def test_asking_again_returns_the_same_game():
    _, token = player()
    client = api(token)
    _, first = start(client)
    client.post(f"/games/{first['id']}/actions", {"version": first["version"],
                                                  "action": {"type": "draw", "from": "stock"}})
    status, again = start(client)
    assert status == 200 and again["id"] == first["id"]
    assert again["version"] == first["version"] + 1
    assert Game.objects.filter(mode=Game.DAILY).count() == 1


def test_the_database_allows_one_daily_per_player_and_day():
    from django.db import IntegrityError, transaction

    someone, _ = player()
    existing = start_daily(someone).game
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(owner=someone, mode=Game.DAILY, daily=existing.daily,
                            seed=existing.seed, engine_version=1, state={})


def test_every_player_of_the_day_gets_the_same_deals():
    first = start(api(player()[1]))[1]
    second = start(api(player()[1]))[1]
    assert first["hand"] == second["hand"]
    assert first["discard_top"] == second["discard_top"]
    assert (first["dealer"], first["turn"], first["version"]) == (
        second["dealer"], second["turn"], second["version"])
    assert first["id"] != second["id"]


def test_another_day_deals_other_cards(clock):
    _, token = player()
    today = start(api(token))[1]
    clock.advance(days=1)
    tomorrow = start(api(token))[1]
    assert tomorrow["daily"] == str(DAY + timedelta(days=1))
    assert tomorrow["id"] != today["id"]
    assert tomorrow["hand"] != today["hand"]


def test_practice_games_are_untouched_by_the_daily():
    client = api(player()[1])
    for _ in range(2):
        response = client.post("/games", {"mode": "practice", "level": "easy"})
        assert response.status_code == 201 and response.json()["daily"] is None


def test_get_daily_tells_my_attempt_as_it_goes():
    someone, token = player()
    client = api(token)
    body = client.get("/daily").json()
    assert body["attempt"] == {"state": "none", "game": None, "result": None}
    assert (body["date"], body["level"], body["seed"], body["revealed"]) == (
        str(DAY), "normal", None, False)
    assert body["ends_at"] == "2030-03-07T00:00:00Z"
    assert body["seconds_left"] == 12 * 3600
    game = start(client)[1]
    assert client.get("/daily").json()["attempt"] == {
        "state": "active", "game": game["id"], "result": None}


def test_get_daily_reports_a_finished_attempts_result():
    someone, token = player()
    finished_daily(someone, DAY, 7, 85, place=2)
    assert api(token).get("/daily").json()["attempt"]["result"] == {
        "contracts": 7, "penalty": 85, "place": 2}


def test_anyone_may_read_the_daily_without_an_identity():
    body = api().get("/daily").json()
    assert body["attempt"]["state"] == "none" and len(body["commitment"]) == 64


def test_a_past_day_reveals_its_seed_and_my_attempt(clock):
    someone, token = player()
    start(api(token))
    clock.advance(days=2)
    body = api(token).get(f"/daily/{DAY}").json()
    assert body["seed"] == deal_for(DAY).seed
    assert body["revealed"] and body["seconds_left"] == 0
    assert body["attempt"]["state"] == "active"  # not closed yet: beat's job


def test_a_future_day_and_a_day_without_a_daily_are_not_found():
    assert api().get(f"/daily/{DAY + timedelta(days=1)}").status_code == 404
    assert api().get(f"/daily/{DAY - timedelta(days=1)}").status_code == 404
    assert api().get("/daily/not-a-date").status_code == 422


def test_today_by_date_is_today():
    assert api().get(f"/daily/{DAY}").json()["seed"] is None


def test_the_seed_is_in_no_response_before_the_day_ends(clock):
    someone, token = player()
    client = api(token)
    game = start(client)[1]
    stored = Game.objects.get(public_id=game["id"])
    for _ in range(6):  # a few turns, bots included
        body = client.post(f"/games/{game['id']}/actions",
                           {"version": stored.version, "action": next_action(stored)})
        assert body.status_code == 200
        stored.refresh_from_db()
    for path in ("/daily", f"/daily/{DAY}", f"/games/{game['id']}", "/games",
                 f"/games/{game['id']}/replay", "/leaderboards/daily", "/leaderboards/me",
                 "/openapi.json"):
        client.get(path)
    seed = deal_for(DAY).seed
    assert len(client.bodies) > 10
    for body in client.bodies:
        assert seed.encode() not in body
    clock.advance(days=1)
    assert seed.encode() in client.get(f"/daily/{DAY}").content


def test_a_daily_cannot_be_played_once_its_day_has_ended(clock):
    someone, token = player()
    client = api(token)
    game = start(client)[1]
    clock.advance(days=1)
    response = client.post(f"/games/{game['id']}/actions",
                           {"version": game["version"],
                            "action": {"type": "draw", "from": "stock"}})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "daily_over"
    assert response.json()["error"]["rule"] == "R26"
    assert Game.objects.get(public_id=game["id"]).version == game["version"]


def test_a_finished_dailys_replay_opens_when_the_day_ends(clock):
    someone, token = player()
    game = finished_daily(someone, DAY, 7, 85)
    client = api(token)
    refused = client.get(f"/games/{game.public_id}/replay")
    assert refused.status_code == 403
    clock.advance(days=1)
    assert client.get(f"/games/{game.public_id}/replay").json()["seed"] == game.seed

