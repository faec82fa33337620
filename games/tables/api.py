"""Tables for friends over HTTP (docs/api.md, "Tables for friends"), mounted at /api/v1/tables.

A table is visible to the people sitting at it only: anyone else gets 404 ``not_found``,
whether or not it exists, and so does an old or unknown code. A code shows the table's name
and how many sit, nothing more, until one sits down.

- ``POST /tables {"name", "level", "turn_seconds"}``: open a table (201); you sit at seat 0
  and host it.
- ``GET /tables/join/{code}``: a code's table, in brief. ``POST /tables/join/{code}
  {"name"?}``: sit down (201; 200 if you sit there already), under the display name chosen
  (a player's name rules: 422 ``invalid_name``, ``reserved_name``) or your own; 409
  ``table_full`` or ``table_started``.
- ``GET /tables/{id}``: the table. ``POST /tables/{id}/start``: the host starts its game, or
  once it is over the next one ("play again"), with everyone seated (201, the game as you see
  it); 403 ``host_only``, 409 ``not_enough_people`` or ``table_started``.
- ``POST /tables/{id}/leave``: leave the table for good (and its running game: a bot plays
  your seat).
- ``POST /tables/{id}/reactions {"reaction"}``: a preset reaction to everyone at the table
  (its socket's ``reaction`` frame), 204; throttled per player (``THROTTLE_REACTIONS``).

Play goes through ``/games/{id}`` and ``/games/{id}/actions`` from your seat (``you``).
Opening is throttled per player (``THROTTLE_TABLES``), code look-ups and joins per address
(an IPv6 one by its /64) whatever the identity (``THROTTLE_TABLE_CODES`` and
``THROTTLE_TABLE_CODES_DAY``): 429 with ``Retry-After``. A banned player gets 403 ``banned``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.http import HttpRequest, HttpResponse
from ninja import Body, Path, Router, Status
from pydantic import BaseModel, ConfigDict, Field

from games import reads as game_reads
from games.lists import DEFAULT_LEVEL, DEFAULT_TURN_SECONDS, REACTION_CODES, TURN_SECONDS
from games.players.identity import (
    AUTH_OPTIONAL,
    PLAYER,
    PLAYER_OR_ANONYMOUS,
    PLAYER_OR_NEW_BROWSER,
    player_for_write,
)
from games.players.names import NAME_MAX_CHARS as PERSON_NAME_MAX_CHARS
from games.players.names import NAME_MIN_CHARS as PERSON_NAME_MIN_CHARS
from games.players.names import clean_name
from games.schemas import GameView, Level, TurnSeconds
from games.tables import reads, services
from games.tables.models import (
    CODE_CHARS,
    NAME_MAX_CHARS,
    NAME_MIN_CHARS,
    SEATS,
)
from games.web.schemas import ERRORS, Error, PublicId, text
from games.web.throttles import Throttle, guesses

router = Router(tags=["tables"])
REFUSALS = {**ERRORS, 409: Error}

NEW_IDENTITIES = Throttle("identities", by="address", new_identities_only=True)
TABLES_OPENED = Throttle("tables", by="player")
CODE_GUESSES = guesses("table_codes")
REACTIONS_SENT = Throttle("reactions", by="player")

TURN_SECONDS_TEXT = (f"Each person's time for a turn, in seconds: one of {list(TURN_SECONDS)}; "
                     "null for no timer. When it runs out, a bot of the table's level plays "
                     "that turn for them; after two such turns in a row their seat is away.")
TableName = text(NAME_MAX_CHARS, NAME_MIN_CHARS, description=(
    f"{NAME_MIN_CHARS}-{NAME_MAX_CHARS} characters under the rules of a player's name."))
TableCode = Annotated[str, Path(
    pattern=r"^[0-9A-Za-z][0-9A-Za-z -]*$", min_length=CODE_CHARS, max_length=CODE_CHARS + 8,
    description="A table's join code as shown or typed (case, spaces and dashes do not "
                "matter), e.g. K7QD-2MXW-P4RT.")]


class NewTable(BaseModel):
    name: TableName
    level: Level = Field(DEFAULT_LEVEL, description="The bots' level in the empty seats.")
    turn_seconds: TurnSeconds = Field(DEFAULT_TURN_SECONDS, description=TURN_SECONDS_TEXT)


class Joining(BaseModel):
    name: text(PERSON_NAME_MAX_CHARS, PERSON_NAME_MIN_CHARS, description=(
        "The display name to sit down under, which everyone at the table sees (and which "
        "becomes yours, as PATCH /me would make it: the same rules); left out, your own "
        "name (a new identity's is given, e.g. \"Keen Owl\").")) | None = None


class TableSeatOut(BaseModel):
    seat: int = Field(ge=0, lt=SEATS)
    name: str = Field(description="The person's name, or the bot's that will play the seat.")
    bot: bool = Field(description="A bot plays the seat (no person sits there): the same "
                                  "name as the game's `players[].bot` (`person`, the "
                                  "opposite, until 2026-12-06).")
    host: bool
    connected: bool = Field(description="The person has the table's socket open now.")


class NewReaction(BaseModel):
    reaction: Literal[REACTION_CODES] = Field(  # type: ignore[valid-type]
        description=f"A preset reaction: one of {', '.join(REACTION_CODES)}.")


class TableGame(BaseModel):
    id: str
    status: Literal["active", "finished", "expired"]


class TableOut(BaseModel):
    id: str
    name: str
    code: str = Field(description="The join code to read aloud, e.g. K7QD-2MXW-P4RT.")
    level: Level
    turn_seconds: TurnSeconds = Field(description=TURN_SECONDS_TEXT)
    status: Literal["lobby", "playing"]
    you: int = Field(ge=0, lt=SEATS, description="Your seat.")
    seats: list[TableSeatOut] = Field(min_length=SEATS, max_length=SEATS)
    game: TableGame | None = Field(description="The table's latest game.")
    created_at: datetime


class TablePreview(BaseModel):
    name: str
    people: int = Field(ge=1, le=SEATS)
    free_seats: int = Field(ge=0, lt=SEATS)
    status: Literal["lobby", "playing"]
    level: Level


class Started(BaseModel):
    table: TableOut
    game: GameView


# The table socket's frames (games.tables.consumers; ladder/asyncapi.py publishes them).
FRAME = ConfigDict(extra="forbid")


class TableNewsData(BaseModel):
    model_config = FRAME


class TableFrame(BaseModel):
    """Read ``GET /tables/{id}`` again: someone sat down or left, the host changed, a game
    started or ended, or someone's table socket opened or closed."""

    model_config = FRAME
    t: Literal["table"]
    data: TableNewsData


class ReactionData(BaseModel):
    model_config = FRAME
    seat: int = Field(ge=0, lt=SEATS, description="Who sent it.")
    reaction: Literal[REACTION_CODES]  # type: ignore[valid-type]


class ReactionFrame(BaseModel):
    """A preset reaction, sent from that seat (``POST /tables/{id}/reactions``)."""

    model_config = FRAME
    t: Literal["reaction"]
    data: ReactionData


TABLE_FRAMES = (TableFrame, ReactionFrame)


@router.post("", response={201: TableOut, **REFUSALS}, auth=PLAYER_OR_NEW_BROWSER,
             throttle=[NEW_IDENTITIES, TABLES_OPENED])
def open_table(request: HttpRequest, payload: NewTable, response: HttpResponse):
    """Open a table for friends: you sit at seat 0 and host it. Share its link or code."""
    player = player_for_write(request, response)
    table = services.open_table(player, payload.name, payload.level, payload.turn_seconds)
    return Status(201, reads.table_view(table, player))


@router.get("/join/{code}", response={200: TablePreview, **REFUSALS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL, throttle=CODE_GUESSES)
def preview_table(request: HttpRequest, code: TableCode):
    """What a join link shows before sitting down: the table's name, how many sit, whether a
    seat is free."""
    return reads.preview(services.by_code(code))


@router.post("/join/{code}", response={200: TableOut, 201: TableOut, **REFUSALS},
             auth=PLAYER_OR_NEW_BROWSER, throttle=[NEW_IDENTITIES, *CODE_GUESSES])
def join_table(request: HttpRequest, code: TableCode, response: HttpResponse,
               payload: Body[Joining] = None):
    """Sit down at the table of ``code`` (the lowest free seat): 201, or 200 if you sit there
    already; under ``name`` if given, which becomes your display name."""
    name = None if payload is None or payload.name is None else clean_name(payload.name)
    player = player_for_write(request, response)  # a refused name makes no identity
    table, sat_down = services.join(player, code, name)
    return Status(201 if sat_down else 200, reads.table_view(table, player))


@router.get("/{table_id}", response={200: TableOut, **REFUSALS}, auth=PLAYER)
def get_table(request: HttpRequest, table_id: PublicId):
    """The table you sit at: its seats, host, code and latest game."""
    return reads.table_view(services.table_of(request.auth, table_id), request.auth)


@router.post("/{table_id}/start", response={201: Started, **REFUSALS}, auth=PLAYER)
def start_table_game(request: HttpRequest, table_id: PublicId):
    """The host starts the table's game with everyone seated, bots in the empty seats; once
    a game is over, the next one ("play again")."""
    played = services.start(request.auth, table_id)
    table = services.table_of(request.auth, table_id)
    return Status(201, {"table": reads.table_view(table, request.auth),
                        "game": game_reads.game_view(played.seated, played.state)})


@router.post("/{table_id}/leave", response={204: None, **REFUSALS}, auth=PLAYER)
def leave_table(request: HttpRequest, table_id: PublicId):
    """Leave the table for good; a bot plays your seat in its running game."""
    services.leave(request.auth, table_id)
    return Status(204, None)


@router.post("/{table_id}/reactions", response={204: None, **REFUSALS}, auth=PLAYER,
             throttle=[REACTIONS_SENT])
def send_reaction(request: HttpRequest, table_id: PublicId, payload: NewReaction):
    """Send a preset reaction to everyone at the table: their table sockets get
    ``{"t": "reaction", "data": {"seat", "reaction"}}``. Nothing typed, nothing stored."""
    services.react(request.auth, table_id, payload.reaction)
    return Status(204, None)
