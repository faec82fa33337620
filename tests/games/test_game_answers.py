"""The action's answer and a read of the game over a whole game's phases: exactly what their
schemas dump (nothing dropped, no wrong type), and a read is the game the action answered."""

from __future__ import annotations

import json

from ninja.responses import NinjaJSONEncoder
from pydantic import TypeAdapter

from games.schemas import ActionResult, GameView
from tests.games.scripted import play_to_the_end


def as_its_schema_dumps(schema, body: bytes) -> dict:
    """What django-ninja would send: validate, dump, render with its encoder. Validation drops
    unknown keys and refuses wrong types: equality with the body means neither happened. (A
    TypeAdapter: the answers are TypedDicts, models inside.)"""
    adapter = TypeAdapter(schema)
    dumped = adapter.dump_python(adapter.validate_json(body), by_alias=True, exclude_unset=True)
    return json.loads(json.dumps(dumped, cls=NinjaJSONEncoder))


def test_every_action_answer_and_game_read_is_what_its_schema_dumps(alice):
    bodies, reads = [], []

    def keep(response):
        bodies.append(response.content)
        game_id = json.loads(response.content)["game"]["id"]
        read = alice.get(f"/games/{game_id}")
        assert read.status_code == 200, read.content
        reads.append(read.content)

    final = play_to_the_end(alice, alice.new_game("normal"), on_response=keep)
    assert final["status"] == "finished"
    kinds = {event["t"] for body in bodies for event in json.loads(body)["events"]}
    assert {"laid_down", "laid_off", "deal_ended", "game_finished"} <= kinds
    for body in bodies:
        assert json.loads(body) == as_its_schema_dumps(ActionResult, body)
    for body, read in zip(bodies, reads, strict=True):
        assert json.loads(read) == as_its_schema_dumps(GameView, read)
        assert json.loads(read) == json.loads(body)["game"]


def test_the_answer_is_json_with_a_charset(alice):
    game = alice.new_game("easy")
    response = alice.act(game, {"type": "draw", "from": "stock"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
