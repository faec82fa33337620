"""Socket tickets (docs/api.md, "Who you are"): a short-lived, single-use word that
opens one websocket as the player who asked for it, for clients that cannot set the
handshake's ``Authorization`` header (a browser's ``WebSocket``), so no long-lived token goes
into a URL.

``POST /socket-tickets`` (bearer token only) gives one; the socket's URL carries it
(``/ws/games/{id}/?ticket=...``) and the handshake consumes it (games.consumers.admit). It is
kept in Django's cache (Redis in production, shared by every process): its SHA-256 names the
entry, which holds the player and the moment it expires; consuming deletes the entry, and
only the one ``delete`` that removed it admits a socket, so two handshakes racing with one
ticket cannot both pass. A ticket is no ambient credential (a page must have been given it),
so a ticketed socket is not refused for its ``Origin``.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime

from django.core.cache import caches

from games.players.models import Player, sha256_hex
from games.web.rows import select_row

TICKET_SECONDS = 30  # long enough to open a socket, too short to be worth stealing
PREFIX = "st_"
KEY = "socket-ticket:{}"


class TicketsUnavailable(Exception):
    """The cache cannot keep a ticket now (Redis away)."""


def clock() -> float:
    """Seconds since the epoch; tests move it."""
    return time.time()


def issue(player: Player) -> tuple[str, datetime]:
    """A new ticket for ``player`` and when it expires."""
    ticket = PREFIX + secrets.token_urlsafe(24)
    expires = clock() + TICKET_SECONDS
    try:
        caches["default"].set(KEY.format(sha256_hex(ticket)), (player.pk, expires),
                              timeout=TICKET_SECONDS + 1)
    except Exception as error:
        raise TicketsUnavailable from error
    return ticket, datetime.fromtimestamp(expires, UTC)


def redeem(ticket: str) -> Player | None:
    """The player ``ticket`` was issued to, once: None if it is unknown, used, expired, or
    the cache is away (the socket is refused; the client asks for a new one)."""
    if not ticket.startswith(PREFIX) or len(ticket) > 64:
        return None
    key = KEY.format(sha256_hex(ticket))
    backend = caches["default"]
    try:
        kept = backend.get(key)
        if kept is None or not backend.delete(key):  # another handshake took it first
            return None
    except Exception:
        return None
    player_pk, expires = kept
    if clock() >= expires:
        return None
    return select_row(Player, id=player_pk)
