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


def overdue(game: Game, now: datetime | None = None) -> bool:
    """Has the turn of the person to move run out? (False for a game with no timer running.)"""
    deadline = game.turn_deadline
    return deadline is not None and deadline <= (now or timezone.now())


def next_deadline(game: Game, state: GameState) -> datetime | None:
    """The deadline after a write left ``state`` (the bots have played: a person is to move,
    or nobody). A turn's timer starts with the turn (R13: the draw phase) and runs on through
    the rest of it."""
    if not game.turn_seconds or state.phase == FINISHED:
        return None
    if state.phase == DRAW or game.turn_deadline is None:
        return timezone.now() + timedelta(seconds=game.turn_seconds)
    return game.turn_deadline


def seconds_left(deadline: datetime | None, now: datetime | None = None) -> int | None:
    """Whole seconds until ``deadline`` (rounded up, at least 0), for a countdown that does
    not depend on the client's clock."""
    if deadline is None:
        return None
    return max(0, math.ceil((deadline - (now or timezone.now())).total_seconds()))


def notice(version: int, kind: str, data: dict) -> dict:
    """A socket frame of news that is not a move (the same for every seat: no card in it),
    shaped as an event's: ``{"v", "t", "data", "d"}``."""
    return {"v": version, "t": kind, "data": data, "d": data}


def timer_notice(game: Game, seat: int) -> dict:
    """``turn_timer``: the turn of ``seat`` (a person) started, and runs out at ``deadline``."""
    return notice(game.version, "turn_timer", {
        "seat": seat, "deadline": game.turn_deadline.isoformat(),
        "seconds_left": seconds_left(game.turn_deadline), "seconds": game.turn_seconds})


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
