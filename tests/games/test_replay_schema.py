"""A replay's events hold to the published document: the replay is written without
django-ninja's validation (games.web.renderer.json_answer), so each event of real replays (a
practice game played to its end, and a table's game played to its end after a person left
it, so that ``bot`` appears) is validated here against the ``OpenEvent`` schema of
/api/v1/openapi.json, and against the one its ``t`` names (OpenDrewEvent...), private parts
and all."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client
from jsonschema import Draft202012Validator

from tests.games.scripted import play_to_the_end
from tests.games.test_tables import join, open_table, start

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

EVENT_TYPES = {"deal_started", "drew", "laid_down", "laid_off", "discarded", "stock_rebuilt",
               "deal_ended", "game_finished"}


def finished_practice_game(api) -> str:
    """A practice game ``api``'s player played to its end: its id."""
    created = api.post("/games", {"mode": "practice", "level": "easy"})
    assert created.status_code == 201, created.content
    return play_to_the_end(api, created.json())["id"]


def finished_table_game_a_guest_left(host, guest) -> str:
    """The host's table (easy bots) with the guest at seat 1, who left its game at once; the
    host played it to its end, the computer playing the guest's seat: its id."""
    table = open_table(host, level="easy", turn_seconds=None)
    join(guest, table)
    game = start(host, table)["game"]
    assert guest.post(f"/tables/{table['id']}/leave").status_code == 204
    return play_to_the_end(host, host.get(f"/games/{game['id']}").json())["id"]


def validator(document: dict, name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": document["components"]},
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def schema_name(event_type: str) -> str:
    return "Open" + "".join(word.title() for word in event_type.split("_")) + "Event"


def test_every_event_of_real_replays_holds_to_its_published_schema(alice, bob):
    document = Client().get("/api/v1/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert set(schemas["OpenEvent"]["discriminator"]["mapping"]) == EVENT_TYPES
    replay, any_event = validator(document, "Replay"), validator(document, "OpenEvent")
    by_type = {t: validator(document, schema_name(t)) for t in EVENT_TYPES}
    bodies = [alice.get(f"/replays/{finished_practice_game(alice)}").json(),
              bob.get(f"/games/{finished_table_game_a_guest_left(alice, bob)}/replay").json()]

    seen = Counter()
    for body in bodies:
        replay.validate(body)
        for event in body["events"]:
            any_event.validate(event)
            by_type[event["t"]].validate(event)
            seen[event["t"]] += 1
            seen["bot"] += event.get("bot", False)
            seen["private"] += len(event.get("private", []))
            seen["stock draw"] += "private" in event and event["t"] == "drew"
    assert [p["left"] is not None for p in bodies[1]["players"]] == [False, True, False, False]
    # Every kind of event of a game played to its end, the computer's moves for the guest
    # who left, every hand dealt and stock draws among them.
    assert set(seen) >= EVENT_TYPES - {"stock_rebuilt"} | {"bot", "private", "stock draw"}
    assert seen["private"] == 4 * seen["deal_started"] + seen["stock draw"]


def test_the_schema_refuses_what_a_replay_event_must_not_hold():
    """The check above can fail: an open ``t``, a key no schema names, a private part out of
    place or of the wrong shape are refused."""
    document = Client().get("/api/v1/openapi.json").json()
    any_event = validator(document, "OpenEvent")
    card = {"id": "7H.1", "rank": "7", "suit": "H"}
    drew = {"v": 3, "t": "drew", "data": {"seat": 0, "from": "stock", "hand_size": 12},
            "private": [{"seat": 0, "data": {"card": card}}]}
    any_event.validate(drew)
    wrong = [
        {**drew, "t": "drawn"},
        {**drew, "data": {**drew["data"], "extra": 1}},
        {**drew, "private": [{"seat": 0, "data": {"hand": [card]}}]},
        {**drew, "private": None},
        {"v": 4, "t": "discarded", "data": {"seat": 0, "card": card, "hand_size": 11},
         "private": [{"seat": 0, "data": {"card": card}}]},
        {"v": 9, "t": "deal_ended", "bot": True, "data": {
            "deal": 1, "dealer": 0, "ending": "went_out", "went_out": 1, "penalties": [0] * 4,
            "climbed": [True] * 4, "totals": [0] * 4, "contracts": [1] * 4}},
    ]
    assert [any_event.is_valid(event) for event in wrong] == [False] * len(wrong)
