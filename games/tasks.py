"""Celery tasks: one-line wrappers around services (docs/design.md, "The apps"). Scheduled by
``CELERY_BEAT_SCHEDULE`` in ladder/settings.py; without ``REDIS_URL`` nothing schedules them
and the daily's deal is created on first use instead (games.services.daily.deal_for)."""

from celery import shared_task

from games.services.daily import close_ended_days, prepare_deals


@shared_task(name="games.prepare_daily_deals")
def prepare_daily_deals() -> list[str]:
    """Create today's and tomorrow's deals if missing; returns the days created."""
    return [day.isoformat() for day in prepare_deals()]


@shared_task(name="games.close_ended_dailies")
def close_ended_dailies() -> dict:
    """Reveal ended days and expire their unfinished dailies; returns the counts."""
    return close_ended_days()
