"""Anonymous identity (docs/api.md): a signed cookie or a bearer token becomes ``request.auth``,
a :class:`~games.models.Player`.

Browsers
    hold ``ladder_player``: a signed (``SECRET_KEY``), HttpOnly, SameSite=Lax cookie, Secure
    when not ``DEBUG``, naming the player's public id and cookie epoch. It is checked by
    :class:`PlayerCookie`, django-ninja's ``APIKeyCookie`` with ``csrf=True``, so every unsafe
    request that the cookie authenticates must pass Django's CSRF check (the ``csrftoken``
    cookie echoed in an ``X-CSRFToken`` header; django-ninja checks CSRF only through its
    cookie-auth classes). Bumping
    ``Player.cookie_epoch`` revokes every cookie issued before, copies included (logging out
    and redeeming a transfer code do).

    A browser gets its player on its first write: ``POST /games`` and ``PATCH /me`` accept a
    request with no identity at all (:class:`NewBrowser`), provided it passes the CSRF check,
    create the player and set the cookie on the response. Reads never create players: they
    answer 401 ``no_identity``.

The browser itself
    holds ``ladder_device``, a second signed cookie (HttpOnly, SameSite=Lax, 400 days) set on
    the browser's first write and kept when its identity changes (logging out, a new
    anonymous player, a transfer): it names the browser, not the player. The daily keeps its
    keyed hash, so two identities of one browser playing the same daily are linked for
    moderation (leaderboards.flags). Bearer clients get none.

Third-party clients
    call ``POST /players`` and get a token once; they send ``Authorization: Bearer <token>``.
    Only the token's SHA-256 is stored; logging out with the token, or moving the identity
    with a transfer code, clears it. A bearer request needs no CSRF token (browsers never
    add the header on their own). A request with an unknown token is refused (401
    ``invalid_token``), never treated as anonymous.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from games.players import services
from games.players.models import Player, sha256_hex
from games.web import errors
from games.web.rows import select_row

COOKIE_NAME = "ladder_player"
# The salts predate games.players: a new salt would void every cookie already signed.
COOKIE_SALT = "games.identity"
DEVICE_COOKIE = "ladder_device"
DEVICE_SALT = "games.identity.device"
COOKIE_MAX_AGE_S = 400 * 24 * 3600  # browsers cap cookies at 400 days
TOKEN_PREFIX = "lr_"
LAST_SEEN_RESOLUTION = timedelta(minutes=10)  # don't write on every request


# --- Tokens and cookies -------------------------------------------------------------------


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return sha256_hex(token)


def cookie_value(player: Player) -> str:
    return f"{player.public_id}:{player.cookie_epoch}"


def set_player_cookie(response: HttpResponse, player: Player) -> None:
    response.set_signed_cookie(
        COOKIE_NAME, cookie_value(player), salt=COOKIE_SALT, max_age=COOKIE_MAX_AGE_S,
        httponly=True, samesite="Lax", secure=not settings.DEBUG)


def clear_player_cookie(response: HttpResponse) -> None:
    response.delete_cookie(COOKIE_NAME, samesite="Lax")


def player_from_cookie(raw: str | None) -> Player | None:
    """The player a signed cookie names, or None (unsigned, tampered, revoked, unknown)."""
    if not raw:
        return None
    # Django reads its signed cookies from a request; a websocket's scope has only the text.
    carrier = HttpRequest()
    carrier.COOKIES[COOKIE_NAME] = raw
    value = carrier.get_signed_cookie(COOKIE_NAME, default=None, salt=COOKIE_SALT)
    if value is None:
        return None
    public_id, _, epoch = value.partition(":")
    if not epoch.isdigit():
        return None
    player = select_row(Player, public_id=public_id, cookie_epoch=int(epoch))
    return None if player is None else touch(player)


def device_of(request: HttpRequest, response: HttpResponse) -> str:
    """The browser's device id, from its cookie or new (set on ``response``); "" for bearer
    clients, which hold no cookies."""
    if bearer_token(request) is not None:
        return ""
    device = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
    if not device:
        device = secrets.token_urlsafe(16)
        response.set_signed_cookie(
            DEVICE_COOKIE, device, salt=DEVICE_SALT, max_age=COOKIE_MAX_AGE_S, httponly=True,
            samesite="Lax", secure=not settings.DEBUG)
    return device


def bearer_token(request: HttpRequest) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def player_from_token(token: str) -> Player | None:
    if not token:
        return None
    player = select_row(Player, token_hash=hash_token(token))
    return None if player is None else touch(player)


def touch(player: Player) -> Player:
    now = timezone.now()
    if now - player.last_seen_at > LAST_SEEN_RESOLUTION:
        services.mark_seen(player, now)
    return player


# --- django-ninja auth classes ------------------------------------------------------------


class BearerToken(HttpBearer):
    """``Authorization: Bearer <token>`` from ``POST /players``."""

    def authenticate(self, request: HttpRequest, token: str) -> Player:
        player = player_from_token(token.strip())
        if player is None:
            raise errors.invalid_token()
        return player


class PlayerCookie(APIKeyCookie):
    """The browser's signed cookie, with Django's CSRF check on unsafe methods.

    Unlike the base class it checks CSRF only when the cookie is there: a request without
    the cookie carries no ambient authority to protect, and falls through to the next auth
    class (or to 401 ``no_identity``) instead of a misleading CSRF failure."""

    param_name = COOKIE_NAME

    def __init__(self) -> None:
        super().__init__(csrf=True)

    def _get_key(self, request: HttpRequest) -> str | None:
        key = request.COOKIES.get(self.param_name)
        if not key:
            return None
        if not getattr(request, "_ninja_csrf_exempt", False) and check_csrf(request):
            raise errors.csrf_failed()
        return key

    def authenticate(self, request: HttpRequest, key: str | None) -> Player | None:
        return player_from_cookie(key)


class NewBrowser:
    """The last resort on endpoints that give a browser its player on first write: a request
    with no (valid) identity that passes the CSRF check. ``request.auth`` becomes
    :data:`NEW_BROWSER`; the view calls :func:`player_for_write` once its input is valid, so
    a refused request creates no player."""

    def __call__(self, request: HttpRequest):
        if check_csrf(request):
            raise errors.csrf_failed()
        return NEW_BROWSER


class NoIdentity:
    """The last resort everywhere else: 401 ``no_identity`` (ninja's own 401 has no code)."""

    def __call__(self, request: HttpRequest):
        raise errors.no_identity()


NEW_BROWSER = "new-browser"

# Order matters: a bearer header wins; an unknown token is refused outright.
PLAYER = [BearerToken(), PlayerCookie(), NoIdentity()]
PLAYER_OR_NEW_BROWSER = [BearerToken(), PlayerCookie(), NewBrowser()]
# What only a client holding its token may ask for (a socket ticket): a cookie is 401.
BEARER_ONLY = [BearerToken(), NoIdentity()]


class Anonymous:
    """The last resort on public reads: no identity is fine (``request.auth`` is this)."""

    def __call__(self, request: HttpRequest):
        return ANONYMOUS


ANONYMOUS = "anonymous"
PLAYER_OR_ANONYMOUS = [BearerToken(), PlayerCookie(), Anonymous()]
# What the OpenAPI document says of such reads: an identity, or none (the empty security
# requirement, which django-ninja appends after the two schemes through ``openapi_extra``).
AUTH_OPTIONAL = {"security": [{}]}


def player_of(request: HttpRequest) -> Player | None:
    """The asking player of a public read, or None."""
    return request.auth if isinstance(request.auth, Player) else None


def player_for_write(request: HttpRequest, response: HttpResponse) -> Player:
    """``request.auth`` as a player, creating one (and setting its cookie) for a new browser."""
    if request.auth == NEW_BROWSER:
        player = services.create_player()
        set_player_cookie(response, player)
        device_of(request, response)
        request.auth = player
    return request.auth


def require_csrf(request: HttpRequest) -> None:
    """For browser-only writes that need no identity yet (log in, redeem a transfer code):
    they change which identity the browser holds, so they are CSRF-checked like a login."""
    if check_csrf(request):
        raise errors.csrf_failed()
