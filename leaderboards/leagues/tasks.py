"""Celery tasks: one-line wrappers around services, scheduled by ``CELERY_BEAT_SCHEDULE`` in
ladder/settings.py (docs/design.md, "The apps"). Without beat the leagues' tallies are not
carried forward: the boards then count more days from the scores, and stay right."""

from celery import shared_task

from leaderboards.leagues.services import carry_tallies_forward


@shared_task(name="leagues.carry_tallies_forward")
def carry_league_tallies_forward() -> int:
    """Every league's all-time tallies up to the newest closed day; returns the leagues."""
    return carry_tallies_forward()
