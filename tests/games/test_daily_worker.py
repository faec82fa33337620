"""A real Celery worker, consuming from Redis, runs the daily's tasks against the database
(not eager mode). Runs when REDIS_URL is set and the database is PostgreSQL (CI's first run);
the worker runs in a thread of this process, on a queue of its own, so it sees the test
database and no other worker can take its messages."""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

import pytest
from django.conf import settings

from games.models import DailyDeal, Game
from games.tasks import close_ended_dailies, prepare_daily_deals
from ladder.celery import app
from tests.factories import DAY
from tests.leaderboards.factories import player

POSTGRESQL = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: without Redis, Celery "
                                                      "runs tasks eagerly and has no worker"),
    pytest.mark.skipif(not POSTGRESQL, reason="the worker's thread needs its own database "
                                              "connection to the test database: PostgreSQL"),
]


@pytest.fixture
def worker_queue():
    from celery.contrib.testing.worker import start_worker

    # Starting a worker sets up Celery's logging: the root logger's level drops to the
    # worker's ("error") and its handlers are replaced. Put them back for the tests after.
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    queue = f"test-daily-{uuid.uuid4().hex}"
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue],
                          shutdown_timeout=30):
            yield queue
    finally:
        root.setLevel(level)
        root.handlers = handlers


@pytest.mark.django_db(transaction=True)
def test_a_worker_creates_the_days_deals_from_the_beat_task(clock, worker_queue):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    result = prepare_daily_deals.apply_async(queue=worker_queue)
    assert result.get(timeout=30) == [str(DAY), str(DAY + timedelta(days=1))]
    assert set(DailyDeal.objects.values_list("date", flat=True)) == {
        DAY, DAY + timedelta(days=1)}


@pytest.mark.django_db(transaction=True)
def test_a_worker_closes_an_ended_day(clock, worker_queue):
    from games.services.daily import start_daily

    game = start_daily(player()[0]).game
    clock.advance(days=1)
    result = close_ended_dailies.apply_async(queue=worker_queue)
    assert result.get(timeout=30) == {"revealed": 1, "expired": 1}
    assert Game.objects.get(pk=game.pk).status == Game.EXPIRED
