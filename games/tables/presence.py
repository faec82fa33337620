"""Who is at a table now: the lobby sockets (``/ws/tables/{id}/``) open per seat, counted in
Django's cache, which the ASGI processes share (as the open sockets per address are:
games.web.throttles).

A socket counts its seat in when it opens and out when it closes; while open it renews the
count's expiry each time it rejoins its group (games.web.groups.REJOIN_S), so the sockets of
a process that died stop counting within ``PRESENT_TTL_S``. A dead socket of a seat that
has another one open is counted until that one closes too (a seat shows connected a while
longer than it is: never the reverse). While the cache is away, nobody shows connected and
play goes on.
"""

from __future__ import annotations

import logging

from django.core.cache import caches

from games.tables.models import SEATS
from games.web.groups import REJOIN_S

logger = logging.getLogger(__name__)

PRESENT_TTL_S = int(3 * REJOIN_S)


def _key(table_id: str, seat: int) -> str:
    return f"table-present:{table_id}:{seat}"


def arrived(table_id: str, seat: int) -> None:
    cache, key = caches["default"], _key(table_id, seat)
    try:
        try:
            cache.incr(key)
        except ValueError:  # the seat's first socket
            if not cache.add(key, 1, timeout=PRESENT_TTL_S):
                cache.incr(key)
        cache.touch(key, PRESENT_TTL_S)
    except Exception:
        logger.warning("Presence: cache unavailable", exc_info=True)


def still_here(table_id: str, seat: int) -> None:
    try:
        caches["default"].touch(_key(table_id, seat), PRESENT_TTL_S)
    except Exception:
        logger.warning("Presence: cache unavailable", exc_info=True)


def went(table_id: str, seat: int) -> None:
    try:
        caches["default"].decr(_key(table_id, seat))  # at 0, it expires with its time
    except ValueError:  # expired meanwhile
        pass
    except Exception:
        logger.warning("Presence: cache unavailable", exc_info=True)


def connected(table_id: str) -> set[int]:
    """The seats with a lobby socket open now."""
    keys = {_key(table_id, seat): seat for seat in range(SEATS)}
    try:
        counts = caches["default"].get_many(list(keys))
    except Exception:
        logger.warning("Presence: cache unavailable", exc_info=True)
        return set()
    return {keys[key] for key, count in counts.items() if count and count > 0}
