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

from datetime import date, datetime
from typing import Annotated, Any, Literal, NotRequired

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, RootModel, with_config
from typing_extensions import TypeAliasType, TypedDict  # pydantic needs them below 3.12

from games.lists import DEFAULT_LEVEL, LEVELS, REASON_CODES, TURN_SECONDS
from games.web.schemas import INT32_MAX, ErrorDetail, JsonInt, Out

# The computer players' levels, as the bots name them (games.bots.LEVELS).
Level = Literal[LEVELS]  # type: ignore[valid-type]
# A table's time for a turn (games.lists.TURN_SECONDS), null: no timer.
TurnSeconds = Literal[TURN_SECONDS] | None  # type: ignore[valid-type]


CARD_ID = r"^(?:(?:[2-9]|10|[AJQK])[SHDC]\.[12]|JK\.[123])$"
CARD_ID_MAX_CHARS = 5  # a ten: "10S.2"
# The pattern is the pack: an id it refuses is no card, and an action holding one is answered
# 422 ``unknown_card``, as the engine answers any card the pack lacks (the field's own code,
# as games.web.schemas.FIELD_ERROR_CODES gives other fields theirs).
CardId = Annotated[str, Field(pattern=CARD_ID, max_length=CARD_ID_MAX_CHARS,
                              examples=["7H.1", "10S.2", "JK.2"],
                              description="A card of the pack; an action holding an id this "
                                          "pattern refuses is answered 422 unknown_card.")]


# --- Actions ------------------------------------------------------------------------------
# What POST /games/{id}/actions takes, and what the hint and the view offer to be posted as
# they are: named schemas in the document.


class Draw(BaseModel):
    """Draw the top card of the stock or of the discard pile (R13)."""

    type: Literal["draw"]
    from_: Literal["stock", "discard"] = Field(alias="from")


MeldCards = Annotated[list[CardId], Field(min_length=1, max_length=14)]


class LayDown(BaseModel):
    """Lay your contract down (R14): its melds, each a list of card ids; a run's cards in
    ascending order, where a joker's place fixes the card it stands for (R8)."""

    type: Literal["lay_down"]
    melds: list[MeldCards] = Field(min_length=1, max_length=4)


class LayOff(BaseModel):
    """Lay a card off on a meld of the table (R15): ``meld`` is its index in ``table``, ``end``
    the end of a run it goes to, needed only where it fits both."""

    type: Literal["lay_off"]
    meld: int = Field(ge=0, le=255)
    card: CardId
    end: Literal["low", "high"] | None = None


class Discard(BaseModel):
    """Discard a card, which ends your turn (R16)."""

    type: Literal["discard"]
    card: CardId


class Action(RootModel[Annotated[Draw | LayDown | LayOff | Discard,
                                 Field(discriminator="type")]]):
    """One action, told apart by its ``type``: draw, lay_down, lay_off or discard."""


def _json_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("an action is a JSON object")
    return value


# An action sent by a client: published as an Action, but taken as the JSON object it is and
# parsed by the engine (games.engine.action_from_json), so a bad action gets the engine's codes
# (malformed_action, unknown_action, unknown_card) rather than a generic validation error.
# Answers that carry actions (the hint, the view's lay-downs, a replay) use the models.
SentAction = Annotated[Action, PlainValidator(_json_object, json_schema_input_type=Action)]


# --- Cards, melds, views ------------------------------------------------------------------


# The many small objects of a view (cards, seats, melds, deals) are TypedDicts, not models:
# pydantic validates and dumps a TypedDict as the dict it is, without a model instance per
# object (a GameView holds some fifty), and it has no unset keys to exclude: a key the engine
# leaves out is simply absent. The OpenAPI document names and describes them alike (and the
# joker's ``as`` by its name: the model published its Python name, ``as_``). An action's
# answer went 7.58 -> 7.35 M instructions (-3.0 %; ``bench/action_instructions.py --actions
# 100 --warmup 20 --games 5``), and 7.32 M with the GameView, its ``Legal``, the events and the
# answer as TypedDicts too.
class Face(TypedDict):
    rank: str
    suit: NotRequired[Literal["S", "H", "D", "C"] | None]


Card = TypedDict("Card", {  # "as" is a keyword: the functional form names it
    "id": CardId,
    "rank": NotRequired[Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
                        | None],
    "suit": NotRequired[Literal["S", "H", "D", "C"] | None],
    "joker": NotRequired[bool | None],
    "as": NotRequired[Annotated[Face | None, Field(
        description="On the table: the card a joker stands for (R8).")]],
})


class MeldRequirement(TypedDict):
    kind: Literal["group", "run"]
    min_cards: int


class Contract(TypedDict):
    rung: int
    description: str
    melds: list[MeldRequirement]


class SeatInfo(TypedDict):
    seat: int
    name: str
    bot: bool
    away: Annotated[bool, Field(
        description="A person whose timer ran out on two turns in a row: a bot plays their "
                    "turns at once until they act or say they are back (POST "
                    "/games/{id}/back). False for a bot.")]
    rung: Annotated[int, Field(
        description="The rung whose contract this player plays in this deal.")]
    climbed: Annotated[int, Field(description="Contracts completed so far, 0-10.")]
    contract: Contract
    laid_down: bool
    hand_size: int
    penalty: int


class TableMeld(TypedDict):
    id: int
    owner: int
    kind: Literal["group", "run"]
    cards: list[Card]


class Legal(TypedDict):
    draw: list[Literal["stock", "discard"]]
    may_lay_down: Annotated[bool, Field(
        description="The contract may be laid down now, if the hand holds it (`lay_down` "
                    "until 2026-12-06).")]
    lay_off: Annotated[list[LayOff], Field(
        description="Every lay-off open now, each the action as POST /games/{id}/actions "
                    "takes it.")]
    discard: list[CardId]
    holds_contract: Annotated[bool | None, Field(
        description="When may_lay_down is true: whether your hand holds your contract's melds "
                    "(R14). Null otherwise (not searched).")]
    lay_downs: Annotated[list[LayDown], Field(
        description="When may_lay_down is true: the legal lay-downs of your contract from your "
                    "hand, fewest penalty points left in hand first (at most 10), each as POST "
                    "/games/{id}/actions takes it; leftover cards that fit a meld are in it. "
                    "Empty otherwise, and when every lay-down would leave you only cards you "
                    "may not discard (R17) although you hold the contract.")]


class DealResult(TypedDict):
    deal: int
    dealer: int
    ending: Literal["went_out", "stock_exhausted"]
    went_out: int | None
    penalties: list[int]
    climbed: list[bool]


class SeatResult(TypedDict):
    seat: int
    contracts: int
    penalty: int
    place: int


class GameView(TypedDict):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    table_name: Annotated[str | None, Field(
        description="The name of the table for friends the game was started at, as it was "
                    "then; null for a game played alone (or a table's game started before "
                    "2026-12-06).")]
    status: Literal["active", "finished", "expired"]
    version: Annotated[int, Field(
        description="Actions applied so far: send it back with your action.")]
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
    turn_seconds: Annotated[TurnSeconds, Field(
        description="Each person's time for a turn at this table's game; null: no timer (a "
                    "game played alone).")]
    turn_deadline: Annotated[datetime | None, Field(
        description="When the turn of the person to move (`turn`) runs out and a bot plays it "
                    "for them; null when no timer runs (no timer, the game is over, or the table "
                    "is paused: every person at it is away).")]
    turn_seconds_left: Annotated[int | None, Field(
        ge=0, description="Whole seconds to `turn_deadline` as the server answered (rounded "
                          "up): count down from it rather than from your own clock.")]
    break_until: Annotated[datetime | None, Field(
        description="The end of the break between deals while one runs (null otherwise): a "
                    "turn that starts in it is timed from its end; it ends early once every "
                    "person present has sent POST /games/{id}/ready.")]
    server_time: Annotated[datetime | None, Field(
        description="The server's clock as it answered, at a game with a timer (null "
                    "otherwise): the difference from your own clock, measured once, lets you "
                    "count down to `turn_deadline` and `break_until` exactly.")]


# --- Events and socket frames ----------------------------------------------------------------
# Each kind of event, and each frame of the game's socket, is a named schema (docs/api.md,
# "Events"): the OpenAPI document and the sockets' AsyncAPI one (ladder/asyncapi.py) name the
# same ones. A frame's ``data`` allows no key it does not name (additionalProperties false),
# so the document lists every field a client may meet.

Seat = Annotated[int, Field(ge=0, le=3)]
FORBID = ConfigDict(extra="forbid")


@with_config(FORBID)
class DealStartedData(TypedDict):
    deal: Annotated[int, Field(ge=1, le=10)]
    dealer: Seat
    first: Annotated[int, Field(ge=0, le=3, description="Whose turn it is: they draw first.")]
    discard_top: Card
    stock_size: int
    hand_size: Annotated[int, Field(description="Every seat's hand as dealt.")]
    rungs: Annotated[list[int], Field(description="Each seat's rung in this deal.")]
    hand: NotRequired[Annotated[list[Card], Field(
        description="Your own hand as dealt (absent from a replay's public `data`: it is in "
                    "each seat's `private` part).")]]


DrewData = TypedDict("DrewData", {  # "from" is a keyword: the functional form names it
    "seat": Annotated[int, Field(ge=0, le=3, description="Now in its play phase.")],
    "from": Literal["stock", "discard"],
    "hand_size": int,
    "card": NotRequired[Annotated[Card, Field(
        description="From the discard pile: everyone sees it; from the stock: only the "
                    "drawer.")]],
})
DrewData = with_config(FORBID)(DrewData)


@with_config(FORBID)
class LaidDownData(TypedDict):
    seat: Seat
    melds: Annotated[list[TableMeld], Field(description="The new melds, as the table's.")]
    climbed: Annotated[int, Field(description="The seat's contracts completed now.")]
    hand_size: int


@with_config(FORBID)
class LaidOffData(TypedDict):
    seat: Seat
    card: Card
    meld: Annotated[TableMeld, Field(description="The meld as it is now.")]
    hand_size: int


@with_config(FORBID)
class DiscardedData(TypedDict):
    seat: Seat
    card: Card
    hand_size: int
    turn: NotRequired[Annotated[int, Field(
        ge=0, le=3, description="The next player, who draws; absent when the discard went "
                                "out (deal_ended follows).")]]


@with_config(FORBID)
class StockRebuiltData(TypedDict):
    rebuild: Annotated[int, Field(ge=1, le=2)]
    stock_size: int


@with_config(FORBID)
class DealEndedData(TypedDict):
    deal: Annotated[int, Field(ge=1, le=10)]
    dealer: Seat
    ending: Literal["went_out", "stock_exhausted"]
    went_out: Seat | None
    penalties: Annotated[list[int], Field(description="Each seat's penalty points this deal.")]
    climbed: Annotated[list[bool], Field(description="Each seat laid down in this deal or not.")]
    totals: Annotated[list[int], Field(description="Each seat's penalty points so far.")]
    contracts: Annotated[list[int], Field(description="Each seat's contracts completed so far.")]


@with_config(FORBID)
class GameFinishedData(TypedDict):
    result: list[SeatResult]


_V = Annotated[int, Field(description="The game's version right after the action behind this "
                                      "event.")]
_BOT = Annotated[bool, Field(
    description="In `GET /games/{id}/events` only: true when the computer chose this move for "
                "the person at that seat (their turn's time ran out, or they are away); absent "
                "otherwise.")]


@with_config(FORBID)
class DealStartedEvent(TypedDict):
    """A deal began: its dealer, who draws first, the top discard; your own hand."""

    v: _V
    t: Literal["deal_started"]
    data: DealStartedData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class DrewEvent(TypedDict):
    """A seat drew from the stock or the discard pile."""

    v: _V
    t: Literal["drew"]
    data: DrewData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class LaidDownEvent(TypedDict):
    """A seat laid its contract down."""

    v: _V
    t: Literal["laid_down"]
    data: LaidDownData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class LaidOffEvent(TypedDict):
    """A seat laid a card off on a meld of the table."""

    v: _V
    t: Literal["laid_off"]
    data: LaidOffData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class DiscardedEvent(TypedDict):
    """A seat discarded, ending its turn."""

    v: _V
    t: Literal["discarded"]
    data: DiscardedData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class StockRebuiltEvent(TypedDict):
    """The stock ran out and was shuffled again from the discard pile (R20)."""

    v: _V
    t: Literal["stock_rebuilt"]
    data: StockRebuiltData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class DealEndedEvent(TypedDict):
    """A deal ended: who went out, each seat's penalty points and contracts."""

    v: _V
    t: Literal["deal_ended"]
    data: DealEndedData
    bot: NotRequired[_BOT]


@with_config(FORBID)
class GameFinishedEvent(TypedDict):
    """The game is over: its result."""

    v: _V
    t: Literal["game_finished"]
    data: GameFinishedData
    bot: NotRequired[_BOT]


# One event of the game, as your seat saw it, told apart by ``t``: a named schema (a type
# alias, so an answer holds the dicts as they are, with no model per event).
Event = TypeAliasType("Event", Annotated[
    DealStartedEvent | DrewEvent | LaidDownEvent | LaidOffEvent | DiscardedEvent
    | StockRebuiltEvent | DealEndedEvent | GameFinishedEvent, Field(discriminator="t")])


# The game socket's frames that are news but no move (games.services.timers): shaped as
# events, in no answer nor log.

@with_config(FORBID)
class TurnTimerData(TypedDict):
    seat: Seat
    deadline: Annotated[datetime, Field(description="When the turn runs out (ISO 8601 UTC).")]
    seconds_left: Annotated[int, Field(ge=0, description="Whole seconds to `deadline`.")]
    seconds: TurnSeconds
    break_until: Annotated[datetime | None, Field(
        description="The break between deals' end while one runs, else null.")]


@with_config(FORBID)
class TimedOutData(TypedDict):
    seat: Seat


@with_config(FORBID)
class AwayData(TypedDict):
    seat: Seat
    away: bool


@with_config(FORBID)
class TurnTimerFrame(TypedDict):
    """A person's turn started (after the moves that led to it), or the break it waited for
    ended early; ``v`` is the game's version."""

    v: int
    t: Literal["turn_timer"]
    data: TurnTimerData


@with_config(FORBID)
class TimedOutFrame(TypedDict):
    """That seat's time ran out: the bot's moves for it follow (with their own ``v``); this
    frame's ``v`` is the version before them."""

    v: int
    t: Literal["timed_out"]
    data: TimedOutData


@with_config(FORBID)
class AwayFrame(TypedDict):
    """A seat went away (after its second turn in a row out of time) or came back."""

    v: int
    t: Literal["away"]
    data: AwayData


GAME_FRAMES = (DealStartedEvent, DrewEvent, LaidDownEvent, LaidOffEvent, DiscardedEvent,
               StockRebuiltEvent, DealEndedEvent, GameFinishedEvent, TurnTimerFrame,
               TimedOutFrame, AwayFrame)


class ActionResult(TypedDict):
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


class OtherPerson(Out):
    seat: int = Field(ge=0, le=3)
    name: str = Field(description="Their display name now.")


class GameSummary(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    table_name: Annotated[str | None, Field(
        description="The name of the table for friends the game was started at, as it was "
                    "then; null for a game played alone (or a table's game started before "
                    "2026-12-06).")]
    people: list[OtherPerson] = Field(description=(
        "The other people who sat at the game (a table's: your friends, those who left it "
        "too), by seat; empty for a game played alone. The bots are not listed."))
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
    level: Level = DEFAULT_LEVEL


# A plain pydantic model, as the response shapes are (games.web.schemas.Out): django-ninja takes
# one as a body as it takes its ``Schema``, whose wrap validator reads a dict through its ORM
# getter. The OpenAPI document is the same.
class ActionRequest(BaseModel):
    """An action on a game at the version you saw."""

    version: JsonInt = Field(ge=0, le=INT32_MAX,
                               description="The version of the game you are acting on.")
    action: SentAction


class HintReason(Out):
    code: Literal[REASON_CODES] = Field(
        description="Why the expert makes this move: stable, for a client to switch on (and "
                    "translate). docs/api.md lists every code.")
    message: str = Field(description="The reason in English, for people.")


class Hint(Out):
    version: int = Field(description="The version of the game the hint is for.")
    action: Action | None = Field(
        description="What the server's expert player (the hard level, seeing only your view) "
                    "would do now, as POST /games/{id}/actions takes it: which pile to draw "
                    "from, the lay-down, a lay-off or the discard. Null when you have nothing "
                    "to do (not your turn, game over).")
    reason: HintReason
    lay_down: list[list[CardId]] | None = Field(
        description="The expert's melds when its move is to lay the contract down (the same as "
                    "action.melds), else null.")
    lay_off: list[LayOff] = Field(
        description="Every lay-off open now (as the game's legal.lay_off: each the action as "
                    "POST /games/{id}/actions takes it); the expert's own choice among them "
                    "is the action.")


class ReplayAction(Out):
    index: int
    seat: int
    action: Action


class ReplayDeal(Out):
    deal: int
    dealer: int
    discard_top: Card
    hands: list[list[Card]]


class ReplayPlayer(Out):
    seat: int
    name: str = Field(description="A person's display name now, or the computer player's.")
    bot: bool = Field(description=(
        "A computer player's seat from the start (until 2026-12-06 also a seat whose person "
        "left the game: see ``left``)."))
    left: int | None = Field(None, ge=0, description=(
        "The version at which this seat's person left the game: from it on the computer "
        "played the seat (its events carry ``bot``); null if they stayed to the end."))


# --- A replay's events (games.reads.replays) --------------------------------------------------
# The game's events with every card face up: each ``t`` a named schema, as ``Event``'s, whose
# ``data`` is the same named schema (the public part: a replay's ``deal_started`` has no
# ``hand``, a stock draw no ``card``), and whose hidden parts, per seat, are in ``private``.

_OPEN_BOT = Annotated[bool, Field(
    description="True on the events of a person's move the computer chose for them (their "
                "time ran out, they were away or had left), as GET /games/{id}/events marks "
                "them; absent otherwise.")]


@with_config(FORBID)
class DealStartedPrivateData(TypedDict):
    hand: Annotated[list[Card], Field(description="The seat's hand as dealt.")]


@with_config(FORBID)
class DealStartedPrivatePart(TypedDict):
    seat: Seat
    data: DealStartedPrivateData


@with_config(FORBID)
class DrewPrivateData(TypedDict):
    card: Annotated[Card, Field(description="The card drawn from the stock.")]


@with_config(FORBID)
class DrewPrivatePart(TypedDict):
    seat: Seat
    data: DrewPrivateData


@with_config(FORBID)
class OpenDealStartedEvent(TypedDict):
    """A deal began; ``private`` holds each seat's hand as dealt."""

    v: _V
    t: Literal["deal_started"]
    data: Annotated[DealStartedData, Field(description="What everyone saw (no `hand`).")]
    private: Annotated[list[DealStartedPrivatePart], Field(
        min_length=4, max_length=4, description="Each seat's own part, by seat: its `data` "
                                                "updated with it is that seat's view.")]


@with_config(FORBID)
class OpenDrewEvent(TypedDict):
    """A seat drew; from the stock, ``private`` holds the card it drew."""

    v: _V
    t: Literal["drew"]
    data: Annotated[DrewData, Field(description="What everyone saw (from the stock: no "
                                                "`card`).")]
    private: NotRequired[Annotated[list[DrewPrivatePart], Field(
        min_length=1, max_length=1, description="From the stock: the drawer's part, the card "
                                                "(its `data` updated with it is the drawer's "
                                                "view); absent from the discard pile.")]]
    bot: NotRequired[_OPEN_BOT]


@with_config(FORBID)
class OpenLaidDownEvent(TypedDict):
    """A seat laid its contract down."""

    v: _V
    t: Literal["laid_down"]
    data: LaidDownData
    bot: NotRequired[_OPEN_BOT]


@with_config(FORBID)
class OpenLaidOffEvent(TypedDict):
    """A seat laid a card off on a meld of the table."""

    v: _V
    t: Literal["laid_off"]
    data: LaidOffData
    bot: NotRequired[_OPEN_BOT]


@with_config(FORBID)
class OpenDiscardedEvent(TypedDict):
    """A seat discarded, ending its turn."""

    v: _V
    t: Literal["discarded"]
    data: DiscardedData
    bot: NotRequired[_OPEN_BOT]


@with_config(FORBID)
class OpenStockRebuiltEvent(TypedDict):
    """The stock ran out and was shuffled again from the discard pile (R20)."""

    v: _V
    t: Literal["stock_rebuilt"]
    data: StockRebuiltData


@with_config(FORBID)
class OpenDealEndedEvent(TypedDict):
    """A deal ended: who went out, each seat's penalty points and contracts."""

    v: _V
    t: Literal["deal_ended"]
    data: DealEndedData


@with_config(FORBID)
class OpenGameFinishedEvent(TypedDict):
    """The game is over: its result."""

    v: _V
    t: Literal["game_finished"]
    data: GameFinishedData


# One event of a replay, every card face up, told apart by ``t`` as ``Event`` is. ``bot``
# marks only the events of a seat's own move (games.reads.replays._opened), not a deal's end
# or start that the move led to.
OpenEvent = TypeAliasType("OpenEvent", Annotated[
    OpenDealStartedEvent | OpenDrewEvent | OpenLaidDownEvent | OpenLaidOffEvent
    | OpenDiscardedEvent | OpenStockRebuiltEvent | OpenDealEndedEvent | OpenGameFinishedEvent,
    Field(discriminator="t")])


class AnalysisMark(Out):
    v: int = Field(description="The version at which you decided: the replay's state there "
                               "shows the moment, your move is the next action.")
    deal: int = Field(ge=1, le=10)
    kind: Literal["draw", "discard", "lay_down", "lay_off"] = Field(
        description="The expert's move: which pile to draw from, which card to discard, a "
                    "lay-down or a lay-off you missed.")
    played: Action = Field(description="Your move.")
    expert: Action = Field(description="The expert's move, as the hint would have given it.")
    reason: HintReason = Field(description="Why the expert makes its move: the hint's codes.")
    cost: float = Field(ge=-1, le=1, description=(
        "The chance to win the game your move gave up against the expert's, by the expert's "
        "estimate (0.03: 3 points of percentage); below 0 where its imagined deals preferred "
        "your move."))


class ReplayAnalysis(Out):
    """The expert's review of your decisions in this game (docs/api.md, "Replays")."""

    state: Literal["ready", "pending", "none", "failed"] = Field(
        description="pending: not written yet (it is, soon after the game or its daily's day "
                    "ends); none: the game was over before analyses began (or long ago); "
                    "failed: the expert failed on this game, and there is none.")
    seat: int = Field(ge=0, le=3, description="The seat you played.")
    decisions: int = Field(ge=0, description="Your moves that were choices (not forced), "
                                              "of those you chose yourself.")
    bot_turns: int = Field(0, ge=0, description=(
        "Your turns in which the computer chose a move for you (your timer ran out, you were "
        "away or had left): its moves are in no count and no mark."))
    agreed: int = Field(ge=0, description="Those where the expert would have done the same.")
    marks: list[AnalysisMark] = Field(description="Each decision where it would not, in order.")
    costliest: int | None = Field(description="The index in marks of the one with the highest "
                                              "cost; null when none cost anything.")


class Replay(Out):
    id: str
    mode: Literal["practice", "daily"]
    level: Level
    daily: date | None
    seed: str
    engine_version: int
    version: int = Field(description="Actions in the game: the last version.")
    finished_at: datetime | None
    table_name: str | None = Field(description=(
        "The name of the table for friends the game was started at, as it was then; null "
        "for a game played alone (or a table's game started before 2026-12-06)."))
    yours: bool = Field(description="Whether the caller sat at the game (left it or not).")
    seat: int | None = Field(None, ge=0, le=3, description=(
        "The seat the caller sat at: the replay's \"you\"; null for a watcher."))
    players: list[ReplayPlayer]
    deals: list[ReplayDeal]
    actions: list[ReplayAction]
    events: list[OpenEvent] = Field(
        description="Every event of the game in order, every card face up: applied one by one "
                    "from version 0 they rebuild the state at every version.")
    result: list[SeatResult]
    analysis: ReplayAnalysis | None = Field(
        description="Your own seat's post-game analysis; null when you did not sit at the "
                    "game (nobody sees another person's).")


# --- The daily (games.api_daily) ---------------------------------------------------------


class DailyAttempt(Out):
    state: Literal["none", "active", "finished", "expired"]
    game: str | None = Field(description="The game's id: resume it with GET /games/{id}.")
    result: PersonResult | None


class Daily(Out):
    date: date
    level: Level = Field(
        description="The computer players' level: the same for everyone.")
    commitment: str = Field(description="SHA-256 of the seed, hex: published from the start.")
    seed: str | None = Field(description="Revealed once the day has ended (UTC); null before.")
    revealed: bool
    ends_at: datetime = Field(description="The day's end, 24:00 UTC: the next daily starts.")
    seconds_left: int
    attempt: DailyAttempt


class DailyDeals(Out):
    date: date
    commitment: str = Field(description="SHA-256 of the seed, hex, as published that day.")
    seed: str
    first_dealer: int = Field(ge=0, le=3, description="R3: drawn from the seed.")
    deals: list[ReplayDeal] = Field(min_length=10, max_length=10,
                                    description="Deals 1-10: hands by seat, seat 0 the person.")
