"""Friend leagues over HTTP (docs/api.md, "Friend leagues"), mounted at /api/v1/leagues.

A league is visible to its members only: any other caller gets 404 ``not_found`` for it,
whether or not it exists. A join code reveals the league's name and member count, nothing
more, until one joins.

- ``GET /leagues``: my leagues. ``POST /leagues {"name"}``: create one (201).
- ``GET /leagues/today``: today in each of my leagues (for home and the daily page): ranked
  entries once I have finished today's daily, before that only who has played.
- ``GET /leagues/join/{code}``: a code's league, name and member count only.
  ``POST /leagues/join/{code}``: join it (201); 409 ``already_member`` the second time.
- ``GET /leagues/{id}``: the league and its boards (today, yesterday, this week, all time;
  a day's entries name their game for its replay once the day has ended, never while it
  runs). ``PATCH`` renames (creator),
  ``DELETE`` deletes (creator). ``POST /leagues/{id}/code``: a new code (creator); the old
  one answers 404 ``invalid_league_code`` from then on.
- ``DELETE /leagues/{id}/members/{player_id}``: leave (your own id) or remove a member
  (creator).

Bounds: a name is 2-40 characters under the player names' rules (games.players.names); a
league has at most 100 members (409 ``league_full``), a player at most 20 leagues (409
``too_many_leagues``). Creating is throttled per player (``THROTTLE_LEAGUES``), code look-ups
and joins per address, an IPv6 one by its /64, whatever the identity, in ten minutes and in a
day (``THROTTLE_LEAGUE_CODES``, ``THROTTLE_LEAGUE_CODES_DAY``): 429 with ``Retry-After``. A
member who is not the creator gets 403 ``creator_only`` for the creator's actions.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import partial
from typing import Annotated, Literal

from django.http import HttpRequest, HttpResponse
from ninja import Path, Router, Status
from pydantic import BaseModel, ConfigDict, Field

from games import daily
from games.players.identity import (
    AUTH_OPTIONAL,
    PLAYER,
    PLAYER_OR_ANONYMOUS,
    PLAYER_OR_NEW_BROWSER,
    player_for_write,
    player_of,
)
from games.web.renderer import json_answer
from games.web.schemas import Error, PublicId, text
from games.web.throttles import Throttle, guesses
from leaderboards.leagues import boards, services
from leaderboards.leagues.models import (
    CODE_CHARS,
    LEAGUES_PER_PLAYER_MAX,
    MEMBERS_MAX,
    NAME_MAX_CHARS,
    NAME_MIN_CHARS,
    normalise_code,
)

router = Router(tags=["leagues"])
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 422: Error}

# Rates: settings.THROTTLE_RATES. "identities" is the same count games.api keeps of new
# browsers, so a first write here counts with the others.
NEW_IDENTITIES = Throttle("identities", by="address", new_identities_only=True)
LEAGUES_CREATED = Throttle("leagues", by="player")
CODE_GUESSES = guesses("league_codes")  # per address, whatever the identity

LeagueName = text(NAME_MAX_CHARS, NAME_MIN_CHARS, description=(
    f"{NAME_MIN_CHARS}-{NAME_MAX_CHARS} characters under the rules of a player's name: letters "
    "(any script, at most two combining marks each), digits, spaces and - _ . ' after NFKC "
    "normalisation, at least one letter and two visible letters or digits; no filler, "
    "invisible character or enclosing mark; not a look-alike of a reserved name."))
CODE_TEXT_MAX_CHARS = CODE_CHARS + 8  # with its dashes and a few spaces, as typed
LeagueCode = Annotated[str, Path(
    pattern=r"^[0-9A-Za-z][0-9A-Za-z -]*$", min_length=CODE_CHARS,
    max_length=CODE_TEXT_MAX_CHARS, example="K7QD-2MXW-P4RT",
    description="A league's join code as shown or typed (case, spaces and dashes do not "
                "matter).")]


class PlayerRef(BaseModel):
    id: str
    name: str


class LeagueOut(BaseModel):
    id: str
    number: int = Field(description="Shown as 'League #number' while a moderator hides the "
                                    "name.")
    name: str = Field(description="The name, or 'League #number' while hidden.")
    name_hidden: bool
    code: str = Field(description="The join code to read aloud, e.g. K7QD-2MXW-P4RT.")
    join_path: str = Field(description="The join link's path on this site.")
    members: int = Field(ge=1, le=MEMBERS_MAX)
    created_at: datetime
    creator: PlayerRef | None
    you_created: bool


class LeagueList(BaseModel):
    leagues: list[LeagueOut] = Field(max_length=LEAGUES_PER_PLAYER_MAX)


# A league's socket frames (leaderboards.leagues.consumers; ladder/asyncapi.py publishes them):
# news only, never results.
FRAME = ConfigDict(extra="forbid")


class LeaguePlayedData(BaseModel):
    model_config = FRAME
    player: PlayerRef


class LeaguePlayedFrame(BaseModel):
    """A member finished today's daily: read the board again."""

    model_config = FRAME
    t: Literal["played"]
    data: LeaguePlayedData


class LeagueNewsData(BaseModel):
    model_config = FRAME


class LeagueNewsFrame(BaseModel):
    """``members``: someone joined, left or was removed; ``league``: renamed, a new code, a
    name hidden or restored; ``deleted``: the league is gone."""

    model_config = FRAME
    t: Literal["members", "league", "deleted"]
    data: LeagueNewsData


LEAGUE_FRAMES = (LeaguePlayedFrame, LeagueNewsFrame)


class NewLeague(BaseModel):
    name: LeagueName


class Preview(BaseModel):
    number: int
    name: str
    name_hidden: bool
    members: int


class Member(PlayerRef):
    creator: bool


class DayEntry(BaseModel):
    rank: int = Field(description="Among the league's members, ranked as the public board "
                                  "(R22).")
    player: PlayerRef
    contracts: int
    penalty: int
    finished_at: datetime
    game: str | None = Field(description=(
        "The member's daily, for its replay (/replay/{game}/ and GET /replays/{game}), once "
        "its day has ended (R26): always on yesterday's board, null on today's while it "
        "runs."))


class Today(BaseModel):
    date: date
    results_shown: bool = Field(description="False until you finish today's daily: then "
                                            "'entries' is empty and only 'played' is given.")
    entries: list[DayEntry]
    played: list[PlayerRef]
    not_played: list[PlayerRef]


class Yesterday(BaseModel):
    date: date
    entries: list[DayEntry] = Field(max_length=MEMBERS_MAX, description=(
        "Yesterday's daily among the members, ranked as the public board (R22), each entry "
        "with its game's replay."))


class WeekEntry(BaseModel):
    rank: int
    player: PlayerRef
    contracts: int
    penalty: int
    days: int


class Week(BaseModel):
    week: str
    entries: list[WeekEntry] = Field(description="Sums over the week's dailies (today's once "
                                                 "you have finished it).")


class AllTimeEntry(BaseModel):
    player: PlayerRef
    dailies: int
    contracts: int
    average_rank: float = Field(description="Average place among the members on the days "
                                            "played.")
    current_streak: int
    longest_streak: int


class LeaguePage(BaseModel):
    league: LeagueOut
    members: list[Member] = Field(max_length=MEMBERS_MAX)
    today: Today
    yesterday: Yesterday
    week: Week
    all_time: list[AllTimeEntry] = Field(description="Since the league began.")


class Standing(BaseModel):
    league: Preview
    entries: list[DayEntry]
    played: list[PlayerRef]
    not_played: list[PlayerRef]


class Standings(BaseModel):
    date: date
    results_shown: bool
    leagues: list[Standing] = Field(max_length=LEAGUES_PER_PLAYER_MAX)


def _page(request: HttpRequest, league_id: str) -> dict:
    league = boards.league_of(request.auth, league_id)
    return boards.league_page(league, request.auth)


@router.get("", response={200: LeagueList, **ERRORS}, auth=PLAYER)
def list_leagues(request: HttpRequest):
    """The leagues you are in."""
    return {"leagues": boards.my_leagues(request.auth)}


@router.post("", response={201: LeagueOut, **ERRORS}, auth=PLAYER_OR_NEW_BROWSER,
             throttle=[NEW_IDENTITIES, LEAGUES_CREATED])
def create_league(request: HttpRequest, payload: NewLeague, response: HttpResponse):
    """Create a league (you are its first member and its creator) and get its join code."""
    name = services.clean_league_name(payload.name)
    player = player_for_write(request, response)
    league = services.create_league(player, name)
    return Status(201, boards.league_json(league, player, 1))


@router.get("/today", response={200: Standings, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL)
def todays_standings(request: HttpRequest):
    """Today in each of your leagues: ranked once you have finished today's daily, before
    that only who has played (no spoilers). Without an identity: no leagues."""
    player = player_of(request)
    if player is None:
        return {"date": daily.today(), "results_shown": False, "leagues": []}
    return boards.my_standings_today(player)


def _code(raw: str) -> str:
    code = normalise_code(raw)
    if code is None:
        raise services.unknown_code()
    return code


@router.get("/join/{code}", response={200: Preview, **ERRORS}, auth=PLAYER_OR_ANONYMOUS,
            openapi_extra=AUTH_OPTIONAL, throttle=CODE_GUESSES)
def preview_league(request: HttpRequest, code: LeagueCode):
    """What a join link shows before joining: the league's name and member count only."""
    found = boards.preview(_code(code))
    if found is None:
        raise services.unknown_code()
    return found


@router.post("/join/{code}", response={201: LeagueOut, **ERRORS},
             auth=PLAYER_OR_NEW_BROWSER, throttle=[NEW_IDENTITIES, *CODE_GUESSES])
def join_league(request: HttpRequest, code: LeagueCode, response: HttpResponse):
    """Join the league of this code (no account needed)."""
    code = _code(code)
    if boards.preview(code) is None:  # no player is made for a code that leads nowhere
        raise services.unknown_code()
    player = player_for_write(request, response)
    return Status(201, services.answered(player, partial(services.join, player, code)))


@router.get("/{league_id}", response={200: LeaguePage, **ERRORS}, auth=PLAYER)
def get_league(request: HttpRequest, league_id: PublicId):
    """The league, its members and its boards: today, yesterday (with each member's replay),
    this week, all time."""
    return json_answer(_page(request, league_id))


@router.patch("/{league_id}", response={200: LeagueOut, **ERRORS}, auth=PLAYER)
def rename_league(request: HttpRequest, league_id: PublicId, payload: NewLeague):
    """Rename (the creator only)."""
    return services.answered(request.auth, partial(services.rename, request.auth,
                                                   league_id, payload.name))


@router.api_operation(["DELETE"], "/{league_id}", response={204: None, **ERRORS},
                      auth=PLAYER)
def delete_league(request: HttpRequest, league_id: PublicId):
    """Delete the league (the creator only). Its members' scores stay on the public boards."""
    services.delete_league(request.auth, league_id)
    return Status(204, None)


@router.post("/{league_id}/code", response={200: LeagueOut, **ERRORS}, auth=PLAYER)
def renew_code(request: HttpRequest, league_id: PublicId):
    """A new join code and link (the creator only): the old ones stop working at once."""
    return services.answered(request.auth, partial(services.renew_code, request.auth,
                                                   league_id))


@router.api_operation(["DELETE"], "/{league_id}/members/{player_id}",
                      response={204: None, **ERRORS}, auth=PLAYER)
def remove_member(request: HttpRequest, league_id: PublicId, player_id: PublicId):
    """Leave (your own id), or take a member out (the creator only)."""
    services.remove_member(request.auth, league_id, player_id)
    return Status(204, None)
