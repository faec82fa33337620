"""The shapes every router shares (docs/api.md): the one error shape, the bounds on what clients
send (every string has a maximum length and a pattern — at least no NUL character, which
PostgreSQL's text refuses; pydantic refuses lone surrogates itself —, every integer a range,
body integers strict: no ``"2"``, no ``true``), and the path parameters several routers take.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from ninja import Path
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


class Out(BaseModel):
    """Response shapes: plain pydantic models (validated natively: django-ninja's Schema wraps
    every nested object for ORM access, which costs a millisecond per GameView)."""

    model_config = ConfigDict(populate_by_name=True)


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
Week = Annotated[str, Path(pattern=WEEK, max_length=8, example="2026-W48",
                           description="An ISO week, YYYY-Www.")]
CURSOR = r"^[A-Za-z0-9_-]+={0,2}$"  # urlsafe base64 (leaderboards.ranking.encode_cursor)

# A field its schema refuses answers the code its endpoint gives that field's other refusals
# (clients translate by code); any other schema refusal is ``invalid_request``.
FIELD_ERROR_CODES = {"name": "invalid_name", "username": "invalid_username",
                     "code": "invalid_transfer_code", "week": "invalid_week",
                     "after": "invalid_cursor"}


# --- Errors -------------------------------------------------------------------------------


# Every code an error answer may carry (docs/api.md's catalogue gives each its status):
# tests/test_error_codes.py finds each one the source raises here, and nothing else.
ErrorCode = Literal[
    # By status, where nothing more precise applies (games.web.errors.STATUS_CODES).
    "bad_request", "unauthorized", "forbidden", "not_found", "method_not_allowed", "conflict",
    "body_too_large", "invalid_request", "throttled", "server_error", "unavailable",
    # Identity and accounts.
    "no_identity", "invalid_token", "invalid_credentials", "csrf_failed", "username_taken",
    "already_registered", "invalid_username", "weak_password", "invalid_transfer_code",
    "invalid_name", "reserved_name",
    # Games, hints and replays.
    "stale_version", "turn_timed_out", "no_hints_in_ranked_games", "no_hints_at_shared_games",
    "hint_unavailable", "replay_unavailable", "daily_over", "invalid_week", "invalid_cursor",
    # Tables and leagues.
    "host_only", "banned", "table_full", "table_started", "not_enough_people",
    "invalid_level", "invalid_turn_seconds", "invalid_reaction", "creator_only",
    "invalid_league_code", "already_member", "league_full", "too_many_leagues",
    # An action the engine refuses (games.engine: with its rule where one applies).
    "malformed_action", "unknown_action", "unknown_card", "game_over", "not_your_turn",
    "already_drawn", "draw_first", "card_not_in_hand", "discard_pile_empty", "no_discard_left",
    "already_laid_down", "not_the_contract", "contract_not_laid_down", "lay_off_same_turn",
    "no_such_meld", "does_not_fit", "choose_end", "discard_taken_card",
    "meld_needs_two_naturals", "group_too_short", "not_a_meld", "run_too_short",
    "run_not_consecutive",
]


class ErrorDetail(Out):
    code: ErrorCode = Field(description="Stable, machine-readable: switch on this. "
                                        "docs/api.md's catalogue gives each its status.")
    message: str = Field(description="For people (English).")
    rule: str | None = Field(None, description="The rule broken, e.g. R16 (docs/rules.md).")
    details: list[dict[str, Any]] | None = None


class Error(Out):
    error: ErrorDetail


# The refusals every endpoint may answer. A rate-limited endpoint's 429, and the 503 any
# endpoint answers while the database is away, are stated by ladder/openapi.py.
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 422: Error}
