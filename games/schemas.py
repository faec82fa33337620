"""The games API's request and response shapes (docs/api.md), typed so the OpenAPI schema tells
the truth: Schemathesis checks every response against it.

What clients send is bounded here, in types the OpenAPI document states (docs/api.md): every
string has a maximum length and a pattern (at least: no NUL character, which PostgreSQL's text
refuses; pydantic refuses lone surrogates itself), every integer a range, and body integers are
strict (no ``"2"``, no ``true``).

Responses are dumped with ``exclude_unset``: a card's optional keys (``rank``/``suit`` of a
natural, ``joker``, a table joker's ``as``) appear only when the engine gives them, exactly as
docs/api.md shows cards.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Path, Schema
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from games.bots import LEVELS, REASON_CODES
from games.names import NAME_MAX_CHARS, NAME_MIN_CHARS
from games.services.accounts import (
    CODE_CHARS,
    PASSWORD_MAX_CHARS,
    USERNAME_MAX_CHARS,
    USERNAME_MIN_CHARS,
)

# The computer players' levels, as the bots name them (games.bots.LEVELS).
Level = Literal[LEVELS]  # type: ignore[valid-type]


class Out(BaseModel):
    """Response shapes: plain pydantic models (validated natively: django-ninja's Schema wraps
    every nested object for ORM access, which costs a millisecond per GameView)."""

    model_config = ConfigDict(populate_by_name=True)


CARD_ID = r"^(?:(?:[2-9]|10|[AJQK])[SHDC]\.[12]|JK\.[123])$"
CARD_ID_MAX_CHARS = 4


# --- Bounds on what clients send ------------------------------------------------------------

NO_NUL = r"^[^\x00]*$"
INT32_MAX = 2**31 - 1  # the integer columns' limit


def _json_integer(value: Any) -> Any:
    # JSON Schema's "integer" is a number with no fraction (2 or 2.0), never "2" or true.
    if isinstance(value, str | bool):
        raise ValueError("must be a JSON integer")
    return value


# A body's integer, strict as JSON Schema's "integer": not a string, not a boolean.
JsonInt = Annotated[int, BeforeValidator(_json_integer)]


def _iso_day(value: Any) -> Any:
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a day is written YYYY-MM-DD")
    return value


# A day in a path: YYYY-MM-DD only (pydantic alone would also read "0" as 1970-01-01).
Day = Annotated[date, BeforeValidator(_iso_day), Path(description="A day, YYYY-MM-DD (UTC).")]


def text(max_length: int, min_length: int = 0, pattern: str = NO_NUL, **field) -> Any:
    """A string field as bounded as the database needs and the OpenAPI document states."""
    return Annotated[str, Field(min_length=min_length, max_length=max_length, pattern=pattern,
                                **field)]


PUBLIC_ID = r"^[A-Za-z0-9_-]{1,32}$"
PublicId = Annotated[str, Path(pattern=PUBLIC_ID, max_length=32,
                               description="A game's or player's id.")]
# ``[0-9]``, not ``\d``: a regular expression's ``\d`` matches every script's digits.
WEEK = r"^[0-9]{4}-W(?:0[1-9]|[1-4][0-9]|5[0-3])$"
Week = Annotated[str, Path(pattern=WEEK, max_length=8, examples=["2026-W48"],
                           description="An ISO week, YYYY-Www.")]
CURSOR = r"^[A-Za-z0-9_-]+={0,2}$"  # urlsafe base64 (leaderboards.ranking.encode_cursor)

# A field its schema refuses answers the code its endpoint gives that field's other refusals
# (clients translate by code); any other schema refusal is ``invalid_request``.
FIELD_ERROR_CODES = {"name": "invalid_name", "username": "invalid_username",
                     "code": "invalid_transfer_code", "week": "invalid_week",
                     "after": "invalid_cursor"}


# --- Errors -------------------------------------------------------------------------------


class ErrorDetail(Out):
    code: str = Field(description="Stable, machine-readable: switch on this.")
    message: str = Field(description="For people (English).")
    rule: str | None = Field(None, description="The rule broken, e.g. R16 (docs/rules.md).")
    details: list[dict[str, Any]] | None = None


class Error(Out):
    error: ErrorDetail


# --- Players ------------------------------------------------------------------------------


class NewPlayer(Out):
    id: str
    name: str
    token: str = Field(description="Shown once: send it as 'Authorization: Bearer <token>'.")


class Me(Out):
    id: str
    name: str
    registered: bool = Field(description="Whether an account (username) is attached.")
    username: str | None
    created_at: datetime


DisplayName = text(NAME_MAX_CHARS, NAME_MIN_CHARS,
                   description="2-24 letters (any script, at most two combining marks each), "
                               "digits, spaces and - _ . ' after NFKC normalisation, with at "
                               "least one letter and two visible letters or digits; no filler, "
                               "invisible character or enclosing mark; not a look-alike of a "
                               "reserved name (admin, moderator, staff, support, the computer "
                               "players' names, Ladder Rummy).")

Password = text(PASSWORD_MAX_CHARS, 1)
CODE_TEXT_MAX_CHARS = CODE_CHARS + 8  # the code as shown, with its dashes and some spaces
TransferCodeText = text(CODE_TEXT_MAX_CHARS, CODE_CHARS, pattern=r"^[0-9A-Za-z][0-9A-Za-z -]*$",
                        description="As shown, e.g. ABCD-EFGH-JKMN (case, spaces and dashes "
                                    "do not matter).")


class MeUpdate(Schema):
    name: DisplayName


class Credentials(Schema):
    # Python's regular expressions, as Django's username validator uses (\w: any script).
    model_config = ConfigDict(regex_engine="python-re")

    username: str = Field(min_length=USERNAME_MIN_CHARS, max_length=USERNAME_MAX_CHARS,
                          pattern=r"^[\w.@+-]+$",
                          description="3-30 letters, digits and @ . + - _")
    password: Password


class TransferCodeIn(Schema):
    code: TransferCodeText


class CsrfToken(Out):
    csrf_token: str


# --- Cards, melds, views ------------------------------------------------------------------


class Face(Out):
    rank: str
    suit: Literal["S", "H", "D", "C"] | None = None


class Card(Out):
    id: str = Field(pattern=CARD_ID, examples=["7H.1", "JK.2"])
    rank: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] | None = None
    suit: Literal["S", "H", "D", "C"] | None = None
    joker: bool | None = None
    as_: Face | None = Field(None, alias="as",
                             description="On the table: the card a joker stands for (R8).")


class MeldRequirement(Out):
    kind: Literal["group", "run"]
    min_cards: int


class Contract(Out):
    rung: int
    description: str
    melds: list[MeldRequirement]


class SeatInfo(Out):
    seat: int
    name: str
    bot: bool
    rung: int = Field(description="The rung whose contract this player plays in this deal.")
    climbed: int = Field(description="Contracts completed so far, 0-10.")
    contract: Contract
    laid_down: bool
    hand_size: int
    penalty: int


class TableMeld(Out):
    id: int
    owner: int
    kind: Literal["group", "run"]
    cards: list[Card]


class LayOffOption(Out):
    meld: int
    card: str
    end: Literal["low", "high"]


class Legal(Out):
    draw: list[Literal["stock", "discard"]]
    lay_down: bool = Field(description="The contract may be laid down now, if the hand holds it.")
    lay_off: list[LayOffOption]
    discard: list[str]


class DealResult(Out):
    deal: int
    dealer: int
    ending: Literal["went_out", "stock_exhausted"]
    went_out: int | None
    penalties: list[int]
    climbed: list[bool]


class SeatResult(Out):
    seat: int
    contracts: int
    penalty: int
    place: int


class GameView(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    status: Literal["active", "finished", "expired"]
    version: int = Field(description="Actions applied so far: send it back with your action.")
    deal: int
    dealer: int
    turn: int
    phase: Literal["draw", "play", "finished"]
    you: int
    hand: list[Card]
    players: list[SeatInfo]
    table: list[TableMeld]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    rebuilds: int
    taken_from_discard: Card | None
    deals: list[DealResult]
    legal: Legal
    result: list[SeatResult] | None
    created_at: datetime
    finished_at: datetime | None


class Event(Out):
    v: int = Field(description="The game's version right after the action behind this event.")
    t: str = Field(description="deal_started, drew, laid_down, laid_off, discarded, "
                               "stock_rebuilt, deal_ended, game_finished")
    d: dict[str, Any]


class ActionResult(Out):
    game: GameView
    events: list[Event]


class DealLog(Out):
    version: int
    seen: int = Field(description="The version right after your last action (0: none yet).")
    before: GameView = Field(description="The game as you saw it at version `seen`.")
    events: list[Event] = Field(description="This deal's public events so far, oldest first "
                                            "(from earlier when the moves since `seen` did).")


class Stale(Out):
    error: ErrorDetail
    game: GameView


class PersonResult(Out):
    contracts: int
    penalty: int
    place: int


class GameSummary(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    status: Literal["active", "finished", "expired"]
    version: int
    deal: int = Field(ge=1, le=10, description="The deal being played (the last, when over).")
    result: PersonResult | None
    replay: bool = Field(description="Whether its replay is open now (GET /replays/{id}): a "
                                     "finished game, and for a daily once its day has ended.")
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


class GameList(Out):
    items: list[GameSummary]
    count: int


class NewGame(Schema):
    mode: Literal["practice", "daily"] = "practice"
    level: Level = "normal"


_CARD_REF = {"type": "string", "pattern": CARD_ID, "maxLength": CARD_ID_MAX_CHARS,
             "examples": ["7H.1", "JK.2"]}
ACTION_JSON_SCHEMA = {
    "title": "Action",
    "description": "Run cards in ascending order; a joker's place fixes its value (R8).",
    "oneOf": [
        {"title": "Draw", "type": "object", "required": ["type", "from"],
         "properties": {"type": {"const": "draw"}, "from": {"enum": ["stock", "discard"]}}},
        {"title": "LayDown", "type": "object", "required": ["type", "melds"],
         "properties": {"type": {"const": "lay_down"},
                        "melds": {"type": "array", "minItems": 1, "maxItems": 4,
                                  "items": {"type": "array", "minItems": 1, "maxItems": 14,
                                            "items": _CARD_REF}}}},
        {"title": "LayOff", "type": "object", "required": ["type", "meld", "card"],
         "properties": {"type": {"const": "lay_off"},
                        "meld": {"type": "integer", "minimum": 0, "maximum": 255},
                        "card": _CARD_REF, "end": {"enum": ["low", "high"]}}},
        {"title": "Discard", "type": "object", "required": ["type", "card"],
         "properties": {"type": {"const": "discard"}, "card": _CARD_REF}},
    ],
}
# Parsed by the engine (games.engine.action_from_json), so a bad action gets the engine's codes
# (malformed_action, unknown_action, unknown_card) rather than a generic validation error.
ActionJson = Annotated[dict[str, Any], WithJsonSchema(ACTION_JSON_SCHEMA)]


class ActionRequest(Schema):
    version: JsonInt = Field(ge=0, le=INT32_MAX,
                               description="The version of the game you are acting on.")
    action: ActionJson


class HintReason(Out):
    code: Literal[REASON_CODES] = Field(
        description="Why the expert makes this move: stable, for a client to switch on (and "
                    "translate). docs/api.md lists every code.")
    message: str = Field(description="The reason in English, for people.")


class Hint(Out):
    version: int = Field(description="The version of the game the hint is for.")
    action: ActionJson | None = Field(
        description="What the server's expert player (the hard level, seeing only your view) "
                    "would do now, as POST /games/{id}/actions takes it: which pile to draw "
                    "from, the lay-down, a lay-off or the discard. Null when you have nothing "
                    "to do (not your turn, game over).")
    reason: HintReason
    lay_down: list[list[str]] | None = Field(
        description="The expert's melds when its move is to lay the contract down (the same as "
                    "action.melds), else null.")
    lay_off: list[LayOffOption] = Field(
        description="Every lay-off open now (as the game's legal.lay_off); the expert's own "
                    "choice among them is the action.")


class ReplayAction(Out):
    index: int
    seat: int
    action: dict[str, Any]


class ReplayDeal(Out):
    deal: int
    dealer: int
    discard_top: Card
    hands: list[list[Card]]


class ReplayPlayer(Out):
    seat: int
    name: str
    bot: bool


class PrivatePart(Out):
    seat: int = Field(ge=0, le=3)
    d: dict[str, Any] = Field(description="What only this seat saw: its hand dealt, the card "
                                          "it drew from the stock.")


class OpenEvent(Out):
    v: int = Field(description="The game's version right after the action behind this event.")
    t: str = Field(description="As the game's events (Event.t).")
    d: dict[str, Any] = Field(description="What everyone at the table saw.")
    private: list[PrivatePart] | None = Field(
        None, description="Present on events with hidden parts: a seat's own view of the event "
                          "is `d` updated with its part.")


class Replay(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    seed: str
    engine_version: int
    version: int = Field(description="Actions in the game: the last version.")
    finished_at: datetime | None
    yours: bool = Field(description="Whether the caller owns the game (seat 0).")
    players: list[ReplayPlayer]
    deals: list[ReplayDeal]
    actions: list[ReplayAction]
    events: list[OpenEvent] = Field(
        description="Every event of the game in order, every card face up: applied one by one "
                    "from version 0 they rebuild the state at every version.")
    result: list[SeatResult]
