"""Shapes a client can rely on (docs/api.md): a validation error's location is where the
client put the field, a table's 404 names a table, and the card id pattern and the server
agree on what is a card."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.games.helpers import error_of

NOT_CARDS = ("10S.3", "1S.1", "7h.1", "JK.4", "ZZ", "11H.1", "7H.1 ")


def test_a_validation_error_says_where_the_client_put_the_field(alice):
    response = alice.post("/games", {"level": "impossible"})
    error = error_of(response)
    assert response.status_code == 422 and error["code"] == "invalid_request"
    assert error["details"][0]["loc"] == ["body", "level"]
    assert error["message"].startswith("body.level: ")


@pytest.mark.parametrize("path", ["/tables/NoSuchTable", "/tables/NoSuchTable/start",
                                  "/tables/NoSuchTable/leave"])
def test_a_tables_404_says_no_such_table(alice, path):
    response = alice.get(path) if path.count("/") == 2 else alice.post(path)
    assert response.status_code == 404
    assert error_of(response) == {"code": "not_found", "message": "No such table."}


def test_the_pattern_and_the_server_agree_on_what_is_a_card(alice):
    pattern = Client().get("/api/v1/openapi.json").json()["components"]["schemas"][
        "Discard"]["properties"]["card"]["pattern"]
    game = alice.new_game()
    assert re.fullmatch(pattern, game["hand"][0]["id"])
    for text in NOT_CARDS:
        assert not re.fullmatch(pattern.strip("^$"), text), text
        for action in ({"type": "discard", "card": text},
                       {"type": "lay_off", "meld": 0, "card": text},
                       {"type": "lay_down", "melds": [[text, "7H.1", "7S.1"]]}):
            response = alice.act(game, action)
            assert response.status_code == 422, (text, response.content)
            assert error_of(response)["code"] == "unknown_card", (text, action)
