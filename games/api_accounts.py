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
from django.utils import translation
from ninja import Router, Status
from ninja.errors import Throttled
from pydantic import Field

from games import throttles
from games.api_common import ERRORS, me_json
from games.errors import ApiError
from games.identity import (
    PLAYER,
    PLAYER_OR_NEW_BROWSER,
    bearer_token,
    clear_player_cookie,
    player_for_write,
    require_csrf,
    set_player_cookie,
)
from games.schemas import Credentials, Error, Me, Out, TransferCodeIn
from games.services import accounts
from games.throttles import Throttle, address_ident, hit, release

router = Router(tags=["accounts"], by_alias=True, exclude_unset=True)

TRANSFER_BY_ADDRESS = Throttle("transfer", by="address")


class TransferCodeOut(Out):
    code: str = Field(description="Type it in the other browser within the time given.")
    expires_at: datetime


def _refuse(exc: accounts.AccountError) -> ApiError:
    return ApiError(exc.status, exc.code, exc.message)


@router.post("/account/register", response={201: Me, 409: Error, **ERRORS},
             auth=PLAYER_OR_NEW_BROWSER)
def register(request: HttpRequest, payload: Credentials, response: HttpResponse):
    """Keep this identity across devices: attach a username and password to it."""
    # Django's password validators explain a weak password in the asker's language: the only
    # translated text of the API, which goes past LocaleMiddleware (ladder.middleware).
    try:
        with translation.override(translation.get_language_from_request(request)):
            accounts.clean_username(payload.username)  # refuse bad input before creating anyone
            player = player_for_write(request, response)
            accounts.register(player, payload.username, payload.password)
    except accounts.AccountError as exc:
        raise _refuse(exc) from None
    return Status(201, me_json(player))


@router.post("/account/login", response={200: Me, **ERRORS}, auth=None)
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
    waits = [wait_s for scope, ident in counts if (wait_s := hit(scope, ident, now)) is not None]
    if waits:
        raise Throttled(max(1, math.ceil(max(waits))))
    try:
        player = accounts.log_in(payload.username, payload.password)
    except accounts.AccountError as exc:
        raise _refuse(exc) from None
    for scope, ident in counts:
        release(scope, ident, now)
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
    try:
        player = accounts.redeem_transfer_code(payload.code)
    except accounts.AccountError as exc:
        raise _refuse(exc) from None
    set_player_cookie(response, player)
    return me_json(player)
