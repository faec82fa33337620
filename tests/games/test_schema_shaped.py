"""The action's answer skips django-ninja's validation (games.api.schema_shaped): every body it
sends must be exactly what the schema would have dumped, over a whole game's phases."""

from __future__ import annotations

import json

from ninja.responses import NinjaJSONEncoder

from games.schemas import ActionResult
from tests.games.scripted import play_to_the_end


def test_every_action_answer_is_what_its_schema_dumps(alice):
    bodies = []
    final = play_to_the_end(alice, alice.new_game("normal"),
                            on_response=lambda r: bodies.append(r.content))
    assert final["status"] == "finished"
    kinds = {event["t"] for body in bodies for event in json.loads(body)["events"]}
    assert {"laid_down", "laid_off", "deal_ended", "game_finished"} <= kinds
    for body in bodies:
        # What django-ninja would send: validate, dump, render with its encoder. Validation
        # drops unknown keys and refuses wrong types: equality means neither happened.
        dumped = ActionResult.model_validate_json(body).model_dump(by_alias=True,
                                                                   exclude_unset=True)
        assert json.loads(body) == json.loads(json.dumps(dumped, cls=NinjaJSONEncoder))


def test_the_answer_is_json_with_a_charset(alice):
    game = alice.new_game("easy")
    response = alice.act(game, {"type": "draw", "from": "stock"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
