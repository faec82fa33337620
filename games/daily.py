"""The daily game (R26): everyone plays the same deals, one ranked attempt a day.

The deal
    A :class:`~games.models.DailyDeal` per UTC date: a secret random seed
    (``secrets.token_hex(32)``, never derived from the date) and its public commitment
    ``sha256(seed)`` in hex. Celery beat calls ``prepare_deals`` every hour, which creates
    today's and tomorrow's deals ahead of midnight; if beat did not run, the first request of
    the day creates the day's deal (``deal_for``, a ``get_or_create`` on the unique date,
    safe when many requests race). While the day runs the seed never leaves the server; once
    the day has ended (UTC) it is revealed (``GET /api/v1/daily/{date}``) and anyone can
    re-deal it with ``manage.py verify_daily`` and check it against the commitment (R24).

    Every game of the day uses the day's seed, so every player gets the same ten deals, the
    same first dealer and upcards, and the computer players draw their chances from the same
    streams (R24): only the person's own choices make games differ.

The attempt
    ``start_daily`` starts today's daily for a player or returns the one they already
    have: one attempt per player per day, enforced by the unique constraint on
    ``Game(owner, daily)`` (a racing second start hits it and gets the first game). The daily
    is played at :data:`DAILY_LEVEL` whatever level the client asks for, so everyone faces the
    same opposition. It can be resumed until the day ends; after that
    ``games.services.act`` refuses it (``daily_over``), since the seed is then public.

The end of the day
    ``close_ended_days`` (beat, just after midnight; harmless to repeat) marks the ended
    days' deals revealed and closes their unfinished dailies as ``expired``. **An expired daily
    does not rank**: a score is the result of a whole game of ten deals (R22, R23). Ranking a
    partial game would reward stopping early, since every deal played can only add penalty
    points. The expired attempt still used up the day's one attempt.

The writes named here (``deal_for``, ``prepare_deals``, ``start_daily``,
``close_ended_days``) are in :mod:`games.services.daily`; this module is the day's clock
and what it reads. The daily's entry point is its API, :mod:`games.api_daily`, whose
docstring maps every part (the browser's: frontend/static/frontend/js/daily/today.js).

Time
    "Today" is the UTC date of the database's clock (:func:`today`): every process decides
    the day's boundary from the same clock, for the day's last move (``games.services.act``)
    and for the reveal. This host's clock (:func:`now`) answers alone when it is more than
    ``CLOCK_MARGIN`` from midnight. Tests patch ``games.daily.now`` and
    ``games.daily.database_now`` (tests.factories.Clock).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.engine.cards import card_json
from games.engine.redeal import first_dealer, ten_deals
from games.models import DailyDeal, Game
from games.players.models import Player, sha256_hex

# The same bots for everyone. "normal", measured against "hard" by playing whole games through
# games.services on the 2-core dev machine (loaded): normal took about 2 s of server time per
# game, 8-10 ms per request on average, 0.2 s at worst; hard about 40 s per game, 190 ms per
# request, 1.8 s at worst. A day's worth of players at hard would cost 20 times the CPU and
# make every move wait; normal still plays a real game (README, "How to play": the daily).
DAILY_LEVEL = "normal"
SEED_BYTES = 32
DAY = timedelta(days=1)
# How far from midnight this host's clock decides the day alone: hosts must keep within this
# of the database's clock (docs/production.md, "The clock").
CLOCK_MARGIN = timedelta(minutes=1)


# --- The clock --------------------------------------------------------------------------------


def now() -> datetime:
    """This host's clock."""
    return timezone.now()


def database_now() -> datetime:
    """The database's clock: the one clock every process shares. PostgreSQL answers the
    transaction's start (``CURRENT_TIMESTAMP``, a time with its zone); SQLite the statement's,
    as UTC text."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT CURRENT_TIMESTAMP")
        moment = cursor.fetchone()[0]
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment).replace(tzinfo=UTC)
    return moment


def today() -> date:
    """R26: the day runs 00:00-24:00 UTC, by the database's clock, so that no process accepts
    a move after another has revealed the day's seed. Only within ``CLOCK_MARGIN`` of
    midnight by this host's clock is the database asked (one statement): further from it,
    a host kept within the margin of the database (NTP) cannot be on another day, and the
    action path costs nothing more."""
    moment = now().astimezone(UTC)
    if CLOCK_MARGIN <= moment - day_start(moment.date()) <= DAY - CLOCK_MARGIN:
        return moment.date()
    return database_now().astimezone(UTC).date()


def day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_end(day: date) -> datetime:
    return day_start(day + DAY)


def has_ended(day: date) -> bool:
    return day < today()


def day_has_ended(game: Game) -> bool:
    """Whether ``game`` is a daily whose day is over (it may no longer be played)."""
    return game.daily_id is not None and has_ended(game.daily.date)


# --- Deals ------------------------------------------------------------------------------------


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commitment_of(seed: str) -> str:
    """The public commitment to a seed: SHA-256 of its UTF-8 text, in lowercase hex."""
    return sha256_hex(seed)


def revealed_seed(deal: DailyDeal) -> str | None:
    """The seed once the deal's day has ended; None while it can still be played (R25)."""
    return deal.seed if has_ended(deal.date) else None


def revealed_deals_json(deal: DailyDeal) -> dict | None:
    """The day's ten deals as every player of that day was dealt them (the first dealer, each
    deal's dealer, four hands and first discard), for the browser's check against the seed;
    None while the day runs (R25: they are the day's hidden cards)."""
    seed = revealed_seed(deal)
    if seed is None:
        return None
    return {
        "date": deal.date, "commitment": deal.commitment, "seed": seed,
        "first_dealer": first_dealer(seed),
        "deals": [{"deal": d.deal, "dealer": d.dealer, "discard_top": card_json(d.discard_top),
                   "hands": [[card_json(c) for c in hand] for hand in d.hands]}
                  for d in ten_deals(seed)],
    }


# --- Attempts ---------------------------------------------------------------------------------


def address_hash(day: date, address: str) -> str:
    """A client address, keyed with SECRET_KEY and the day: equal addresses compare equal
    within one day, and nothing can be read back or linked across days."""
    message = f"{day.isoformat()}|{address}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def attempt_of(player: Player | None, deal: DailyDeal) -> Game | None:
    if player is None:
        return None
    return Game.objects.filter(owner=player, daily=deal).defer("state").first()


def attempt_json(game: Game | None) -> dict:
    """A player's attempt at a day: ``state`` none | active | finished | expired."""
    if game is None:
        return {"state": "none", "game": None, "result": None}
    result = None
    if game.status == Game.FINISHED:
        result = {"contracts": game.contracts, "penalty": game.penalty, "place": game.place}
    return {"state": game.status, "game": game.public_id, "result": result}


def daily_json(deal: DailyDeal, player: Player | None) -> dict:
    """What ``GET /daily`` and ``GET /daily/{date}`` answer: the commitment always, the seed
    only once the day has ended."""
    ends_at = day_end(deal.date)
    return {
        "date": deal.date,
        "level": DAILY_LEVEL,
        "commitment": deal.commitment,
        "seed": revealed_seed(deal),
        "revealed": has_ended(deal.date),
        "ends_at": ends_at,
        "seconds_left": max(0, int((ends_at - now()).total_seconds())),
        "attempt": attempt_json(attempt_of(player, deal)),
    }
