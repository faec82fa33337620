"""The games API's request and response shapes (DESIGN §5), typed so the OpenAPI schema tells
the truth: Schemathesis checks every response against it.

Responses are dumped with ``exclude_unset``: a card's optional keys (``rank``/``suit`` of a
natural, ``joker``, a table joker's ``as``) appear only when the engine gives them, exactly as
DESIGN §5 shows cards.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from games.names import NAME_MAX_CHARS


class Out(BaseModel):
    """Response shapes: plain pydantic models (validated natively: django-ninja's Schema wraps
    every nested object for ORM access, which costs a millisecond per GameView)."""

    model_config = ConfigDict(populate_by_name=True)


CARD_ID = r"^(?:(?:[2-9]|10|[AJQK])[SHDC]\.[12]|JK\.[123])$"


# --- Errors -------------------------------------------------------------------------------


class ErrorDetail(Out):
    code: str = Field(description="Stable, machine-readable: switch on this.")
    message: str = Field(description="For people (English).")
    rule: str | None = Field(None, description="The rule broken, e.g. R16 (RULES.md).")
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


class MeUpdate(Schema):
    name: str = Field(max_length=4 * NAME_MAX_CHARS,
                      description="2-24 letters, digits, spaces and - _ . '")


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
    level: Literal["easy", "normal", "hard"]
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
    level: Literal["easy", "normal", "hard"]
    daily: date | None
    status: Literal["active", "finished", "expired"]
    version: int
    result: PersonResult | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


class GameList(Out):
    items: list[GameSummary]
    count: int


class NewGame(Schema):
    mode: Literal["practice", "daily"] = "practice"
    level: Literal["easy", "normal", "hard"] = "normal"


_CARD_REF = {"type": "string", "examples": ["7H.1", "JK.2"]}
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
         "properties": {"type": {"const": "lay_off"}, "meld": {"type": "integer", "minimum": 0},
                        "card": _CARD_REF, "end": {"enum": ["low", "high"]}}},
        {"title": "Discard", "type": "object", "required": ["type", "card"],
         "properties": {"type": {"const": "discard"}, "card": _CARD_REF}},
    ],
}
# Parsed by the engine (games.engine.action_from_json), so a bad action gets the engine's codes
# (malformed_action, unknown_action, unknown_card) rather than a generic validation error.
ActionJson = Annotated[dict[str, Any], WithJsonSchema(ACTION_JSON_SCHEMA)]


class ActionRequest(Schema):
    version: int = Field(ge=0, description="The version of the game you are acting on.")
    action: ActionJson


class Hint(Out):
    version: int
    lay_down: list[list[str]] | None = Field(
        description="Melds to lay the contract down with now (fewest penalty points left), or "
                    "null when that is not possible now.")
    lay_off: list[LayOffOption]


class ReplayAction(Out):
    index: int
    seat: int
    action: dict[str, Any]


class ReplayDeal(Out):
    deal: int
    dealer: int
    discard_top: Card
    hands: list[list[Card]]


class Replay(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Literal["easy", "normal", "hard"]
    seed: str
    engine_version: int
    version: int
    deals: list[ReplayDeal]
    actions: list[ReplayAction]
    result: list[SeatResult]
