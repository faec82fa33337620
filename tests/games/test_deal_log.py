"""GET /games/{id}/events: the current deal's public events and the game as the person last
saw it, so a page opened later can play the computer players' moves since then (R25)."""

import pytest

from tests.games.helpers import error_of
from tests.games.scripted import costliest

pytestmark = pytest.mark.django_db


def one_turn(alice, game: dict) -> tuple[dict, list[dict]]:
    game = alice.act(game, {"type": "draw", "from": "stock"}).json()["game"]
    response = alice.act(game, {"type": "discard", "card": costliest(game["legal"]["discard"])})
    assert response.status_code == 200, response.content
    body = response.json()
    return body["game"], body["events"]


def test_a_new_game_log_starts_with_the_deal_and_nothing_seen_yet(alice):
    game = alice.new_game()

    log = alice.get(f"/games/{game['id']}/events").json()

    assert log["version"] == game["version"]
    assert log["seen"] == 0
    assert log["events"][0]["t"] == "deal_started"
    assert log["events"][0]["data"]["hand"] == game["hand"]  # the person's own hand only
    assert log["before"]["version"] == 0
    assert log["before"]["hand"] == game["hand"]
    assert {e["v"] for e in log["events"][1:]} <= set(range(1, game["version"] + 1))


def test_the_moves_since_your_last_action_are_the_ones_your_action_was_answered_with(alice):
    game, answered = one_turn(alice, alice.new_game())

    log = alice.get(f"/games/{game['id']}/events").json()

    assert log["version"] == game["version"]
    mine = [e for e in answered if e["data"].get("seat") == 0]
    assert log["seen"] == mine[-1]["v"]
    since = [e for e in log["events"] if e["v"] > log["seen"]]
    assert since == [e for e in answered if e["v"] > log["seen"]]
    assert since, "the computer players moved after the person's discard"
    assert log["before"]["version"] == log["seen"]
    assert log["before"]["turn"] == 1 and log["before"]["phase"] == "draw"
    assert log["before"]["hand"] == game["hand"]


def test_the_log_never_shows_a_card_drawn_from_the_stock_by_a_computer_player(alice):
    game = alice.new_game()
    for _ in range(3):
        game, _events = one_turn(alice, game)

    log = alice.get(f"/games/{game['id']}/events").json()

    bot_draws = [e for e in log["events"] if e["t"] == "drew" and e["data"]["seat"] != 0]
    assert bot_draws
    for event in bot_draws:
        assert ("card" in event["data"]) == (event["data"]["from"] == "discard")
    for event in log["events"]:
        if event["t"] == "deal_started":
            assert set(event["data"]) >= {"hand"} and "hands" not in event["data"]


def test_another_persons_game_log_is_not_found(alice, bob):
    game = alice.new_game()

    response = bob.get(f"/games/{game['id']}/events")

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"
