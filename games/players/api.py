"""Accounts and transfer codes (optional ways to keep an identity), mounted at /api/v1/.

- ``POST /account/register`` ``{"username", "password"}``: attach an account to me (a
  browser's first write creates the player, as ``POST /games`` does).
- ``POST /account/login``: a browser takes the account's player (cookie set; CSRF-checked
  like any login). Failed logins are limited per (username, address) (``THROTTLE_LOGIN``) and
  per address over all usernames (``THROTTLE_LOGIN_ADDRESS``), never per username alone: an
  attacker guessing a password cannot lock its owner out, who logs in from another address.
- ``POST /account/logout``: revokes the credential it came with (the bearer token, or the
  player's cookies: a copied cookie stops working too) and clears the cookie.
- ``POST /transfer-codes``: a one-time code for moving my identity to another browser.
- ``POST /transfer-codes/redeem`` ``{"code"}``: this browser takes the identity (CSRF-checked,
  throttled per address); that player's older cookies and bearer token stop working.
"""

from __future__ import annotations

import math
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation
from ninja import Router, Status
from ninja.errors import Throttled
from pydantic import Field

from games.players import services as accounts
from games.players.identity import (
    BEARER_ONLY,
    PLAYER,
    PLAYER_OR_NEW_BROWSER,
    bearer_token,
    clear_player_cookie,
    hash_token,
    new_token,
    player_for_write,
    require_csrf,
    set_player_cookie,
)
from games.players.models import Player
from games.players.names import clean_name
from games.players.schemas import (
    Credentials,
    CsrfToken,
    Me,
    MeUpdate,
    NewPlayer,
    SocketTicket,
    TransferCodeIn,
)
from games.web import throttles
from games.web.schemas import ERRORS, Error, Out
from games.web.throttles import Throttle, address_ident, release

router = Router(tags=["accounts"], by_alias=True, exclude_unset=True)

# Rates: settings.THROTTLE_RATES (env THROTTLE_IDENTITIES).
NEW_IDENTITIES = Throttle("identities", by="address", new_identities_only=True)

TRANSFER_BY_ADDRESS = Throttle("transfer", by="address")
SOCKET_TICKETS = Throttle("socket_tickets", by="player")


class TransferCodeOut(Out):
    code: str = Field(description="Type it in the other browser within the time given.")
    expires_at: datetime


def me_json(player: Player) -> dict:
    user = player.user if player.user_id else None
    return {"id": player.public_id, "name": player.name, "registered": user is not None,
            "username": user.username if user else None, "created_at": player.created_at}


# --- Players and me -----------------------------------------------------------------------


@router.get("/csrf", response={200: CsrfToken}, auth=None, tags=["players"])
def csrf(request: HttpRequest):
    """Sets the ``csrftoken`` cookie and returns its value: browsers send it back as
    ``X-CSRFToken`` on every unsafe request."""
    return {"csrf_token": get_token(request)}


@router.post("/players", response={201: NewPlayer, **ERRORS}, auth=None, tags=["players"],
             throttle=[NEW_IDENTITIES])
def create_player(request: HttpRequest):
    """A new anonymous player for a third-party client. The token is returned only here: send
    it as ``Authorization: Bearer <token>``; only its hash is kept."""
    token = new_token()
    player = accounts.create_player(token_hash=hash_token(token))
    return Status(201, {"id": player.public_id, "name": player.name, "token": token})


@router.get("/me", response={200: Me, **ERRORS}, auth=PLAYER, tags=["players"])
def get_me(request: HttpRequest):
    return me_json(request.auth)


@router.patch("/me", response={200: Me, **ERRORS}, auth=PLAYER_OR_NEW_BROWSER,
              tags=["players"], throttle=[NEW_IDENTITIES])
def patch_me(request: HttpRequest, payload: MeUpdate, response: HttpResponse):
    """Change the display name: 2-24 letters, digits, spaces and ``- _ . '``."""
    name = clean_name(payload.name)
    player = player_for_write(request, response)
    return me_json(accounts.rename_player(player, name))


# --- Accounts and transfer codes ------------------------------------------------------------


@router.post("/account/register", response={201: Me, 409: Error, **ERRORS},
             auth=PLAYER_OR_NEW_BROWSER)
def register(request: HttpRequest, payload: Credentials, response: HttpResponse):
    """Keep this identity across devices: attach a username and password to it."""
    # Django's password validators explain a weak password in the asker's language: the only
    # translated text of the API, which goes past LocaleMiddleware (ladder.middleware).
    with translation.override(translation.get_language_from_request(request)):
        accounts.clean_username(payload.username)  # refuse bad input before creating anyone
        player = player_for_write(request, response)
        accounts.register(player, payload.username, payload.password)
    return Status(201, me_json(player))


@router.post("/account/login", response={200: Me, **ERRORS}, auth=None,
             openapi_extra={"x-rate-limits": [
                 {"policy": "login", "per": "username and client address, failed logins"},
                 {"policy": "login_address", "per": "client address, failed logins"}]})
def login(request: HttpRequest, payload: Credentials, response: HttpResponse):
    """A browser takes the account's identity (and its games). Failed logins are limited per
    (username, address) and per address: 429 with Retry-After."""
    require_csrf(request)
    address = address_ident(request)
    counts = [("login", f"u:{payload.username.strip().lower()}|{address}"),
              ("login_address", address)]
    # Every attempt is counted before the password is checked, so that parallel guesses
    # cannot all pass under the limit, and a success takes its counts back.
    now = throttles.clock()
    windows = [window for scope, ident in counts
               if (window := throttles.count(scope, ident, now)) is not None]
    for window in windows:
        throttles.note(request, window)
    waits = [window.wait_s for window in windows if window.wait_s is not None]
    if waits:
        raise Throttled(max(1, math.ceil(max(waits))))
    player = accounts.log_in(payload.username, payload.password)
    for scope, ident in counts:
        release(scope, ident, now)
    for window in windows:
        throttles.note(request, throttles.given_back(window))
    set_player_cookie(response, player)
    return me_json(player)


@router.post("/account/logout", response={204: None, **ERRORS}, auth=PLAYER)
def logout(request: HttpRequest, response: HttpResponse):
    """Revoke the credential this request came with: the bearer token, or the player's
    cookies (copies included). An account can log back in; an anonymous identity without an
    account is gone."""
    accounts.log_out(request.auth, by_token=bearer_token(request) is not None)
    clear_player_cookie(response)
    return Status(204, None)


@router.post("/transfer-codes", response={201: TransferCodeOut, **ERRORS}, auth=PLAYER)
def create_transfer_code(request: HttpRequest):
    """A one-time code that moves my identity to another browser (no account needed)."""
    code, record = accounts.create_transfer_code(request.auth)
    return Status(201, {"code": code, "expires_at": record.expires_at})


@router.post("/transfer-codes/redeem", response={200: Me, **ERRORS}, auth=None,
             throttle=[TRANSFER_BY_ADDRESS])
def redeem_transfer_code(request: HttpRequest, payload: TransferCodeIn, response: HttpResponse):
    """This browser takes the identity the code was made for."""
    require_csrf(request)
    player = accounts.redeem_transfer_code(payload.code)
    set_player_cookie(response, player)
    return me_json(player)


# --- Socket tickets -------------------------------------------------------------------------


@router.post("/socket-tickets", response={201: SocketTicket, **ERRORS}, auth=BEARER_ONLY,
             tags=["players"], throttle=[SOCKET_TICKETS])
def create_socket_ticket(request: HttpRequest):
    """A ticket that opens one websocket as you, once, within 30 seconds: for a client that
    cannot set the handshake's ``Authorization`` header (a page's ``WebSocket``, on any
    origin). Add ``?ticket=<ticket>`` to the socket's URL; a ticket unknown, used or expired
    closes the socket with 4401. Bearer token only: a page of this site has its cookie."""
    ticket, expires_at = accounts.issue_socket_ticket(request.auth)
    return Status(201, {"ticket": ticket, "expires_at": expires_at})
