"""The sockets' AsyncAPI document (/api/v1/asyncapi.json, ladder/asyncapi.py): valid by the
AsyncAPI initiative's own parser, its schemas the OpenAPI document's by the same names, and
every frame the sockets send while two people play a whole game at a table (its turn timer
running out twice, a seat away and back) valid against the schema of its ``t``."""

from __future__ import annotations

import asyncio
import json
import subprocess

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from jsonschema import Draft202012Validator

from games.services import time_out
from ladder.asyncapi import CHANNELS
from tests.frames import frame_checker
from tests.games.conftest import new_bearer_api
from tests.games.scripted import next_action
from tests.games.test_tables import join, open_table, start
from tests.games.test_turn_timers import run_out
from tests.npm import npm_folder
from tests.sockets import bearer_socket

PARSER = "@asyncapi/parser@3.6.6"  # the AsyncAPI initiative's parser, from the npm registry
CHECK = """
const { Parser } = require("@asyncapi/parser");
const text = require("fs").readFileSync(0, "utf8");
new Parser().parse(text).then(({ document, diagnostics }) => {
  console.log(JSON.stringify({ parsed: document !== undefined, diagnostics: diagnostics.map(
    (d) => ({ severity: d.severity, code: d.code, message: d.message, path: d.path })) }));
});
"""


@pytest.fixture(scope="module")
def documents() -> tuple[dict, dict]:
    client = Client()
    asyncapi, openapi = client.get("/api/v1/asyncapi.json"), client.get("/api/v1/openapi.json")
    assert asyncapi.status_code == 200 and openapi.status_code == 200
    return asyncapi.json(), openapi.json()


def test_the_document_is_valid_asyncapi_3_by_the_standard_parser(documents):
    asyncapi, _ = documents
    assert asyncapi["asyncapi"] == "3.0.0"
    folder = npm_folder(PARSER)
    run = subprocess.run(["node", "-e", CHECK], input=json.dumps(asyncapi), cwd=folder,
                         capture_output=True, text=True, timeout=120, check=True)
    said = json.loads(run.stdout)
    # Severity 0 is an error, 1 a warning: neither (hints and information may stay).
    assert said["parsed"] and [d for d in said["diagnostics"] if d["severity"] <= 1] == [], said


def test_each_socket_and_each_frame_is_described(documents):
    asyncapi, _ = documents
    addresses = {c["address"] for c in asyncapi["channels"].values()}
    assert addresses == {"/ws/games/{game_id}/", "/ws/tables/{table_id}/",
                         "/ws/leaderboards/daily/", "/ws/leagues/{league_id}/"}
    frame_types = {}
    for name, message in asyncapi["components"]["messages"].items():
        schema = asyncapi["components"]["schemas"][name]
        assert message["payload"] == {"$ref": f"#/components/schemas/{name}"}
        frame_types[name] = schema["properties"]["t"]
    assert len(frame_types) == sum(len(c.frames) for c in CHANNELS) == 17


def test_its_schemas_are_the_openapi_documents_by_the_same_names(documents):
    asyncapi, openapi = documents
    shared = asyncapi["components"]["schemas"]
    assert {"Card", "TableMeld", "SeatResult", "DrewEvent", "DrewData", "TableFrame"} <= set(shared)
    for name, schema in shared.items():
        assert openapi["components"]["schemas"][name] == schema, name
    # The answers' events are the same schemas as the game socket's frames.
    event = openapi["components"]["schemas"]["Event"]
    assert {"DrewEvent", "DealStartedEvent", "GameFinishedEvent"} <= {
        ref["$ref"].rsplit("/", 1)[1] for ref in event["oneOf"]}


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_connections")
async def test_every_frame_of_a_table_game_validates_against_its_schema(documents):
    asyncapi, openapi = documents
    alice, bob = await sync_to_async(new_bearer_api)(), await sync_to_async(new_bearer_api)()
    table = await sync_to_async(open_table)(alice, "Frames", level="easy", turn_seconds=60)
    sockets = {"table": [bearer_socket(f"/ws/tables/{table['id']}/", p.token)
                         for p in (alice, bob)]}
    heard: dict[str, list[dict]] = {"table": [], "game": []}

    async def listen(kind: str, socket) -> None:
        assert (await socket.connect())[0]
        while True:
            heard[kind].append(await socket.receive_json_from(timeout=600))

    readers = [asyncio.create_task(listen("table", s)) for s in sockets["table"]]
    await sync_to_async(join)(bob, table)
    game = (await sync_to_async(start)(alice, table))["game"]
    sockets["game"] = [bearer_socket(f"/ws/games/{game['id']}/", p.token) for p in (alice, bob)]
    readers += [asyncio.create_task(listen("game", s)) for s in sockets["game"]]
    await asyncio.sleep(0.5)  # both game sockets joined their groups

    def out_of_time() -> None:
        """Four turns in a row run out (each person's twice: both away), both come back, and
        Alice reacts."""
        for _ in range(4):
            run_out({"id": game["id"]})
            assert time_out(game["id"])
        for person in (alice, bob):
            assert person.post(f"/games/{game['id']}/back").status_code == 200
        react = alice.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"})
        assert react.status_code == 204, react.content

    def one_move(view: dict) -> dict:
        """The person to move makes one move from their own read; the game after it (the
        answer's events are checked too)."""
        mover = people[view["turn"]]
        mine = mover.get(f"/games/{game['id']}").json()
        response = mover.act(mine, next_action(mover, mine))
        assert response.status_code == 200, response.content
        answered.extend(response.json()["events"])
        return response.json()["game"]

    people, answered = {0: alice, 1: bob}, []
    await sync_to_async(out_of_time)()
    view = await sync_to_async(alice.get)(f"/games/{game['id']}")
    view = view.json()
    # One move a call: between them the sockets' own database reads (a table socket's
    # rejoining) get the test's one synchronous thread.
    for _ in range(3000):
        if view["status"] == "finished":
            break
        view = await sync_to_async(one_move)(view)
    assert view["status"] == "finished"
    await asyncio.sleep(1)  # the last frames
    for socket in sockets["table"] + sockets["game"]:  # then the readers, waiting on nothing
        await socket.disconnect()
    for task in readers:
        task.cancel()

    check_game, game_seen = frame_checker(asyncapi, "game")
    for frame in heard["game"]:
        check_game(frame)
    check_table, table_seen = frame_checker(asyncapi, "table")
    for frame in heard["table"]:
        check_table(frame)
    events = Draft202012Validator({"$ref": "#/components/schemas/Event",
                                   "components": openapi["components"]})
    for event in answered:
        assert list(events.iter_errors(event)) == [], event
    assert set(game_seen) >= {"deal_started", "drew", "laid_down", "discarded", "deal_ended",
                              "game_finished", "turn_timer", "timed_out", "away"}, game_seen
    assert game_seen["game_finished"] == 2  # each person's socket heard the game to its end
    assert set(table_seen) == {"table", "reaction"}, table_seen
    assert not any("d" in frame for frame in heard["game"] + heard["table"])
