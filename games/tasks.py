"""Celery tasks: one-line wrappers around services (docs/design.md, "The apps"). Scheduled by
``CELERY_BEAT_SCHEDULE`` in ladder/settings.py, or queued by games.receivers; without
``REDIS_URL`` nothing schedules them, the daily's deal is created on first use instead
(games.services.daily.deal_for) and a queued task runs at once (eager)."""

from celery import shared_task

from games import services
from games.services import analysis
from games.services.daily import close_ended_days, prepare_deals


@shared_task(name="games.prepare_daily_deals")
def prepare_daily_deals() -> list[str]:
    """Create today's and tomorrow's deals if missing; returns the days created."""
    return [day.isoformat() for day in prepare_deals()]


@shared_task(name="games.close_ended_dailies")
def close_ended_dailies() -> dict:
    """Reveal ended days and expire their unfinished dailies; returns the counts."""
    return close_ended_days()


@shared_task(name="games.time_out_turn")
def time_out_turn(game_id: str) -> bool:
    """Due at a turn's deadline (games.services.timers.schedule): play the turn for its
    person if it is still overdue; whether it did."""
    return services.time_out(game_id)


@shared_task(name="games.time_out_overdue_turns")
def time_out_overdue_turns() -> int:
    """Beat's sweep, every few seconds: every overdue turn a task missed; how many."""
    return services.time_out_overdue()


@shared_task(name="games.queue_analyses")
def queue_analyses() -> int:
    """Queue the post-game analysis of every game it may read now and that has none (an
    ended day's dailies, a practice game whose task was lost); returns how many."""
    queued = analysis.awaiting()
    for public_id in queued:
        analyse_game.delay(public_id)
    return len(queued)


@shared_task(name="games.analyse_game")
def analyse_game(public_id: str) -> int:
    """The post-game analysis of a game that is over, for each of its people (the rows
    written); skipped (0) while the game or its day still runs."""
    try:
        return analysis.analyse(public_id)
    except analysis.AnalysisRefused:
        return 0
