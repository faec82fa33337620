"""The players' request and response shapes (games.players.api), bounded as
games.web.schemas bounds everything a client sends."""

from __future__ import annotations

from datetime import datetime

from ninja import Schema
from pydantic import ConfigDict, Field

from games.players.names import NAME_MAX_CHARS, NAME_MIN_CHARS
from games.players.services import (
    CODE_CHARS,
    PASSWORD_MAX_CHARS,
    USERNAME_MAX_CHARS,
    USERNAME_MIN_CHARS,
)
from games.web.schemas import Out, text


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


class SocketTicket(Out):
    ticket: str = Field(description=(
        "Open one websocket with it, once, before it expires: add '?ticket=<ticket>' to the"
        " socket's URL (docs/api.md, 'Websockets')."))
    expires_at: datetime
