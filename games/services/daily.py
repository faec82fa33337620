"""The daily's writes (R26): the day's deal, a player's one attempt, the end of a day.

What a day is, its clock and its commitment are in :mod:`games.daily`; this module only
changes the database. Celery beat calls :func:`prepare_deals` (hourly) and
:func:`close_ended_days` (after midnight) through games.tasks. The daily's entry point,
with a map of all its parts, is :mod:`games.api_daily`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import IntegrityError, transaction

from games import daily, signals
from games.models import DailyDeal, Game
from games.players.models import Player
from games.services.actions import start_game
from games.services.seating import Played


def deal_for(day: date) -> DailyDeal:
    """The deal of ``day``, created now if nobody made it yet (get_or_create: when several
    requests race, one insert wins the unique date and the others read its row)."""
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is not None:
        return deal
    seed = daily.new_seed()
    deal, _ = DailyDeal.objects.get_or_create(
        date=day, defaults={"seed": seed, "commitment": daily.commitment_of(seed)})
    return deal


def todays_deal() -> DailyDeal:
    return deal_for(daily.today())


def prepare_deals() -> list[date]:
    """Beat's job: make sure today's and tomorrow's deals exist. Returns the days it created."""
    created = []
    for day in (daily.today(), daily.today() + daily.DAY):
        if not DailyDeal.objects.filter(date=day).exists():
            deal_for(day)
            created.append(day)
    return created


@dataclass
class Attempt:
    game: Game
    created: bool
    played: Played | None = None  # when just started


def start_daily(player: Player, address: str = "", device: str = "") -> Attempt:
    """Today's daily for ``player``: a new game on the day's seed at DAILY_LEVEL, or the game
    they already have (whatever its status). One per player per day: the database's unique
    ``(owner, daily)`` constraint decides a race between two starts. ``address`` and
    ``device`` (the browser's device cookie) are kept as the day's keyed hashes, and
    ``daily_started`` tells the leaderboard, which links attempts that share one."""
    deal = todays_deal()
    existing = daily.attempt_of(player, deal)
    if existing is not None:
        return Attempt(existing, created=False)
    try:
        with transaction.atomic():
            played = start_game(
                player, Game.DAILY, daily.DAILY_LEVEL, daily=deal,
                address_hash=daily.address_hash(deal.date, address) if address else "",
                device_hash=daily.address_hash(deal.date, f"device:{device}") if device else "")
            signals.daily_started.send(sender=Game, game=played.game)
    except IntegrityError:
        return Attempt(Game.objects.get(owner=player, daily=deal), created=False)
    return Attempt(played.game, created=True, played=played)


def close_ended_days() -> dict:
    """Beat's job after midnight (idempotent): mark every ended day's deal revealed and close
    its unfinished dailies as ``expired``. An expired daily does not rank (games.daily's
    docstring says why). A game that an in-flight action finishes holds its row lock until it
    commits; the update then sees it finished and leaves it be."""
    current = daily.today()
    moment = daily.now()
    revealed = DailyDeal.objects.filter(date__lt=current, revealed_at__isnull=True).update(
        revealed_at=moment)
    expired = Game.objects.filter(
        mode=Game.DAILY, status=Game.ACTIVE, daily__date__lt=current,
    ).update(status=Game.EXPIRED, updated_at=moment)
    return {"revealed": revealed, "expired": expired}
