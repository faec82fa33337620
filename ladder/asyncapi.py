"""The sockets' AsyncAPI 3 document, ``/api/v1/asyncapi.json`` (docs/api.md, "Websockets"):
the game's, a table's, today's board's and a league's socket, each frame a message whose
payload is a named schema of the OpenAPI document (``#/components/schemas/…``, the same name
and the same definition: the frames' schemas are added to the OpenAPI document's components,
and this document copies the ones it refers to from there).

Frames go one way, server to client: each channel has one ``send`` operation (AsyncAPI names
operations from the application's side). tests/games/test_asyncapi.py validates the document with
the AsyncAPI initiative's own parser and every frame of a table's game against its schema.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from games.players.identity import COOKIE_NAME
from games.schemas import GAME_FRAMES
from games.tables.api import TABLE_FRAMES
from leaderboards.api import BOARD_FRAMES
from leaderboards.leagues.api import LEAGUE_FRAMES

REF = "#/components/schemas/{model}"
DESCRIPTION = ('The websockets of the Ladder Rummy API (docs/api.md, "Websockets"); their '
               "frames' schemas are the OpenAPI document's (/api/v1/openapi.json) by the same "
               "names.")
ID_PATTERN = "^[A-Za-z0-9_-]{1,32}$"  # the socket routes' own (games/routing.py...)
REFUSED = ("A refused socket is accepted and closed at once: 4401 no identity, 4404 not "
           "yours (or no such one); another site's page gets an HTTP 403 at the handshake. ")


@dataclass(frozen=True)
class Channel:
    key: str
    address: str
    parameter: str | None
    title: str
    description: str
    frames: tuple[type, ...]
    identity: bool  # whether the socket needs one (the board's does not)


CHANNELS = (
    Channel("game", "/ws/games/{game_id}/", "game_id", "A game",
            "The events of each action in order, as your seat may see them, and the turn "
            "timer's news. A `v` beyond your own is news: read `GET /games/{id}` and its "
            "`/events`. " + REFUSED, GAME_FRAMES, True),
    Channel("table", "/ws/tables/{table_id}/", "table_id", "A table for friends",
            "News of the table, for the people sitting at it: read `GET /tables/{id}` again. "
            + REFUSED, TABLE_FRAMES, True),
    Channel("board", "/ws/leaderboards/daily/", None, "Today's board",
            "Today's (UTC) daily board as it changes; public, no identity needed.",
            BOARD_FRAMES, False),
    Channel("league", "/ws/leagues/{league_id}/", "league_id", "A friend league",
            "News of the league, for its members: read `GET /leagues/{id}` again. " + REFUSED,
            LEAGUE_FRAMES, True),
)


@cache
def frame_schemas() -> dict[str, dict]:
    """Every frame's schema and those it refers to, by name, as the OpenAPI document writes
    them (pydantic's serialization schema, refs into ``#/components/schemas``). One adapter a
    channel: two apps' ``PlayerRef`` keep their plain name."""
    schemas: dict[str, dict] = {}
    for channel in CHANNELS:
        adapter = TypeAdapter(tuple[channel.frames])  # type: ignore[valid-type]
        found = adapter.json_schema(mode="serialization", ref_template=REF)
        for name, schema in found.get("$defs", {}).items():
            schemas.setdefault(name, schema)
    return schemas


def add_frame_schemas(openapi: dict) -> dict:
    """The OpenAPI document with the frames' schemas in its components (those an answer
    already names, the game's events, stay as the answers name them)."""
    components = openapi.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in frame_schemas().items():
        components.setdefault(name, copy.deepcopy(schema))
    return openapi


def _refs(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {value["$ref"].rsplit("/", 1)[1]} if isinstance(value.get("$ref"), str) else set()
        for item in value.values():
            found |= _refs(item)
        return found
    if isinstance(value, list):
        return set().union(*(_refs(item) for item in value)) if value else set()
    return set()


def _closure(schemas: dict[str, dict], names: list[str]) -> dict[str, dict]:
    """The named schemas and every schema they refer to, in the order first met."""
    kept: dict[str, dict] = {}
    todo = list(names)
    while todo:
        name = todo.pop(0)
        if name in kept:
            continue
        kept[name] = schemas[name]
        todo.extend(sorted(_refs(schemas[name]) - set(kept)))
    return kept


def _message(frame: type) -> dict:
    name = frame.__name__
    summary = " ".join((frame.__doc__ or name).split())
    return {"name": name, "title": name, "summary": summary,
            "contentType": "application/json", "payload": {"$ref": REF.format(model=name)}}


def document(openapi: dict, host: str, secure: bool) -> dict:
    """The AsyncAPI 3.0 document of the sockets served at ``host``, its schemas taken from
    ``openapi`` (the API's own document, with the frames' schemas: add_frame_schemas)."""
    channels: dict[str, dict] = {}
    operations: dict[str, dict] = {}
    messages: dict[str, dict] = {}
    for channel in CHANNELS:
        names = [frame.__name__ for frame in channel.frames]
        messages.update({frame.__name__: _message(frame) for frame in channel.frames})
        described: dict[str, Any] = {
            "address": channel.address, "title": channel.title,
            "description": channel.description, "servers": [{"$ref": "#/servers/site"}],
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in names}}
        if channel.parameter:
            described["parameters"] = {channel.parameter: {
                "description": f"The id (`{ID_PATTERN}`) as the HTTP API gives it."}}
        channels[channel.key] = described
        operation: dict[str, Any] = {
            "action": "send", "channel": {"$ref": f"#/channels/{channel.key}"},
            "title": f"{channel.title}: frames to the client",
            "summary": "Frames go one way: whatever a client sends is ignored.",
            "messages": [{"$ref": f"#/channels/{channel.key}/messages/{name}"}
                         for name in names]}
        if channel.identity:
            operation["security"] = [{"$ref": f"#/components/securitySchemes/{name}"}
                                     for name in ("BearerToken", "SocketTicket",
                                                  "PlayerCookie")]
        operations[f"{channel.key}Frames"] = operation
    schemas = openapi["components"]["schemas"]
    frame_names = [name for channel in CHANNELS for name in (f.__name__ for f in channel.frames)]
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Ladder Rummy sockets", "version": openapi["info"]["version"],
                 "description": DESCRIPTION},
        "defaultContentType": "application/json",
        "servers": {"site": {"host": host, "protocol": "wss" if secure else "ws",
                             "description": "This site."}},
        "channels": channels,
        "operations": operations,
        "components": {
            "schemas": _closure(schemas, frame_names),
            "messages": messages,
            "securitySchemes": {
                "BearerToken": {"type": "http", "scheme": "bearer",
                                "description": "`Authorization: Bearer <token>` on the "
                                               "handshake (POST /players gives the token)."},
                "SocketTicket": {"type": "httpApiKey", "in": "query", "name": "ticket",
                                 "description": "A single-use ticket from POST "
                                                "/api/v1/socket-tickets, for 30 s: any "
                                                "origin (docs/api.md, \"Who you are\")."},
                "PlayerCookie": {"type": "httpApiKey", "in": "cookie",
                                 "name": COOKIE_NAME,
                                 "description": "The browser's player cookie; the "
                                                "handshake's Origin must be the site's."}},
        },
    }
