"""Turn timers at a table's games (docs/design.md, "Turn timers"): the deadline as data, and
who is told of it. The writes themselves (a turn played for a person out of time, a person
back) are the one writer's, in games.services.

A game with a timer (``Game.turn_seconds``) stores in ``Game.turn_deadline``, with the
snapshot and the version, when the turn of the person to move runs out: set when a person's
turn begins (the draw phase), kept while they play it, cleared when a bot or nobody is to
move. The deadline is the guard: the one writer plays an overdue turn under the game's row
lock and moves the deadline in the same transaction, so whoever notices it first (a Celery
task due at the deadline, beat's sweep, a read or an action of the game) plays that turn, and
everyone after finds nothing overdue. ``./dev serve`` runs a worker and beat as production
does (ladder/settings.py), so the same watchers keep time there.

Two things move the deadline without being a guard of their own. A write that ends a deal
starts a break (``Game.break_until``, BREAK_SECONDS on): a turn that starts in it is timed
from its end, so nobody's clock runs while people read the results; the break ends early
once every person present has closed them (games.services.turns.ready). And a table where
every person is away is paused: no deadline, so nothing plays itself until someone is back.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from celery import current_app
from django.utils import timezone

from games.engine import DRAW, FINISHED, GameState
from games.models import Game

logger = logging.getLogger(__name__)

# Turns in a row the timer plays for a person before their seat is "away": from then on
# their turns are played at once, until they act or say they are back.
AWAY_AFTER_TIMEOUTS = 2
TIME_OUT_TASK = "games.time_out_turn"  # games.tasks.time_out_turn (tasks sit above services)
# The break between deals: long enough to read the results table at a glance and let a
# slow phone's playback reach it; the people at the table cut it short by closing it.
BREAK_SECONDS = 20


def overdue(game: Game, now: datetime | None = None) -> bool:
    """Has the turn of the person to move run out? (False for a game with no timer running.)"""
    deadline = game.turn_deadline
    return deadline is not None and deadline <= (now or timezone.now())


def next_deadline(game: Game, state: GameState, paused: bool = False) -> datetime | None:
    """The deadline after a write left ``state`` (the bots have played: a person is to move,
    or nobody). A turn's timer starts with the turn (R13: the draw phase), or at the end of
    the break between deals if it starts in one, and runs on through the rest of it.
    ``paused``: every person at the game is away (the one to move too): no deadline."""
    if not game.turn_seconds or state.phase == FINISHED or paused:
        return None
    if state.phase == DRAW or game.turn_deadline is None:
        now = timezone.now()
        start = max(now, game.break_until) if game.break_until else now
        return start + timedelta(seconds=game.turn_seconds)
    return game.turn_deadline


def start_break(game: Game, before: dict, state: GameState) -> bool:
    """When a write moved a timed game into a new deal (``before``: the snapshot it started
    from): the break between deals starts now (``game.break_until``); whether it did."""
    if not game.turn_seconds or state.phase == FINISHED or before.get("deal") == state.deal:
        return False
    game.break_until = timezone.now() + timedelta(seconds=BREAK_SECONDS)
    return True


def in_break(game: Game, now: datetime | None = None) -> bool:
    return game.break_until is not None and game.break_until > (now or timezone.now())


def seconds_left(deadline: datetime | None, now: datetime | None = None) -> int | None:
    """Whole seconds until ``deadline`` (rounded up, at least 0), for a countdown that does
    not depend on the client's clock."""
    if deadline is None:
        return None
    return max(0, math.ceil((deadline - (now or timezone.now())).total_seconds()))


def notice(version: int, kind: str, data: dict) -> dict:
    """A socket frame of news that is not a move (the same for every seat: no card in it),
    shaped as an event's: ``{"v", "t", "data"}``."""
    return {"v": version, "t": kind, "data": data}


def timer_notice(game: Game, seat: int) -> dict:
    """``turn_timer``: the turn of ``seat`` (a person) started, and runs out at ``deadline``
    (after the break between deals, ``break_until``, if it started in one)."""
    return notice(game.version, "turn_timer", {
        "seat": seat, "deadline": game.turn_deadline.isoformat(),
        "seconds_left": seconds_left(game.turn_deadline), "seconds": game.turn_seconds,
        "break_until": game.break_until.isoformat() if in_break(game) else None})


def schedule(public_id: str, deadline: datetime) -> None:
    """After commit: a Celery task due at ``deadline`` plays the turn if it is still overdue
    then (games.tasks.time_out_turn). Nothing where tasks run where they are queued (the
    tests: it would run now and find nothing due). Never raises: with the broker away the
    beat's sweep plays the turn instead."""
    if current_app.conf.task_always_eager:
        return
    try:
        current_app.send_task(TIME_OUT_TASK, args=[public_id], eta=deadline)
    except Exception:
        logger.warning("Could not schedule the turn timer of game %s", public_id, exc_info=True)
